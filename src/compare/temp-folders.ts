/**
 * The harness's temporary folders (case stores, body files, report spools):
 * made in the system's temporary folder and removed by their owner when done,
 * or, for those still there, when the process exits (a second Ctrl-C, an
 * error that ends the run).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const live = new Set<string>()
let hooked = false

function removeAll(): void {
  for (const dir of live) rmSync(dir, { recursive: true, force: true })
  live.clear()
}

/** A fresh folder `<tmp>/<prefix>XXXXXX`, removed at exit unless {@link removeTempFolder} removed it first. */
export function makeTempFolder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  live.add(dir)
  if (!hooked) {
    hooked = true
    process.on('exit', removeAll)
  }
  return dir
}

/** Removes a folder of {@link makeTempFolder} and what it holds. */
export function removeTempFolder(dir: string): void {
  rmSync(dir, { recursive: true, force: true })
  live.delete(dir)
}
