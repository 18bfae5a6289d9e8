// A bundle whose checksums hold but one of whose entries' rules are not valid
// (a crafted file: forms are checked on first use), through every command that
// reads bundles: each says which file and entry, and none stops without naming
// them or records the entry as a site's answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { existsSync, writeFileSync } from 'node:fs'
import { RobotsStore } from '../../../src/index.js'
import { readU32 } from '../../../src/rules/byte-buffer.js'
import { Header } from '../../../src/rules/compact-rules.js'
import { sealForm } from '../../../src/rules/serialise.js'
import { BundleHeader } from '../../../src/store/bundle-codec.js'
import { ensureBuilt, run, tempDir } from '../helpers.js'

let tmp: ReturnType<typeof tempDir>
let crafted: string

beforeAll(() => {
  ensureBuilt()
  tmp = tempDir()
  const s = new RobotsStore()
  s.set('a.test', 'User-agent: *\nDisallow: /a\n', { outcome: 'ok', status: 200, fetchedAt: 2e12, expiresAt: 2e12 + 1, reachableAt: 2e12 })
  s.set('c.test', 'User-agent: *\nDisallow: /c\n')
  const bytes = s.toBytes()
  // a.test's form (the first entry's, after its key): a header longer than the form, its checksum made again.
  const form = readU32(bytes, BundleHeader.DataStart) + 'a.test'.length
  bytes[form + Header.HeaderBytes] = 0xff
  sealForm(bytes, form, readU32(bytes, BundleHeader.Size + 4))
  crafted = tmp.path('crafted.bundle')
  writeFileSync(crafted, bytes)
  expect(() => RobotsStore.fromBytes(bytes)).toThrow(/entry 0: header size out of range/)
})
afterAll(() => tmp.cleanup())

describe('a bundle entry whose rules are not valid', () => {
  it('regression: audit reports it unreadable (its source() threw: exit 1 with a message naming no file)', async () => {
    const r = await run(['audit', crafted, '--crawlers', 'bot', '--format', 'jsonl'])
    // Every row written, then the failure of this machine named: exit 1.
    expect(r.status, r.stderr).toBe(1)
    expect(r.stderr).toMatch(/robots-automaton: 1 host could not be read \(the first, 'a\.test': its rules in the bundle are not valid: .*\): class unknown, not the site's answer\n$/)
    const rows = r.stdout.toString().trimEnd().split('\n').map((l) => JSON.parse(l))
    expect(rows.map((x) => [x.host, x.outcome, x.access])).toEqual([['a.test', 'unreadable', 'unknown'], ['c.test', 'ok', 'some']])
    expect(rows[0].reason).toMatch(/^its rules in the bundle are not valid: .*header size out of range/)
  })

  it('regression: pack names the file and key in a warning and exits 1 without writing a bundle (it stopped with a message naming no file)', async () => {
    const out = tmp.path('packed.bundle')
    const r = await run(['pack', crafted, '-o', out])
    expect(r.status).toBe(1)
    expect(r.stderr).toContain(`warning: skipped '${crafted}#a.test': its rules in the bundle are not valid: `)
    expect(r.stderr).toContain(`could not be read ('${crafted}#a.test': its rules in the bundle are not valid: `)
    expect(r.stderr).toContain('no bundle written')
    expect(existsSync(out)).toBe(false)
  })

  it('regression: fetch --update refuses the file before any fetch, naming it (it stopped with a message naming no file)', async () => {
    const out = tmp.path('fetched.bundle')
    // Every name goes to a closed local port, should anything be fetched.
    const r = await run(['fetch', '--update', crafted, '--connect-to', '::127.0.0.1:1', '-o', out], { input: 'http://a.test/x\nhttp://c.test/y\n' })
    expect(r.status).toBe(1)
    expect(r.stderr).toBe(`robots-automaton: cannot read bundle '${crafted}': entry 0: header size out of range (ERR_FORMAT)\n`)
    expect(existsSync(out)).toBe(false)
  })
})
