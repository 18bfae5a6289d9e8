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
import { onUnhandledSignal } from './last-resort.js'

const live = new Set<string>()
let exitHooked = false
/** Stops listening for signals (while no folder is live). */
let unhookSignals = (): void => {}

function removeAll(): void {
  for (const dir of live) rmSync(dir, { recursive: true, force: true })
  live.clear()
  unhookSignals()
}

/** A fresh folder `<tmp>/<prefix>XXXXXX`, removed on every way out unless {@link removeTempFolder} removed it first. */
export function makeTempFolder(prefix: string): string {
  if (!exitHooked) {
    exitHooked = true
    process.on('exit', removeAll)
  }
  // Hooked before the folder exists: a signal between the two would leave it behind.
  if (live.size === 0) unhookSignals = onUnhandledSignal(removeAll)
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
