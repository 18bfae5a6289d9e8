/**
 * The journal of a `fetch` run: a file beside the output (`OUTPUT.journal`)
 * that each finished origin is appended to as it finishes, so that a run
 * killed, interrupted or crashed loses at most the last second: the same
 * command run again reads it back and fetches only the origins it lacks.
 *
 * Its first line names the run (the output, format, inputs, options that
 * decide which origins are fetched and how they are keyed); a journal of
 * another run is not used. Every other line is one origin's record, as
 * `fetch --format jsonl` writes it (fetch-record.ts). Records are written
 * to the file once the turn of the event loop that finished them is over
 * (so at least every 1,000 records and every second), with plain `write`
 * calls: what was written survives a SIGKILL of the process (the kernel
 * holds it), so a kill loses only the origins in flight; it is synced to
 * the disk every second. A last line cut short (a full disk, a kill) is
 * dropped when the journal is read back, and so is a damaged record, each
 * with a warning: their origins are fetched again. A record is a JSON
 * object whose fields may come in any order; one that is not taken up (of
 * an origin not in the run, or recorded again) is said too.
 *
 * The records are also where the output is made from, once the run is over
 * (read back by offset: memory holds 12 bytes per origin, not its rules).
 * One run at a time uses a journal: its lock (journal-lock.ts) is held from
 * {@link Journal.open} until the journal is closed or removed.
 */
import { closeSync, constants, fdatasync, fstatSync, ftruncateSync, openSync, readSync, rmSync, writeSync } from 'node:fs'
import { describeSystemError } from '../../node.js'
import { CliError } from '../common/cli-error.js'
import { plural } from '../common/numbers.js'
import { JournalLock } from './journal-lock.js'

/** What the first line holds. */
const MAGIC = 'robots-automaton fetch journal'
const VERSION = 2

/** Records buffered at most before they are written to the file. */
export const FLUSH_RECORDS = 1000
/** Longest time a finished record waits before it is written to the file, ms. */
export const FLUSH_MS = 1000

/** Bytes read at a time when the journal is read back. */
const READ_CHUNK = 1 << 20

/** Where each record lies in the file. */
export interface RecordSpan {
  readonly offset: number
  readonly length: number
}

/** The journal of one run (see the module comment). */
export class Journal {
  private fd: number
  /** Bytes in the file, plus those buffered. */
  private end: number
  private buffered: Buffer[] = []
  private bufferedRecords = 0
  private timer: NodeJS.Timeout | undefined
  private soon: NodeJS.Immediate | undefined
  private syncing = false
  private failure: CliError | undefined
  private closed = false
  /** Records appended by this run. */
  appended = 0

  private constructor(
    readonly path: string,
    fd: number,
    end: number,
    /** Whether the journal was there before this run (a run resumed). */
    readonly resumed: boolean,
    /** The first line of a journal not created yet. */
    private readonly head: string,
    private readonly lock: JournalLock,
  ) {
    this.fd = fd
    this.end = end
  }

  /**
   * Opens the journal at `path` for the run `identity` (any JSON value):
   * takes up the one there if it names the same run, else makes a new one,
   * created by {@link begin} (a run that fetches nothing leaves no journal). A journal of another run, or a file that is not a journal, is
   * an error (ERR_WRITE) naming it: it is never overwritten. `laterKeys`:
   * keys of `identity` recorded since this version began, which a journal
   * made before them lacks (it is taken up when the rest matches). A
   * journal another run uses (its lock held) is an error (ERR_WRITE) too.
   */
  static open(path: string, identity: unknown, laterKeys: readonly string[] = []): Journal {
    const lock = JournalLock.take(path)
    try {
      return Journal.openLocked(path, identity, laterKeys, lock)
    } catch (err) {
      lock.release()
      throw err
    }
  }

  /** {@link open}, its lock taken. */
  private static openLocked(path: string, identity: unknown, laterKeys: readonly string[], lock: JournalLock): Journal {
    const fail = (why: string): CliError => new CliError('ERR_WRITE', `cannot use the journal '${path}': ${why}`)
    const run = JSON.stringify({ journal: MAGIC, version: VERSION, run: identity })
    let fd: number
    try {
      // Read (the record spans) and appended to: every write lands at the end whatever was read.
      fd = openSync(path, constants.O_RDWR | constants.O_APPEND)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return new Journal(path, -1, Buffer.byteLength(run) + 1, false, run, lock)
      throw fail(describeSystemError(err))
    }
    try {
      const info = fstatSync(fd)
      if (!info.isFile()) throw fail('not a regular file')
      if (info.size <= Buffer.byteLength(run) && isHeadPrefix(fd, info.size, run)) {
        // Killed while this run's journal was being made (its first line cut short): no record yet, made again.
        closeSync(fd)
        rmSync(path, { force: true })
        return new Journal(path, -1, Buffer.byteLength(run) + 1, false, run, lock)
      }
      // Read as far as this run's first line goes at least (it names every input: it may be long).
      const first = readLine(fd, 0, info.size, Math.max(1 << 20, Buffer.byteLength(run) + 1))
      if (first === undefined || (first.text !== run && !madeBefore(first.text, identity, laterKeys))) {
        let what = 'it is not the journal of a fetch'
        try {
          const o = JSON.parse(first?.text ?? '') as { journal?: unknown; version?: unknown; run?: unknown }
          if (o.journal === MAGIC) {
            const differs = o.version === VERSION && typeof o.run === 'object' ? differences(o.run, identity, laterKeys) : []
            const which = differs.length > 0 ? `: ${differs.join('; ')}` : o.version === VERSION ? ' (other inputs, output or options)' : ' (made by another version)'
            what = `it is the journal of another run${which}: remove it, or run the command that made it again`
          }
        } catch {
          // not JSON: not a journal
        }
        throw fail(what)
      }
      return new Journal(path, fd, info.size, true, run, lock)
    } catch (err) {
      closeSync(fd)
      throw err instanceof CliError ? err : fail(describeSystemError(err))
    }
  }

  /**
   * Reads back the records of a resumed journal, calling `visit` with each
   * one's text and span (a byte order mark before it is left out of both);
   * it returns why a record is not taken up, if it is not. A last line cut
   * short (a kill while writing, a full disk) is cut off the file. Call
   * before appending; what was found, said by {@link readBackWarnings}.
   */
  readBack(visit: (text: string, span: RecordSpan) => Unused | undefined): ReadBack {
    const found: ReadBack = { damaged: { count: 0 }, foreign: { count: 0 }, repeated: { count: 0 }, cut: false }
    let line = 1
    const check = (text: string, span: RecordSpan): void => {
      line++
      if (text.charCodeAt(0) === 0xfeff) {
        // A byte order mark (a record a tool of another platform wrote): not part of the record.
        text = text.slice(1)
        span = { offset: span.offset + 3, length: span.length - 3 }
      }
      const unused = visit(text, span)
      if (unused === undefined) return
      const tally = found[unused.kind]
      if (tally.count++ === 0) tally.first = `line ${line}: ${unused.why}`
    }
    const size = this.end
    let at = 0
    let first = true
    let carry = Buffer.alloc(0)
    let carryAt = 0
    const chunk = Buffer.allocUnsafe(READ_CHUNK)
    while (at < size) {
      const n = readSync(this.fd, chunk, 0, Math.min(READ_CHUNK, size - at), at)
      if (n === 0) break
      const data = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, n)]) : chunk.subarray(0, n)
      const base = carry.length > 0 ? carryAt : at
      let start = 0
      for (let lf = data.indexOf(10); lf >= 0; lf = data.indexOf(10, start)) {
        if (!first) check(data.toString('utf8', start, lf), { offset: base + start, length: lf - start })
        first = false
        start = lf + 1
      }
      carry = Buffer.from(data.subarray(start))
      carryAt = base + start
      at += n
    }
    if (carry.length > 0) {
      // A record cut short: dropped (its origin is fetched again).
      ftruncateSync(this.fd, carryAt)
      this.end = carryAt
      found.cut = true
    }
    return found
  }

  /**
   * Creates the journal's file now if it is not there yet (before the first
   * request: a run that cannot write it fails before fetching, and the
   * records have their file whatever descriptors are left later).
   */
  begin(): void {
    if (this.fd >= 0 || this.closed) return
    this.write(() => {
      // 'ax+': a journal that appeared meanwhile (another run) is not overwritten.
      this.fd = openSync(this.path, 'ax+')
      return Buffer.from(`${this.head}\n`)
    })
  }

  /** Writes the bytes `make` gives to the file, whole; a failure is kept (the run's next call throws it too) and thrown. */
  private write(make: () => Buffer): void {
    try {
      const data = make()
      for (let n = 0; n < data.length; ) n += writeSync(this.fd, data, n, data.length - n)
    } catch (err) {
      throw (this.failure = new CliError('ERR_WRITE', `cannot write the journal '${this.path}': ${describeSystemError(err)}`))
    }
  }

  /** Appends one record (its text without a newline); its span in the file. */
  append(text: string): RecordSpan {
    if (this.failure) throw this.failure
    const bytes = Buffer.from(`${text}\n`)
    const span = { offset: this.end, length: bytes.length - 1 }
    this.end += bytes.length
    this.buffered.push(bytes)
    this.appended++
    if (++this.bufferedRecords >= FLUSH_RECORDS) this.flush()
    else if (this.soon === undefined) {
      // The records finished in this turn of the event loop, in one write.
      this.soon = setImmediate(() => {
        this.soon = undefined
        this.later()
      })
    }
    if (this.timer === undefined) {
      this.timer = setTimeout(() => {
        this.timer = undefined
        this.later()
        this.sync()
      }, FLUSH_MS)
      this.timer.unref()
    }
    return span
  }

  /** A flush of a timer: a failure (a full disk) is kept for the run's next call to throw, not thrown where nothing catches it. */
  private later(): void {
    try {
      this.flush()
    } catch {}
  }

  /** Writes the buffered records to the file (created with its first line if need be); throws a failure met before. */
  flush(): void {
    if (this.soon !== undefined) {
      clearImmediate(this.soon)
      this.soon = undefined
    }
    if (this.failure) throw this.failure
    if (this.bufferedRecords === 0 || this.closed) return
    const data = this.buffered.length === 1 ? this.buffered[0]! : Buffer.concat(this.buffered)
    this.buffered = []
    this.bufferedRecords = 0
    this.begin()
    this.write(() => data)
  }

  /** Asks the kernel to put what was written on the disk (in the background, one at a time). */
  private sync(): void {
    if (this.syncing || this.fd < 0 || this.closed) return
    this.syncing = true
    fdatasync(this.fd, () => (this.syncing = false))
  }

  /** The text of the record at `span`. */
  read(span: RecordSpan): string {
    this.flush()
    if (this.fd < 0) throw new CliError('ERR_READ', `cannot read the journal '${this.path}': it is closed`)
    const buf = Buffer.allocUnsafe(span.length)
    let n = 0
    while (n < span.length) {
      const got = readSync(this.fd, buf, n, span.length - n, span.offset + n)
      if (got === 0) throw new CliError('ERR_READ', `cannot read the journal '${this.path}': it ends before a record it holds`)
      n += got
    }
    return buf.toString('utf8')
  }

  /** Writes what is buffered and closes the file (it stays, for the next run). */
  close(): void {
    if (this.closed) return
    if (this.timer !== undefined) clearTimeout(this.timer)
    try {
      this.flush()
    } finally {
      this.closed = true
      if (this.fd >= 0) closeSync(this.fd)
      this.fd = -1
      this.lock.release()
    }
  }

  /** Closes and removes the journal (the output holds everything now). */
  remove(): void {
    if (this.timer !== undefined) clearTimeout(this.timer)
    if (this.soon !== undefined) clearImmediate(this.soon)
    this.buffered = []
    this.bufferedRecords = 0
    const had = this.fd >= 0 || this.resumed
    if (this.fd >= 0) closeSync(this.fd)
    this.fd = -1
    this.closed = true
    if (had) rmSync(this.path, { force: true })
    this.lock.release()
  }
}

/** The fields of two runs' identities that differ, as `name: then X, now Y`. */
function differences(then: unknown, now: unknown, laterKeys: readonly string[] = []): string[] {
  const a = (then ?? {}) as Record<string, unknown>
  const b = now as Record<string, unknown>
  const text = (v: unknown): string => JSON.stringify(v) ?? 'not recorded'
  const same = (k: string): boolean => text(a[k]) === text(b[k]) || (laterKeys.includes(k) && !Object.hasOwn(a, k))
  return Object.keys(b).filter((k) => !same(k)).map((k) => `${k}: then ${text(a[k])}, now ${text(b[k])}`)
}

/**
 * Whether `head` is the first line of a journal of this version made for
 * `identity` before its `laterKeys` were recorded: every other key the
 * same, in the same order, and none of those keys there.
 */
function madeBefore(head: string, identity: unknown, laterKeys: readonly string[]): boolean {
  const now = identity as Record<string, unknown>
  const without = Object.fromEntries(Object.entries(now).filter(([k]) => !laterKeys.includes(k)))
  return head === JSON.stringify({ journal: MAGIC, version: VERSION, run: without })
}

/**
 * Why a record read back is not taken up: `damaged` (a disk that failed, a
 * hand edit: its origin is fetched again), `foreign` (of an origin not in
 * the run: left out) or `repeated` (of an origin a record before it
 * holds too: that one is dropped, the last record of an origin taken up);
 * `why` names the record.
 */
export interface Unused {
  readonly kind: 'damaged' | 'foreign' | 'repeated'
  readonly why: string
}

/** How many records of one kind were not taken up, and the first of them (its line and why). */
export interface UnusedTally {
  count: number
  first?: string
}

/** What reading a journal back found ({@link Journal.readBack}). */
export interface ReadBack {
  readonly damaged: UnusedTally
  readonly foreign: UnusedTally
  readonly repeated: UnusedTally
  /** Whether a last record cut short was cut off. */
  cut: boolean
}

/** The warnings of what {@link Journal.readBack} found in `journal`. */
export function readBackWarnings(journal: Journal, found: ReadBack): string[] {
  const out: string[] = []
  const holds = `warning: the journal '${journal.path}' holds`
  if (found.cut) out.push(`warning: the journal '${journal.path}' ends in a record cut short (a kill, a full disk): dropped, fetched again`)
  const { damaged, foreign, repeated } = found
  if (damaged.count > 0) out.push(`${holds} ${plural(damaged.count, 'damaged record')} (${damaged.first}): skipped, fetched again`)
  if (foreign.count > 0) out.push(`${holds} ${plural(foreign.count, 'record')} of origins not in this run (${foreign.first}): left out`)
  if (repeated.count > 0) out.push(`${holds} ${plural(repeated.count, 'record')} of an origin recorded before (${repeated.first}): the last record of each origin taken up`)
  return out
}

/** Whether the `size` bytes of the file are the start of the line `head` (without its newline; nothing at all included). */
function isHeadPrefix(fd: number, size: number, head: string): boolean {
  const want = Buffer.from(head)
  if (size > want.length) return false
  const got = Buffer.alloc(size)
  for (let n = 0; n < size; ) {
    const r = readSync(fd, got, n, size - n, n)
    if (r === 0) return false
    n += r
  }
  return got.equals(want.subarray(0, size))
}

/** The line starting at `at` (without its newline), or undefined when there is none whole within `limit` bytes. */
function readLine(fd: number, at: number, size: number, limit: number): { text: string; end: number } | undefined {
  const chunks: Buffer[] = []
  let pos = at
  const buf = Buffer.allocUnsafe(64 * 1024)
  while (pos < size) {
    const n = readSync(fd, buf, 0, Math.min(buf.length, size - pos), pos)
    if (n === 0) break
    const lf = buf.subarray(0, n).indexOf(10)
    if (lf >= 0) {
      chunks.push(Buffer.from(buf.subarray(0, lf)))
      return { text: Buffer.concat(chunks).toString('utf8'), end: pos + lf + 1 }
    }
    chunks.push(Buffer.from(buf.subarray(0, n)))
    pos += n
    if (pos - at > limit) return undefined
  }
  return undefined
}
