/**
 * Politeness per server: at most `perAddress` connections in flight to one
 * address, whatever the number of host names that resolve to it (shared
 * hosting puts thousands on one). Waiters are served in order; a table
 * entry lives only while its address has connections or waiters, so memory
 * follows what is in flight, not the addresses ever met.
 */

/** The connections of one address and those waiting for one. */
interface Slots {
  active: number
  readonly waiting: (() => void)[]
}

/** Connection slots per address. */
export class AddressGate {
  private readonly table = new Map<string, Slots>()

  constructor(readonly perAddress: number) {}

  /** Takes a slot of `address` when one is free at once. */
  tryAcquire(address: string): boolean {
    const s = this.table.get(address)
    if (s === undefined) {
      this.table.set(address, { active: 1, waiting: [] })
      return true
    }
    if (s.active >= this.perAddress || s.waiting.length > 0) return false
    s.active++
    return true
  }

  /**
   * Takes a slot of `address`, waiting for one in turn. `signal` aborting
   * while it waits rejects with `onAbort()`'s error (the slot is not taken).
   */
  acquire(address: string, signal?: AbortSignal, onAbort?: () => unknown): Promise<void> {
    if (this.tryAcquire(address)) return Promise.resolve()
    const s = this.table.get(address)!
    return new Promise<void>((resolve, reject) => {
      const grant = (): void => {
        signal?.removeEventListener('abort', abort)
        resolve()
      }
      const abort = (): void => {
        const i = s.waiting.indexOf(grant)
        if (i >= 0) s.waiting.splice(i, 1)
        this.drop(address, s)
        reject(onAbort !== undefined ? onAbort() : signal!.reason)
      }
      if (signal?.aborted) return abort()
      signal?.addEventListener('abort', abort, { once: true })
      s.waiting.push(grant)
    })
  }

  /** Gives a slot of `address` back: to the first waiter, else free. */
  release(address: string): void {
    const s = this.table.get(address)
    if (s === undefined) return
    const next = s.waiting.shift()
    if (next !== undefined) return next() // the slot passes on: `active` is unchanged
    s.active--
    this.drop(address, s)
  }

  /** Connections in flight to `address`. */
  active(address: string): number {
    return this.table.get(address)?.active ?? 0
  }

  /** Addresses with connections or waiters. */
  get size(): number {
    return this.table.size
  }

  private drop(address: string, s: Slots): void {
    if (s.active <= 0 && s.waiting.length === 0) this.table.delete(address)
  }
}
