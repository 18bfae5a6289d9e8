/**
 * Politeness per server: at most `perAddress` connections in flight to one
 * address, whatever the number of host names that resolve to it (shared
 * hosting puts thousands on one). Waiters are served in order; a table
 * entry lives only while its address has connections or waiters, so memory
 * follows what is in flight, not the addresses ever met.
 */

/**
 * The key of an address in the table: one per server, however written. An
 * IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, a route or an AAAA record
 * may give one) is its IPv4 address, which it reaches; other IPv6 spellings
 * (`2001:DB8::1`, `2001:db8:0:0::1`) are one, as the URL parser writes it.
 */
export function addressKey(address: string): string {
  if (!address.includes(':')) return address
  let host: string
  try {
    host = new URL(`http://[${address}]/`).hostname.slice(1, -1)
  } catch {
    return address.toLowerCase() // a zone (fe80::1%eth0): no URL spelling
  }
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host)
  if (mapped === null) return host
  const hi = parseInt(mapped[1]!, 16)
  const lo = parseInt(mapped[2]!, 16)
  return `${hi >>> 8}.${hi & 0xff}.${lo >>> 8}.${lo & 0xff}`
}

/** The connections of one address and those waiting for one. */
interface Slots {
  active: number
  readonly waiting: (() => void)[]
}

/** Connection slots per address. */
export class AddressGate {
  /** Slots by {@link addressKey}. */
  private readonly table = new Map<string, Slots>()

  constructor(readonly perAddress: number) {}

  /** Takes a slot of `address` when one is free at once. */
  tryAcquire(address: string): boolean {
    const key = addressKey(address)
    const s = this.table.get(key)
    if (s === undefined) {
      this.table.set(key, { active: 1, waiting: [] })
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
    const key = addressKey(address)
    const s = this.table.get(key)!
    return new Promise<void>((resolve, reject) => {
      const grant = (): void => {
        signal?.removeEventListener('abort', abort)
        resolve()
      }
      const abort = (): void => {
        const i = s.waiting.indexOf(grant)
        if (i >= 0) s.waiting.splice(i, 1)
        this.drop(key, s)
        reject(onAbort !== undefined ? onAbort() : signal!.reason)
      }
      if (signal?.aborted) return abort()
      signal?.addEventListener('abort', abort, { once: true })
      s.waiting.push(grant)
    })
  }

  /** Gives a slot of `address` back: to the first waiter, else free. */
  release(address: string): void {
    const key = addressKey(address)
    const s = this.table.get(key)
    if (s === undefined) return
    const next = s.waiting.shift()
    if (next !== undefined) return next() // the slot passes on: `active` is unchanged
    s.active--
    this.drop(key, s)
  }

  /** Connections in flight to `address`. */
  active(address: string): number {
    return this.table.get(addressKey(address))?.active ?? 0
  }

  /** Addresses with connections or waiters. */
  get size(): number {
    return this.table.size
  }

  private drop(key: string, s: Slots): void {
    if (s.active <= 0 && s.waiting.length === 0) this.table.delete(key)
  }
}
