/**
 * Output paths, one convention for every tool that writes a file (the
 * command line's `fetch -o`, `pack -o`, `playground --out`, `compare`'s
 * reports), in the Node entry (`robots-automaton/node`) for them and for
 * programs that save a bundle:
 *
 * - {@link checkOutput} checks the path before any work starts: its folder
 *   exists and is writable, it is not a directory (nor a socket or a block
 *   device), and says how it will be written.
 * - A regular file, a path that does not exist yet, or a symbolic link to
 *   either is replaced atomically: the bytes go to a temporary file beside
 *   the file replaced (a link's final target: the link stays, its target is
 *   replaced) and are renamed into place once complete, so no reader ever
 *   sees half a file. The temporary file is removed on every exit the
 *   process sees: its end, `process.exit`, and SIGINT, SIGTERM or SIGHUP
 *   that no other listener handles (the signal then ends the process as
 *   it would have); one left by a process that was killed (SIGKILL) is
 *   removed by the next run that writes the same path, once no process of
 *   its number runs or the one that does started after its last write.
 * - A FIFO, a character device (`/dev/stdout`, `/dev/null`) or `-` (stdout)
 *   is written in place, as the bytes come (a FIFO is opened without
 *   blocking the process while it waits for its reader).
 */
import { accessSync, constants, lstatSync, readdirSync, readFileSync, readlinkSync, realpathSync, renameSync, rmSync, statSync, writeSync } from 'node:fs'
import { open, type FileHandle } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { RobotsError, RobotsInputError } from '../index.js'
import { describeArgument } from '../net/option-checks.js'
import { describeSystemError } from './system-error.js'

/** How an output is written: stdout, in place as it comes, or a file replaced atomically. */
export type OutputKind = 'stdout' | 'stream' | 'file'

/** An output path, checked ({@link checkOutput}). */
export interface OutputTarget {
  /** The path as given (`-` for stdout). */
  readonly path: string
  readonly kind: OutputKind
  /** For `file`: the file replaced (a link's final target); for `stream`: the path opened. */
  readonly file: string
  /** What the file is, in messages (`bundle`, `report`). */
  readonly what: string
  /** Makes the error thrown for a message (`cannot write bundle 'x': is a directory`). */
  readonly fail: (message: string) => Error
}

/** An output that cannot be written (the default error of {@link checkOutput}): the Node entry's layer of the error tree; its message names the file and why. */
export class OutputError extends RobotsError<'ERR_OUTPUT'> {
  constructor(message: string) {
    super('ERR_OUTPUT', message)
    this.name = 'OutputError'
  }
}

const defaultFail = (message: string): Error => new OutputError(message)

/** Most links followed to a link's final target (as the kernel's ELOOP). */
const MAX_LINKS = 40

/** Temporary files of this process not yet renamed into place: removed at exit. */
const temporaries = new Set<string>()
let exitHook = false

function removeTemporaries(): void {
  for (const t of temporaries) rmSync(t, { force: true })
  temporaries.clear()
  unhookSignals()
}

type StopSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP'
const SIGNALS: StopSignal[] = ['SIGINT', 'SIGTERM', 'SIGHUP']

/**
 * Marks a listener that cleans up only when no other listener handles the
 * signal (the same key marks the tools' temporary folders' one,
 * src/tools/temp-folders.ts): such listeners do not count as handling it.
 */
const LAST_RESORT = Symbol.for('robots-automaton.last-resort')

/** A signal that nothing else handles: the temporary files removed, then the signal's default (the process ends by it). */
const lastListener = Object.assign(
  (name: StopSignal): void => {
    if (process.listeners(name).some((l) => !(l as { [LAST_RESORT]?: boolean })[LAST_RESORT])) return // a run's own handler decides
    removeTemporaries()
    process.kill(process.pid, name)
  },
  { [LAST_RESORT]: true },
)

function unhookSignals(): void {
  for (const name of SIGNALS) process.off(name, lastListener)
}

function writeFailure(target: { path: string; what: string; fail: (message: string) => Error }, err: unknown): Error {
  // A pipe or FIFO whose reader closed it (EPIPE): Node's words (`write EPIPE`) say nothing of that.
  const reason = typeof err === 'string' ? err : (err as { code?: unknown })?.code === 'EPIPE' ? 'its reader went away before all of it was written' : describeSystemError(err)
  return target.fail(`cannot write ${target.what} '${target.path}': ${reason}`)
}

/** A link's final target (following every link in turn), also when it does not exist yet. */
function finalTarget(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    // A dangling link: follow it by hand to the path it names.
    let p = resolve(path)
    for (let i = 0; i < MAX_LINKS; i++) {
      let isLink: boolean
      try {
        isLink = lstatSync(p).isSymbolicLink()
      } catch {
        return p
      }
      if (!isLink) return p
      p = resolve(dirname(p), readlinkSync(p))
    }
    throw Object.assign(new Error('too many symbolic links'), { code: 'ELOOP' })
  }
}

/** The temporary file beside `file` for this process. */
function temporaryOf(file: string): string {
  return join(dirname(file), `.${basename(file)}.${process.pid}.tmp`)
}

/** Removes temporary files beside `file` left by processes that no longer run (a SIGKILL during a write). */
function sweepTemporaries(file: string): void {
  const prefix = `.${basename(file)}.`
  let names: string[]
  try {
    names = readdirSync(dirname(file))
  } catch {
    return
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue
    const pid = Number(name.slice(prefix.length, -'.tmp'.length))
    if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) continue
    const path = join(dirname(file), name)
    let alive = true
    try {
      process.kill(pid, 0)
    } catch (err) {
      alive = (err as NodeJS.ErrnoException).code === 'EPERM'
    }
    try {
      // A process of that number that started after the file's last write is not its writer: the number was reused (a container's PID 1).
      if (!alive || startedAt(pid) > statSync(path).mtimeMs + 2000) rmSync(path, { force: true })
    } catch {
      // gone meanwhile
    }
  }
}

/** When the process `pid` started, in ms since the epoch (Linux's /proc: field 22 of its stat, in ticks of 10 ms since boot); NaN elsewhere. */
function startedAt(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1')
    const ticks = stat.slice(stat.lastIndexOf(') ') + 2).split(' ')[19]
    return Number(/btime (\d+)/.exec(readFileSync('/proc/stat', 'latin1'))![1]) * 1000 + Number(ticks) * 10
  } catch {
    return NaN
  }
}

/** Checks that the folder of `file` exists and that a file can be created in it. */
function checkFolder(target: { path: string; what: string; fail: (message: string) => Error }, file: string): void {
  const folder = dirname(file)
  let info
  try {
    info = statSync(folder)
  } catch (err) {
    throw writeFailure(target, `its folder '${folder}': ${describeSystemError(err)}`)
  }
  if (!info.isDirectory()) throw writeFailure(target, `'${folder}' is not a folder`)
  try {
    accessSync(folder, constants.W_OK | constants.X_OK)
  } catch (err) {
    throw writeFailure(target, `its folder '${folder}' is not writable (${describeSystemError(err)})`)
  }
}

/**
 * Whether `path` holds a lone surrogate (an unpaired U+D800–U+DFFF): it has
 * no UTF-8 form, so it names no file; Node would use U+FFFD in its place,
 * another name.
 */
export function hasLoneSurrogate(path: string): boolean {
  return /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(path)
}

/**
 * Checks the output path `path` before any work (see the module comment);
 * `what` names it in messages. What is wrong with it is thrown as
 * `fail(message)` makes it (default an {@link OutputError}), and so are the
 * write errors of the target later.
 */
export function checkOutput(path: string, what: string, fail: (message: string) => Error = defaultFail): OutputTarget {
  if (typeof path !== 'string') throw new RobotsInputError(`checkOutput takes a path (a string, '-' for stdout), got ${describeArgument(path)}`)
  if (typeof what !== 'string') throw new RobotsInputError(`checkOutput: what the output is must be a string, got ${describeArgument(what)}`)
  if (typeof fail !== 'function') throw new RobotsInputError(`checkOutput: fail must be a function, got ${describeArgument(fail)}`)
  if (path === '-') return { path, kind: 'stdout', file: '-', what, fail }
  const target = { path, what, fail }
  if (path === '') throw writeFailure(target, 'an empty path')
  if (hasLoneSurrogate(path)) throw writeFailure(target, 'holds a lone surrogate, which no file name has (Node would write another name)')
  // A path ending in a slash (or `.`, `..`) names a folder, never a file to create there.
  if (/(^|\/)\.{0,2}$/.test(path)) throw writeFailure(target, 'names a folder (a file is needed)')
  let info
  try {
    info = statSync(path)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    // ENOTDIR: a folder of the path is a file (said by the folder check below).
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw writeFailure(target, err)
    // Not there yet (or a link to nothing yet): created, through the link.
    let file: string
    try {
      file = finalTarget(path)
    } catch (e) {
      throw writeFailure(target, e)
    }
    checkFolder(target, file)
    sweepTemporaries(file)
    return { path, kind: 'file', file, what, fail }
  }
  if (info.isDirectory()) throw writeFailure(target, 'is a directory')
  if (info.isFIFO() || info.isCharacterDevice()) return { path, kind: 'stream', file: path, what, fail }
  if (info.isSocket()) throw writeFailure(target, 'is a socket')
  if (info.isBlockDevice()) throw writeFailure(target, 'is a block device (not written: name a file)')
  const file = finalTarget(path)
  checkFolder(target, file)
  sweepTemporaries(file)
  return { path, kind: 'file', file, what, fail }
}

/**
 * Writes `data` to stdout (a pipe, a socket, a terminal) and settles once it
 * is written or has failed. Until then an `'error'` listener is held, so
 * that a reader gone (EPIPE) rejects rather than crashes the process.
 */
function writeStdout(data: Uint8Array): Promise<void> {
  const out = process.stdout
  return new Promise((resolve, reject) => {
    let failed = false
    const onError = (err: Error): void => {
      out.off('error', onError)
      if (!failed) reject(err)
      failed = true
    }
    out.on('error', onError)
    out.write(data, (err) => {
      if (err == null) {
        out.off('error', onError)
        resolve()
        return
      }
      if (!failed) reject(err)
      failed = true
      // The stream emits the failure after this callback, in the same run of the queue.
      setImmediate(() => out.off('error', onError))
    })
  })
}

const KINDS: readonly unknown[] = ['stdout', 'stream', 'file']

/** `target` when it is an output target (as {@link checkOutput} makes them); else a RobotsInputError naming `what` took it. */
function checkTarget(target: OutputTarget, what: string): OutputTarget {
  const t = target as Partial<Record<keyof OutputTarget, unknown>> | null
  if (typeof t !== 'object' || t === null || !KINDS.includes(t.kind) || typeof t.path !== 'string' || typeof t.file !== 'string' || typeof t.what !== 'string' || typeof t.fail !== 'function') {
    throw new RobotsInputError(`${what} takes an output target (from checkOutput), got ${describeArgument(target)}`)
  }
  return target
}

/** True for a Uint8Array (a Buffer), also of another realm. */
function isBytes(v: unknown): v is Uint8Array {
  return v instanceof Uint8Array || (ArrayBuffer.isView(v) && Object.prototype.toString.call(v) === '[object Uint8Array]')
}

/** `bytes` as bytes (text as UTF-8); anything else is a RobotsInputError. */
function checkBytes(bytes: Uint8Array | string): Uint8Array {
  const b = typeof bytes === 'string' ? Buffer.from(bytes) : isBytes(bytes) ? bytes : undefined
  if (b === undefined) throw new RobotsInputError(`an output takes bytes (a Uint8Array) or a string, got ${describeArgument(bytes)}`)
  return b
}

/** Bytes gathered before a write to the file. */
const CHUNK = 256 * 1024

/**
 * An output being written: `write` as the bytes come, then `commit()`
 * (renamed into place, or closed), or `abort()` (the target left as it was;
 * a stream keeps what it was given).
 */
export class OutputWriter {
  private handle: FileHandle | undefined
  private readonly temporary: string | undefined
  private pending: Uint8Array[] = []
  private pendingBytes = 0
  private written = 0
  private done = false

  private constructor(readonly target: OutputTarget, temporary: string | undefined) {
    this.temporary = temporary
  }

  /** Opens `target` for writing (a temporary file beside a file; the FIFO or device itself; stdout). */
  static async open(target: OutputTarget): Promise<OutputWriter> {
    checkTarget(target, 'OutputWriter.open')
    if (target.kind === 'stdout') return new OutputWriter(target, undefined)
    if (target.kind === 'stream') {
      const w = new OutputWriter(target, undefined)
      try {
        // Opened by a thread of the pool: waiting for a FIFO's reader blocks no timer or request.
        w.handle = await open(target.file, constants.O_WRONLY)
      } catch (err) {
        throw writeFailure(target, err)
      }
      return w
    }
    const temporary = temporaryOf(target.file)
    if (!exitHook) {
      exitHook = true
      process.on('exit', removeTemporaries)
    }
    // Hooked before the file exists: a signal between the two would leave it behind.
    if (temporaries.size === 0) for (const name of SIGNALS) process.on(name, lastListener)
    temporaries.add(temporary)
    const w = new OutputWriter(target, temporary)
    try {
      w.handle = await open(temporary, 'w+')
    } catch (err) {
      w.abort()
      throw writeFailure(target, err)
    }
    return w
  }

  /** Writes `bytes` (or text, as UTF-8). */
  async write(bytes: Uint8Array | string): Promise<void> {
    const b = checkBytes(bytes)
    this.pending.push(b)
    this.pendingBytes += b.length
    if (this.pendingBytes >= CHUNK) await this.flush()
  }

  private async flush(): Promise<void> {
    if (this.pendingBytes === 0) return
    const data = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending)
    this.pending = []
    this.pendingBytes = 0
    try {
      if (this.target.kind === 'stdout') {
        // A file as stdout: Node writes a chunk with one write(2) and drops what a short count leaves (a size limit, a full disk); written whole here.
        if (process.stdout.constructor.name === 'SyncWriteStream') for (let n = 0; n < data.length; ) n += writeSync(1, data, n, data.length - n)
        else await writeStdout(data)
        this.written += data.length
        return
      }
      // Positioned (a file): writes after writeAt() still go to the end.
      const at = this.temporary !== undefined ? this.written : null
      for (let n = 0; n < data.length; ) n += (await this.handle!.write(data, n, data.length - n, at === null ? null : at + n)).bytesWritten
      this.written += data.length
    } catch (err) {
      this.abort()
      throw writeFailure(this.target, err)
    }
  }

  /** Bytes written so far. */
  get size(): number {
    return this.written + this.pendingBytes
  }

  /** Writes `bytes` at `position`, over what was written there (a file only: a head filled in once the rest is known). */
  async writeAt(position: number, bytes: Uint8Array): Promise<void> {
    if (!(Number.isSafeInteger(position) && position >= 0)) throw new RobotsInputError(`writeAt takes a position (a whole number >= 0), got ${describeArgument(position)}`)
    if (!isBytes(bytes)) throw new RobotsInputError(`writeAt takes bytes (a Uint8Array), got ${describeArgument(bytes)}`)
    if (this.temporary === undefined) throw this.target.fail(`cannot write ${this.target.what} '${this.target.path}' out of order: not a file`)
    await this.flush()
    try {
      for (let n = 0; n < bytes.length; ) n += (await this.handle!.write(bytes, n, bytes.length - n, position + n)).bytesWritten
    } catch (err) {
      this.abort()
      throw writeFailure(this.target, err)
    }
  }

  /** Reads back what was written from `position` to the end, in chunks, to `visit` (a file only). */
  async readBack(position: number, visit: (chunk: Uint8Array) => void | Promise<void>): Promise<void> {
    if (!(Number.isSafeInteger(position) && position >= 0)) throw new RobotsInputError(`readBack takes a position (a whole number >= 0), got ${describeArgument(position)}`)
    if (typeof visit !== 'function') throw new RobotsInputError(`readBack takes a function to visit the chunks, got ${describeArgument(visit)}`)
    if (this.temporary === undefined) throw this.target.fail(`cannot read back ${this.target.what} '${this.target.path}': not a file`)
    await this.flush()
    const end = this.written
    const buf = Buffer.allocUnsafe(CHUNK)
    try {
      for (let at = position; at < end; ) {
        const { bytesRead } = await this.handle!.read(buf, 0, Math.min(CHUNK, end - at), at)
        if (bytesRead === 0) throw Object.assign(new Error('the file is shorter than what was written'), { code: 'EIO' })
        await visit(buf.subarray(0, bytesRead))
        at += bytesRead
      }
    } catch (err) {
      this.abort()
      throw writeFailure(this.target, err)
    }
  }

  /** Writes what is left, then renames the file into place (or closes the stream). */
  async commit(): Promise<void> {
    if (this.done) return
    await this.flush()
    this.done = true
    try {
      if (this.handle !== undefined) {
        if (this.temporary !== undefined) await this.handle.sync()
        await this.handle.close()
        this.handle = undefined
      }
      if (this.temporary !== undefined) {
        renameSync(this.temporary, this.target.file)
        forget(this.temporary)
      }
    } catch (err) {
      this.abort()
      throw writeFailure(this.target, err)
    }
  }

  /** Stops: a temporary file is removed, the target left as it was. */
  abort(): void {
    this.done = true
    const h = this.handle
    this.handle = undefined
    if (h !== undefined) void h.close().catch(() => {})
    if (this.temporary !== undefined) {
      rmSync(this.temporary, { force: true })
      forget(this.temporary)
    }
  }
}

/** A temporary file renamed or removed: no longer removed on the way out. */
function forget(temporary: string): void {
  temporaries.delete(temporary)
  if (temporaries.size === 0) unhookSignals()
}

/** Writes `bytes` to the output `target` (checked before) in one go. */
export async function writeOutput(target: OutputTarget, bytes: Uint8Array | string): Promise<void> {
  checkTarget(target, 'writeOutput')
  checkBytes(bytes)
  const w = await OutputWriter.open(target)
  await w.write(bytes)
  await w.commit()
}

/** Writes `bytes` to `path` as an output (checked now: see {@link checkOutput}); `what` names it in errors. */
export async function writeFileAtomic(path: string, bytes: Uint8Array | string, what: string, fail?: (message: string) => Error): Promise<void> {
  checkBytes(bytes)
  await writeOutput(checkOutput(path, what, fail), bytes)
}
