/**
 * Process groups for the implementations under test: every process
 * `compare` starts (a `--batch` adapter, a `--cmd` case, a matrix's version
 * and availability commands) is spawned detached, so that it leads a process
 * group of its own, and is ended with its whole group: whatever it started in
 * the background ends with it. Groups still alive when this process exits
 * are killed then (the run's end, an interrupt, a crash of the harness).
 * A process that leaves its group itself (`setsid`) is out of reach.
 */
import type { ChildProcess } from 'node:child_process'
import { CompareError, describeSystemError } from '../compare-error.js'

/** Groups started and not yet killed, by their id (the leader's pid). */
const live = new Set<number>()
let hooked = false

/** Kills every group still alive (synchronously: it runs on exit, and before a process ends by a signal). */
export function killAll(): void {
  for (const pgid of live) signalGroup(pgid, 'SIGKILL')
  live.clear()
}

function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal)
    return true
  } catch {
    return false // no such group any more
  }
}

/** Records a child spawned with `detached: true` as the leader of a group to kill at the latest when this process exits. */
export function trackGroup(child: ChildProcess): void {
  if (child.pid === undefined) return
  live.add(child.pid)
  if (!hooked) {
    hooked = true
    process.on('exit', killAll)
  }
}

/** Sends `signal` (default SIGKILL) to the child's whole group; SIGKILL also forgets the group. */
export function killGroup(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): void {
  const pgid = child.pid
  if (pgid === undefined) return
  if (!signalGroup(pgid, signal) && child.exitCode === null && child.signalCode === null) child.kill(signal)
  if (signal === 'SIGKILL') live.delete(pgid)
}

/** Codes of a spawn that failed for want of this machine's resources (descriptors, processes, memory), whatever the program. */
const LOCAL_SPAWN_CODES = new Set(['EMFILE', 'ENFILE', 'EAGAIN', 'ENOMEM'])

/**
 * The harness's own failure (exit 1) when starting `what` failed on this
 * machine: never the implementation's answer, failure or absence. Else
 * undefined (a program missing or not executable is the implementation's).
 */
export function localSpawnFailure(err: unknown, what: string): CompareError | undefined {
  const code = (err as NodeJS.ErrnoException | null)?.code
  if (code === undefined || !LOCAL_SPAWN_CODES.has(code)) return undefined
  const hint = code === 'EMFILE' || code === 'ENFILE' ? ' (ulimit -n, --concurrency)' : ''
  return new CompareError('ERR_ADAPTER', `cannot start ${what}: ${describeSystemError(err)} on this machine${hint}, not a failure of the implementation`)
}
