/**
 * The tools' temporary folders (fetch's spool of a streamed bundle;
 * compare's case stores, body files, report spools): made in the
 * system's temporary folder and removed on every way out: by their owner
 * when done; at exit (`process.exit`: a second Ctrl-C, a closed stdout, an
 * error that ends the run); and on SIGINT, SIGTERM or SIGHUP (a closed
 * terminal) that nothing else handles, after which the signal ends the
 * process as it would have.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describeSystemError } from '../node.js'

const live = new Set<string>()
let exitHooked = false
type StopSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP'
const NAMES: StopSignal[] = ['SIGINT', 'SIGTERM', 'SIGHUP']

function removeAll(): void {
  for (const dir of live) rmSync(dir, { recursive: true, force: true })
  live.clear()
  unhookSignals()
}

/** A signal with no other listener (Node hands a listener the signal's name): the folders removed, then the signal's default (the process ends by it). */
function lastListener(name: StopSignal): void {
  if (process.listenerCount(name) > 1) return // another handler (a run's own) decides
  removeAll()
  process.kill(process.pid, name)
}

function unhookSignals(): void {
  for (const name of NAMES) process.off(name, lastListener)
}

/** A fresh folder `<tmp>/<prefix>XXXXXX`, removed on every way out unless {@link removeTempFolder} removed it first. */
export function makeTempFolder(prefix: string): string {
  if (!exitHooked) {
    exitHooked = true
    process.on('exit', removeAll)
  }
  // Hooked before the folder exists: a signal between the two would leave it behind.
  if (live.size === 0) for (const name of NAMES) process.on(name, lastListener)
  let dir: string
  try {
    dir = mkdtempSync(join(tmpdir(), prefix))
  } catch (err) {
    if (live.size === 0) unhookSignals()
    // Named with the folder and its setting: a system error alone ("no such file or directory") names neither.
    throw Object.assign(new Error(`cannot make a temporary folder in '${tmpdir()}' (TMPDIR): ${describeSystemError(err)}`), { code: 'ERR_TEMP_FOLDER' })
  }
  live.add(dir)
  return dir
}

/** Removes a folder of {@link makeTempFolder} and what it holds. */
export function removeTempFolder(dir: string): void {
  rmSync(dir, { recursive: true, force: true })
  live.delete(dir)
  if (live.size === 0) unhookSignals()
}
