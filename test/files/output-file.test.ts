/**
 * The Node entry's output paths (`robots-automaton/node`) under failures of
 * this machine: a short write is never dropped in silence. The file-size
 * limit comes from `ulimit -f` in a child shell (Node ignores SIGXFSZ, so a
 * write past it fails with EFBIG).
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { closeSync, constants, existsSync, openSync, statSync } from 'node:fs'
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

// Fills stdout (a FIFO whose reader reads nothing) until the kernel takes no
// byte more, starts a writeOutput, says so once its write is queued, then says
// how it ended. The test closes the reader on that word.
const QUEUED_SCRIPT = `
import { writeSync } from 'node:fs'
import { checkOutput, writeOutput } from ${JSON.stringify(join(ROOT, 'dist/node.js'))}
const target = checkOutput('-', 'output')
void process.stdout // made non-blocking
const block = Buffer.alloc(65536, 0x61)
for (let size = block.length; size >= 1; size >>= 1) {
  try { for (;;) writeSync(1, block, 0, size) } catch (err) { if (err.code !== 'EAGAIN') throw err }
}
const keepAlive = setTimeout(() => {}, 60000)
const written = writeOutput(target, 'more\\n')
await new Promise((resolve) => setImmediate(resolve))
process.stderr.write('queued\\n')
try {
  await written
  process.stderr.write('resolved\\n')
} catch (err) {
  process.stderr.write(err.code + ': ' + err.message + '\\n')
  clearTimeout(keepAlive)
}
`

describe('writeOutput to stdout whose reader goes away', () => {
  it('regression: writeOutput EPIPE crash without a listener: writeOutput(checkOutput(\'-\')) resolved while its bytes still waited in the stream, and the reader closing then crashed the process with an unhandled EPIPE; it now settles once the bytes are written and rejects with ERR_OUTPUT', async () => {
    // The reader holds the FIFO open and never reads (a pipe read by this process would take bytes in
    // whenever it likes, making room for the write the script expects to wait); closing it is the reader going away.
    const fifo = tmp.path('stdout.fifo')
    execFileSync('mkfifo', [fifo])
    let reader: number | undefined = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK)
    const writer = openSync(fifo, constants.O_WRONLY)
    const child = spawn(process.execPath, ['--input-type=module', '-e', QUEUED_SCRIPT], { stdio: ['ignore', writer, 'pipe'] })
    closeSync(writer)
    let stderr = ''
    if (child.stderr === null) throw new Error('the child has no stderr pipe')
    child.stderr.on('data', (d) => {
      stderr += d
      if (stderr.includes('queued') && reader !== undefined) {
        closeSync(reader)
        reader = undefined
      }
    })
    const status = await new Promise((resolve) => child.on('close', resolve))
    expect(stderr).toBe("queued\nERR_OUTPUT: cannot write output '-': its reader went away before all of it was written\n")
    expect(status).toBe(0)
  })
})
