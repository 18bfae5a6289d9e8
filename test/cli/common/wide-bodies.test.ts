/**
 * A robots.txt in UTF-16 or UTF-32: the reference reads its bytes as UTF-8
 * and finds no rule, and so do the commands (the answers stay the
 * reference's), but the user is told what the file is. Without a byte
 * order mark such a file was called "binary data"; a UTF-32 file with one
 * was called UTF-16 (or binary). Each is now named: its encoding, its byte
 * order, and whether a mark says so; a fetched body by its Content-Type.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { parseRobots } from '../../../src/index.js'
import { bodyProblem, bodyWarning } from '../../../src/cli/common/body-problems.js'
import { declaredWide, wideWords } from '../../../src/tools/wide-text.js'
import { run } from '../helpers.js'
import { withFetchServer, type FetchServer } from '../fetch/fetch-server.js'

const RULES = 'User-agent: *\nDisallow: /private\n'
const utf16le = (s: string): Buffer => Buffer.from(s, 'utf16le')
const utf16be = (s: string): Buffer => utf16le(s).swap16()
function utf32(s: string, order: 'LE' | 'BE'): Buffer {
  const out = Buffer.alloc(s.length * 4)
  for (let i = 0; i < s.length; i++) order === 'LE' ? out.writeUInt32LE(s.charCodeAt(i), i * 4) : out.writeUInt32BE(s.charCodeAt(i), i * 4)
  return out
}

let server: FetchServer
let tmp: { path: (name: string) => string }
withFetchServer((s, t) => {
  server = s
  tmp = t
})
beforeAll(() => {
  writeFileSync(tmp.path('le.txt'), utf16le(RULES))
  writeFileSync(tmp.path('be.txt'), utf16be(RULES))
  writeFileSync(tmp.path('u32.txt'), utf32(`\ufeff${RULES}`, 'LE'))
})

describe('bodyProblem and bodyWarning with what the first bytes look like', () => {
  it('a binary-looking body that is UTF-16 text is utf16, named', () => {
    const robots = parseRobots(utf16le(RULES))
    expect(bodyProblem(robots)).toBe('binary')
    const wide = wideWords(utf16le(RULES))
    expect(wide).toBe('UTF-16LE text without a byte order mark')
    expect(bodyProblem(robots, wide)).toBe('utf16')
    expect(bodyWarning('r.txt', 'utf16', robots, true, wide)).toBe(
      "warning: 'r.txt' is UTF-16LE text without a byte order mark, which the reference cannot read [utf16-body]; no rule in it disallows a URL: URLs allowed",
    )
    expect(declaredWide('text/plain; charset="UTF-16"')).toBe('UTF-16 text, as its Content-Type says')
    expect(declaredWide('text/plain; charset=utf-8')).toBeUndefined()
  })
})

describe('regression: a UTF-16 robots.txt without a byte order mark was "binary data", a UTF-32 one "UTF-16"', () => {
  it('check names the encoding, and judges as the reference does', async () => {
    const r = await run(['check', tmp.path('le.txt'), '--agent', 'A', '/private'])
    expect(r.stdout.toString()).toBe('allowed\t/private\tno matching rule\n')
    expect(r.stderr).toContain(`warning: '${tmp.path('le.txt')}' is UTF-16LE text without a byte order mark, which the reference cannot read [utf16-body]; no rule in it disallows a URL: URLs allowed`)
  })

  it('lint names each file\'s encoding in its whole-file error', async () => {
    const r = await run(['lint', tmp.path('be.txt'), tmp.path('u32.txt')])
    expect(r.status).toBe(1)
    const out = r.stdout.toString()
    expect(out).toContain(`${tmp.path('be.txt')}: error: body is UTF-16BE text without a byte order mark, read as UTF-8 bytes by the reference: no rule [utf16-body]`)
    expect(out).toContain(`${tmp.path('u32.txt')}: error: body is UTF-32LE text, read as UTF-8 bytes by the reference: no rule [utf16-body]`)
    expect(out).not.toContain('binary')
    // One error per file, as before: the library's utf16-body is renamed, not doubled.
    expect(r.stderr).toContain(`${tmp.path('u32.txt')}: 1 error,`)
  })

  it('filter --robots-dir names each host\'s file, and its summary counts them', async () => {
    const dir = tmp.path('dir')
    mkdirSync(dir)
    writeFileSync(join(dir, 'a.test'), utf16le(RULES))
    writeFileSync(join(dir, 'b.test'), utf32(RULES, 'BE'))
    const r = await run(['filter', '--robots-dir', dir, '--agent', 'A', '--print', 'verdicts'], { input: 'https://a.test/private\nhttps://b.test/private\n' })
    expect(r.stdout.toString()).toBe('allowed\t0\thttps://a.test/private\nallowed\t0\thttps://b.test/private\n')
    expect(r.stderr).toContain(`'${join(dir, 'a.test')}' is UTF-16LE text without a byte order mark`)
    expect(r.stderr).toContain(`'${join(dir, 'b.test')}' is UTF-32BE text without a byte order mark`)
    expect(r.stderr).toContain('files with problems: 2 UTF-16/32')
    const p = await run(['pack', dir, '-o', tmp.path('d.bundle')])
    expect(p.stderr).toContain(`'${join(dir, 'a.test')}' starts as UTF-16LE text without a byte order mark [utf16-body]`)
  })

  it('a fetched robots.txt whose Content-Type says charset=utf-16 is named by it', async () => {
    server.handler = (_host, _req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-16' })
      res.end(utf16le(`\ufeff${RULES}`))
    }
    const r = await run(['check', `http://u.test:${server.port}/`, '--agent', 'A', '--resolve', `*:${server.port}:127.0.0.1`, '/private'])
    expect(r.stdout.toString()).toBe('allowed\t/private\tno matching rule\n')
    expect(r.stderr).toContain("is UTF-16 text, as its Content-Type says, which the reference cannot read [utf16-body]")
  })
})


