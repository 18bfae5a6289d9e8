// filter --bundle over a RobotsStore: look-ups by origin and host as --robots-dir
// looks hosts up, a worker's lazy load, coded errors for bad bundles; pack's
// directory names as store keys; the matchers filter loads (directory and bundle).
import { describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseRobots, RobotsStore, type AgentMatcher } from '../../../src/index.js'
import { DirectoryRules } from '../../../src/cli/hosts/robots-dir.js'
import { BundleError, bundleFromDescriptor, openBundle } from '../../../src/cli/hosts/bundle-rules.js'
import { HostJudge } from '../../../src/cli/filter/host-judge.js'
import type { CacheBytes } from '../../../src/cli/common/heap-room.js'
import { EntryState, type EntryEvent, type HostRules, type HostRulesDescriptor } from '../../../src/cli/hosts/host-rules.js'
import { hostKeyOfName } from '../../../src/cli/hosts/host-names.js'
import { readU32 } from '../../../src/rules/byte-buffer.js'
import { Header } from '../../../src/rules/compact-rules.js'
import { sealForm } from '../../../src/rules/serialise.js'
import { BundleHeader } from '../../../src/store/bundle-codec.js'
import { LineFault, LineLocator } from '../../../src/cli/filter/line-locator.js'
import { INPUT_OPTIONS, lineLayout, WHOLE_LINES } from '../../../src/cli/filter/line-layout.js'
import { parseArgs } from '../../../src/cli/common/args.js'

const enc = new TextEncoder()

function sample(): Uint8Array {
  const s = new RobotsStore()
  s.set('a.test', 'User-agent: *\nDisallow: /a\n')
  s.set('https://a.test:8443', 'User-agent: *\nDisallow: /\n')
  s.setOutcome('http://b.test', 'unreachable')
  s.setOutcome('b.test', 'unavailable')
  s.set('c.test', 'User-agent: bot\nDisallow: /c\n')
  s.set('html.test', '<!DOCTYPE html>\n<html><body>Not found</body></html>\n')
  return s.toBytes()
}

function judgeUrls(rules: HostRules, urls: string[], events: EntryEvent[] = []): number[] {
  const judge = new HostJudge(rules, { who: { agent: ['bot'] }, missingAllowed: true, cacheBytes: (1 << 20) as CacheBytes, onEntry: (e) => events.push(e) })
  const locator = new LineLocator(WHOLE_LINES, true)
  return urls.map((u) => {
    const b = enc.encode(u)
    expect(locator.locate(b, 0, b.length), u).toBe(LineFault.None)
    return judge.judge(b, locator)
  })
}

function codeOf(f: () => unknown): string | undefined {
  try {
    f()
  } catch (err) {
    if (err instanceof BundleError) return err.code
    throw err
  }
  return undefined
}

const URLS = [
  'https://a.test/a', // bare host a.test: Disallow /a (line 2)
  'https://a.test:8443/x', // origin https://a.test:8443: Disallow / (line 2)
  'https://A.TEST:08443/a', // the same origin
  'http://a.test:8443/a', // other scheme: the bare host
  'http://b.test/x', // origin http://b.test: unreachable, disallow all
  'http://b.test:80/x', // the same
  'https://b.test/x', // bare host b.test: unavailable, allow all
  'https://c.test/c', // bot's group
  'https://d.test/c', // no entry: --missing
  'https://HTML.test/x', // an HTML page: no rule
]
const ANSWERS = [4, 4, 4, 4, 0, 0, 1, 4, 1, 1]

describe('filter --bundle over a RobotsStore', () => {
  it('looks up the origin first, then the bare host; outcomes and missing hosts as documented', () => {
    const events: EntryEvent[] = []
    const rules = openBundle(sample(), 'b')
    expect(rules.originKeys).toBe(true)
    expect(judgeUrls(rules, URLS, events)).toEqual(ANSWERS)
    // The HTML page's problem is reported on its first load, as --robots-dir reports it.
    const html = events.find((e) => rules.sourceName(e.id) === 'b#html.test')
    expect(html?.problem).toBe('html')
    expect(events.filter((e) => e.problem !== undefined)).toHaveLength(1)
  })

  it('regression: a path whose --host or host column is an http(s) origin was judged by the bare host, never by that origin\'s entry', () => {
    const rules = openBundle(sample(), 'b')
    const judged = (argv: string[], lines: string[]): number[] => {
      const judge = new HostJudge(rules, { who: { agent: ['bot'] }, missingAllowed: true, cacheBytes: (1 << 20) as CacheBytes, onEntry: () => {} })
      const locator = new LineLocator(lineLayout(parseArgs(argv, INPUT_OPTIONS)), true)
      return lines.map((l) => {
        const b = enc.encode(l)
        expect(locator.locate(b, 0, b.length), l).toBe(LineFault.None)
        return judge.judge(b, locator)
      })
    }
    // As the URLs https://a.test:8443/x (its origin: Disallow /), http://b.test/x (unreachable), https://a.test/x (the bare host).
    expect(judged(['--host', 'https://a.test:8443'], ['/x', '/x'])).toEqual([4, 4])
    expect(judged(['--host', 'HTTP://B.test:80/'], ['/x'])).toEqual([0])
    expect(judged(['--host', 'https://a.test'], ['/x', '/a'])).toEqual([1, 4])
    // A host without a scheme names no origin: its bare host's entry.
    expect(judged(['--host', 'a.test:8443'], ['/x'])).toEqual([1])
    expect(judged(['--field', '1', '--host-field', '2'], ['/x https://a.test:8443/y', '/x http://b.test', '/x b.test', '/x a.test:8443'])).toEqual([4, 0, 1, 1])
  })

  it('an outcome entry is loaded once, however often its host comes back', () => {
    const rules = openBundle(sample(), 'b')
    const loads = new Map<number, number>()
    const load = rules.load.bind(rules)
    rules.load = (id, ...rest) => {
      loads.set(id, (loads.get(id) ?? 0) + 1)
      return load(id, ...rest)
    }
    const urls: string[] = []
    const answers: number[] = []
    for (let r = 0; r < 20; r++) {
      urls.push('http://b.test/x', 'https://b.test/x', 'https://c.test/c', 'https://a.test/a')
      answers.push(0, 1, 4, 4)
    }
    expect(judgeUrls(rules, urls)).toEqual(answers)
    // One load each: the two outcomes and the two files (kept in the cache).
    expect([...loads.values()]).toEqual([1, 1, 1, 1])
  })

  it('a bundle of bare hosts only is looked up by the host bytes alone', () => {
    const s = new RobotsStore()
    s.set('a.test', 'User-agent: *\nDisallow: /a\n')
    const rules = openBundle(s.toBytes(), 'b')
    expect(rules.originKeys).toBe(false)
    expect(judgeUrls(rules, ['https://A.Test:9/a', 'http://a.test:1/a', 'https://a.test./a', 'https://b.test/a'])).toEqual([4, 4, 4, 1])
  })

  it("a worker's rules (the descriptor, loaded lazily over the same bytes) answer the same", () => {
    const rules = openBundle(sample(), 'b')
    const d = structuredClone(rules.descriptor()) as HostRulesDescriptor
    if (d.kind !== 'bundle') throw new Error('a bundle descriptor')
    expect(judgeUrls(bundleFromDescriptor(d), URLS)).toEqual(ANSWERS)
  })

  it('a flipped form byte is refused at load; a well-checksummed but malformed form makes its entry unreadable, not a crash', () => {
    const bytes = sample()
    // The first entry's form (after its key, a.test).
    const form = readU32(bytes, BundleHeader.DataStart) + 'a.test'.length
    const flipped = bytes.slice()
    flipped[form + 20] ^= 1
    expect(codeOf(() => openBundle(flipped, 'b'))).toBe('ERR_FORMAT')
    const crafted = bytes.slice()
    crafted[form + Header.HeaderBytes] = 0xff // a header longer than its form
    sealForm(crafted, form, readU32(crafted, BundleHeader.Size + 4))
    for (const rules of [openBundle(crafted, 'b'), bundleFromDescriptor({ kind: 'bundle', path: 'b', bytes: crafted, originKeys: true })]) {
      const events: EntryEvent[] = []
      expect(judgeUrls(rules, ['https://a.test/a', 'https://c.test/c'], events)).toEqual([1, 4])
      expect(events[0].state).toBe(EntryState.Unreadable)
      expect(events[0].reason).toMatch(/^its rules in the bundle are not valid: .*header size out of range/)
    }
  })

  it('a truncated, corrupted, foreign or newer bundle is a coded error with a clear message', () => {
    const bytes = sample()
    expect(codeOf(() => openBundle(bytes, 'b'))).toBeUndefined()
    expect(codeOf(() => openBundle(new Uint8Array(0), 'b'))).toBe('ERR_FORMAT')
    expect(codeOf(() => openBundle(enc.encode('User-agent: *\nDisallow: /\n'.repeat(3)), 'b'))).toBe('ERR_FORMAT')
    for (let cut = 0; cut < bytes.length; cut += 7) expect(codeOf(() => openBundle(bytes.subarray(0, cut), 'b')), `cut at ${cut}`).toBe('ERR_FORMAT')
    // Every byte is covered at load: the header, table and keys by the bundle's checksum, each form by its own.
    for (let i = 0; i < bytes.length; i++) {
      const flipped = bytes.slice()
      flipped[i] ^= 0x20
      expect(codeOf(() => openBundle(flipped, 'b')), `byte ${i}`).toMatch(/^ERR_(FORMAT|VERSION)$/)
    }
    const newer = bytes.slice()
    newer[BundleHeader.Version] = 9
    expect(codeOf(() => openBundle(newer, 'b'))).toBe('ERR_VERSION')
    expect(() => openBundle(bytes.subarray(0, 100), 'x.bundle')).toThrow(/^cannot read bundle 'x\.bundle': 100 bytes where the header says \d+ \(truncated or padded\) \(ERR_FORMAT\)$/)
  })
})

describe("a directory entry's name as a host (--robots-dir, pack)", () => {
  it('keys names by their host as the store writes keys, marking those written so, and says why the others are no host', () => {
    for (const name of ['example.com', 'www.example.co.uk', 'xn--bcher-kva.de', '127.0.0.1', '[::1]', 'a_b.test']) {
      expect(hostKeyOfName(enc.encode(name)), name).toEqual({ key: name, canonical: true })
    }
    expect(hostKeyOfName(enc.encode('bücher.de'))).toEqual({ key: 'xn--bcher-kva.de', canonical: false })
    expect(hostKeyOfName(enc.encode('127.1'))).toEqual({ key: '127.0.0.1', canonical: false })
    expect(hostKeyOfName(enc.encode('ex%61mple.com'))).toEqual({ key: 'example.com', canonical: false })
    for (const name of ['a b', 'example.com:80', 'a/b', '']) expect(hostKeyOfName(enc.encode(name)), name).toEqual({ reason: expect.stringMatching(/^not a host name: .+$/) })
    expect(hostKeyOfName(enc.encode('a b'))).toEqual({ reason: 'not a host name: it holds a space, which no host name may hold' })
    expect(hostKeyOfName(Uint8Array.of(0x61, 0xff, 0x62))).toHaveProperty('reason')
  })
})

describe('the entries filter loads', () => {
  it('judge from their first URL with their lazy DFA (directory and bundle), answering as parseRobots does', () => {
    const body = 'User-agent: *\nDisallow: /a\nAllow: /a/b$\nDisallow: /*.pdf\n'
    const dir = mkdtempSync(join(tmpdir(), 'filter-tier-'))
    try {
      writeFileSync(join(dir, 'a.test'), body)
      const store = new RobotsStore()
      store.set('a.test', body)
      const reference = parseRobots(body).agent('bot')
      for (const rules of [DirectoryRules.open(dir), openBundle(store.toBytes(), 'b')]) {
        const entry = rules.load(0, { agent: ['bot'] }, true)
        if (entry.kind !== 'rules') throw new Error(`not rules: ${entry.kind}`)
        const m = entry.judge as AgentMatcher
        for (const path of ['/a/b', '/a/b/c', '/x.pdf', '/b']) {
          const url = `https://a.test${path}`
          expect(m.isAllowed(url), url).toBe(reference.isAllowed(url))
          expect(m.stats().tier, url).toBe('hot')
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
