/**
 * How many connections this process can have open: every request in flight
 * holds one descriptor (its socket), and a process may open as many as its
 * soft limit on open files (`ulimit -n`). Node raises the soft limit to the
 * hard limit itself when it starts (where the system allows it), and offers
 * no `setrlimit`: so `fetch` reads both limits and the descriptors open now
 * (Linux: /proc/self/limits, /proc/self/fd) and lowers `--concurrency` to
 * what fits, saying so, rather than meeting EMFILE. Elsewhere nothing is
 * known and nothing is lowered (EMFILE, if met, is still retried, never an
 * outcome).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { count } from '../common/numbers.js'

/** The open-files limits of this process and the descriptors it has open. */
export interface DescriptorLimit {
  readonly soft: number
  readonly hard: number
  readonly open: number
}

/** Descriptors kept free for what is not a request: the journal, the output, the resolver's sockets, Node's own. */
export const RESERVED_DESCRIPTORS = 32

/** A limit's value in /proc/self/limits (`unlimited`: Infinity). */
function limitValue(text: string): number {
  return text === 'unlimited' ? Infinity : Number(text)
}

/** This process's open-files limits and open descriptors, or undefined where they cannot be read. */
export function descriptorLimit(): DescriptorLimit | undefined {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'))
    const m = line === undefined ? null : /^Max open files\s+(\S+)\s+(\S+)/.exec(line)
    if (m === null) return undefined
    const soft = limitValue(m[1]!)
    const hard = limitValue(m[2]!)
    if (!(soft > 0) || !(hard > 0)) return undefined
    return { soft, hard, open: readdirSync('/proc/self/fd').length }
  } catch {
    return undefined
  }
}

/** `requested` lowered to what the descriptors allow, and the note that says so (undefined when not lowered). */
export function fittingConcurrency(requested: number, limit: DescriptorLimit | undefined): { concurrency: number; note?: string } {
  if (limit === undefined || !Number.isFinite(limit.soft)) return { concurrency: requested }
  const room = Math.max(1, limit.soft - limit.open - RESERVED_DESCRIPTORS)
  if (requested <= room) return { concurrency: requested }
  const needed = requested + limit.open + RESERVED_DESCRIPTORS
  return {
    concurrency: room,
    note:
      `note: --concurrency ${count(requested)} lowered to ${count(room)}: this process may have ${count(limit.soft)} files open` +
      ` (ulimit -n; the hard limit is ${Number.isFinite(limit.hard) ? count(limit.hard) : 'unlimited'}), ${count(limit.open)} are open and ${RESERVED_DESCRIPTORS} kept free;` +
      ` for more, raise the limit before the run ('ulimit -n ${needed}'${needed > limit.hard ? ', above the hard limit: as root or in limits.conf' : ''})`,
  }
}
