/**
 * parseRobotsFile: a file read in chunks gives parseRobots' result on its
 * bytes, whatever falls on a chunk's edge; what cannot be a path is a coded
 * error of the library's own tree.
 */
import { execFileSync } from 'node:child_process'
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { parseRobots, RobotsError, RobotsInputError, type Robots } from '../../src/index.js'
import { parseRobotsFile } from '../../src/node.js'

const dir = mkdtempSync(join(tmpdir(), 'parse-file-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** What a parse gives, to compare two of them. */
function summary(r: Robots): string {
  return JSON.stringify([Buffer.from(r.toBytes()).toString('base64'), r.truncated, r.bytesRead, r.lineCount, r.diagnostics, r.sitemaps])
}

describe('parseRobotsFile', () => {
  it('a CRLF, a UTF-8 sequence, a NUL and a too-long line at the read size (64 KiB) read as parseRobots reads the bytes', async () => {
    const CHUNK = 64 * 1024
    const pieces = ['\r\n', '\xc3\xa9', '\x00x\n', '#\r']
    for (const piece of pieces) {
      for (let shift = -3; shift <= 1; shift++) {
        const head = Buffer.from(`User-agent: *\nDisallow: /${'a'.repeat(CHUNK + shift - 26)}`)
        const body = Buffer.concat([head, Buffer.from(`${piece}Disallow: /caf`, 'latin1'), Buffer.from('\xc3\xa9\r\nAllow: /b\n', 'latin1')])
        const file = join(dir, 'robots.txt')
        writeFileSync(file, body)
        expect(summary(await parseRobotsFile(file)), `${JSON.stringify(piece)} ${shift}`).toBe(summary(parseRobots(body)))
      }
    }
  })

  it('a body past the limit is cut as parseRobots cuts it, the crossing line dropped', async () => {
    const body = Buffer.from(`User-agent: *\n${'Disallow: /x\n'.repeat(50_000)}`)
    const file = join(dir, 'big.txt')
    writeFileSync(file, body)
    const r = await parseRobotsFile(file)
    expect(r.truncated).toBe(true)
    expect(summary(r)).toBe(summary(parseRobots(body)))
    expect(summary(await parseRobotsFile(pathToFileURL(file)))).toBe(summary(r))
  })

  it("a path that cannot be one (a number, undefined, an object, a NUL byte, an http: URL) is ERR_INPUT, not Node's TypeError", async () => {
    for (const path of [123, undefined, {}, 'a\0b', new URL('http://example.com/robots.txt')]) {
      const err = await parseRobotsFile(path as string).catch((e: unknown) => e)
      expect(err, String(path)).toBeInstanceOf(RobotsInputError)
      expect(err).toBeInstanceOf(RobotsError)
      expect((err as RobotsInputError).code).toBe('ERR_INPUT')
      expect((err as Error).message).toMatch(/^parseRobotsFile takes a path/)
    }
    // A file that is not there is still the system's error.
    await expect(parseRobotsFile(join(dir, 'none.txt'))).rejects.toMatchObject({ code: 'ENOENT' })
  })

  it("regression: a path whose reading threw (a detached Buffer, an object with a constructor field or a throwing getter, a revoked Proxy) was that uncoded TypeError, and one with a lone surrogate opened the file named with U+FFFD instead: each is ERR_INPUT", async () => {
    writeFileSync(join(dir, '\uFFFD'), 'User-agent: *\nDisallow: /\n')
    const detached = new Uint8Array(Buffer.from('robots.txt'))
    structuredClone(detached.buffer, { transfer: [detached.buffer] })
    const revoked = Proxy.revocable({}, {})
    revoked.revoke()
    const getter = Object.defineProperty({}, 'href', { get: () => { throw new Error('getter') } })
    for (const path of [join(dir, '\uD800'), detached, { constructor: 1 }, getter, revoked.proxy]) {
      const err = await parseRobotsFile(path as string).catch((e: unknown) => e)
      expect(err, String(typeof path)).toBeInstanceOf(RobotsInputError)
      expect((err as Error).message).toMatch(/^parseRobotsFile takes a path/)
    }
    expect((await parseRobotsFile(join(dir, '\uFFFD'))).agent('a').isAllowed('/x')).toBe(false)
  })

  it('regression: bad options were checked only once the file was open (a missing file with limit: 5 rejected with ENOENT, not ERR_LIMIT): before the path is touched', async () => {
    const missing = join(dir, 'missing.txt')
    await expect(parseRobotsFile(missing, { limit: 5 })).rejects.toMatchObject({ code: 'ERR_LIMIT' })
    await expect(parseRobotsFile(missing, { matcherBudget: -1 })).rejects.toMatchObject({ code: 'ERR_BUDGET' })
    await expect(parseRobotsFile(missing, null as never)).rejects.toMatchObject({ code: 'ERR_INPUT' })
    await expect(parseRobotsFile(42 as never, { limit: 5 })).rejects.toMatchObject({ code: 'ERR_LIMIT' })
    const file = join(dir, 'ok.txt')
    writeFileSync(file, 'User-agent: *\nDisallow: /p\n')
    expect((await parseRobotsFile(file, { limit: 600_000 })).agent('x').isAllowed('/p')).toBe(false)
  })
})

/** How `p` has settled after `abort()` and a few turns of the event loop (no clock): the rejection's name, or 'pending'. */
async function afterAbort(p: Promise<unknown>, abort: () => void): Promise<string> {
  let outcome = 'pending'
  p.then(
    () => (outcome = 'resolved'),
    (e: Error) => (outcome = e.name),
  )
  abort()
  for (let turn = 0; turn < 20 && outcome === 'pending'; turn++) await new Promise((resolve) => setImmediate(resolve))
  return outcome
}

describe.skipIf(process.platform !== 'linux' || !existsSync('/usr/bin/mkfifo'))('parseRobotsFile of a FIFO with an AbortSignal', () => {
  it('regression: parseRobotsFile FIFO abort ignored: with a FIFO whose writer is silent (or absent), aborting the signal left the promise pending (close() waited for the read, open() for a writer); it now rejects with the signal\'s reason at once', async () => {
    const fifo = join(dir, 'robots.fifo')
    execFileSync('/usr/bin/mkfifo', [fifo])
    // A silent writer: the FIFO opened read-write (Linux) writes nothing.
    const writer = openSync(fifo, 'r+')
    let reading: string
    try {
      const controller = new AbortController()
      const read = parseRobotsFile(fifo, { signal: controller.signal })
      await new Promise((resolve) => setTimeout(resolve, 50)) // the read under way
      reading = await afterAbort(read, () => controller.abort())
    } finally {
      closeSync(writer) // the read in flight ends (EOF), and its handle is closed
    }
    expect(reading).toBe('AbortError')
    // No writer at all: the open itself waits.
    let opening: string
    try {
      const controller = new AbortController()
      const open = parseRobotsFile(fifo, { signal: controller.signal })
      await new Promise((resolve) => setTimeout(resolve, 50))
      opening = await afterAbort(open, () => controller.abort())
    } finally {
      closeSync(openSync(fifo, 'r+')) // lets the waiting open through; its handle is closed
    }
    expect(opening).toBe('AbortError')
  })
})
