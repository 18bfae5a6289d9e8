/**
 * The Node entry's output paths (`robots-automaton/node`) under failures of
 * this machine: a short write is never dropped in silence. The file-size
 * limit comes from `ulimit -f` in a child shell (Node ignores SIGXFSZ, so a
 * write past it fails with EFBIG).
 */
import { spawnSync } from 'node:child_process'
import { existsSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, ROOT, tempDir } from '../cli/helpers.js'

let tmp: ReturnType<typeof tempDir>
beforeAll(() => {
  ensureBuilt()
  tmp = tempDir()
})
afterAll(() => tmp.cleanup())

// Writes 3 MiB and a bit to stdout through the entry; says how that ended.
const SCRIPT = `
import { checkOutput, writeOutput } from ${JSON.stringify(join(ROOT, 'dist/node.js'))}
try {
  await writeOutput(checkOutput('-', 'output'), Buffer.alloc(3 * 1024 * 1024 + 123, 0x61))
  process.stderr.write('written')
} catch (err) {
  process.stderr.write(err.code + ': ' + err.message)
  process.exitCode = 1
}
`

describe.skipIf(!existsSync('/bin/bash'))('writeOutput to stdout', () => {
  it('regression: writeOutput(checkOutput(\'-\')) with stdout on a file under a size limit resolved with the output cut (Node drops a short write); it now rejects with a coded error', () => {
    const out = tmp.path('limited.out')
    const r = spawnSync('/bin/bash', ['-c', 'ulimit -f 1000 && exec "$0" --input-type=module -e "$1" > "$2"', process.execPath, SCRIPT, out], { encoding: 'utf8' })
    expect(r.stderr).toBe("ERR_OUTPUT: cannot write output '-': EFBIG: file too large, write")
    expect(r.status).toBe(1)
    // What the limit let through, whole.
    expect(statSync(out).size).toBe(1000 * 1024)
  })
})
