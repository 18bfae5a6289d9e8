/**
 * The lock of a journal: `JOURNAL.lock`, created exclusively by the run that
 * takes up the journal, holding its process number, and removed when the run
 * lets the journal go. Two runs never use one journal at once: each would
 * append its records where the other's moved them, and read back another
 * run's. A lock left by a run that no longer runs (a SIGKILL, a crash) is
 * taken over; one whose process runs is an error naming it.
 */
import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs'
import { hostname } from 'node:os'
import { describeSystemError } from '../../node.js'
import { CliError } from '../common/cli-error.js'

/** A lock held by this process. */
export class JournalLock {
  private held = true

  private constructor(readonly path: string, private readonly text: string) {}

  /** Takes the lock of the journal at `journal`, or throws ERR_WRITE when a run that still runs holds it. */
  static take(journal: string): JournalLock {
    const path = `${journal}.lock`
    const text = `${JSON.stringify({ pid: process.pid, host: hostname() })}\n`
    const fail = (why: string): CliError => new CliError('ERR_WRITE', `cannot use the journal '${journal}': ${why}`)
    for (let attempt = 0; ; attempt++) {
      let fd: number
      try {
        fd = openSync(path, 'wx')
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw fail(`cannot create its lock '${path}': ${describeSystemError(err)}`)
        const holder = holderOf(path)
        if (holder !== undefined) throw fail(`${holder} uses it: wait for that run to end (remove '${path}' if no run uses it)`)
        // Left by a run that no longer runs: taken over.
        rmSync(path, { force: true })
        continue
      }
      try {
        writeSync(fd, text)
      } catch (err) {
        closeSync(fd)
        rmSync(path, { force: true })
        throw fail(`cannot write its lock '${path}': ${describeSystemError(err)}`)
      }
      closeSync(fd)
      return new JournalLock(path, text)
    }
  }

  /** Lets the lock go (removes its file if it is still this run's). */
  release(): void {
    if (!this.held) return
    this.held = false
    try {
      if (readFileSync(this.path, 'utf8') === this.text) rmSync(this.path, { force: true })
    } catch {
      // gone already
    }
  }
}

/** Who holds the lock at `path`, said in words, or undefined when no running process does (a lock left by a run killed, or not readable as a lock). */
function holderOf(path: string): string | undefined {
  let lock: { pid?: unknown; host?: unknown }
  let written: number
  try {
    lock = JSON.parse(readFileSync(path, 'utf8')) as typeof lock
    written = statSync(path).mtimeMs
  } catch {
    // Cut short as it was written (a kill between its creation and its write), or gone: not held.
    return undefined
  }
  if (lock === null || typeof lock !== 'object') return undefined
  const { pid, host } = lock
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0) return undefined
  // On another machine (a shared folder): whether it runs cannot be told from here.
  if (typeof host === 'string' && host !== hostname()) return `the run of process ${pid} on ${host}`
  if (pid === process.pid) return 'this process'
  try {
    process.kill(pid, 0)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return undefined
  }
  // A process of that number that started after the lock was written is not its run: the number was reused.
  if (startedAt(pid) > written + 2000) return undefined
  return `the run of process ${pid}`
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
