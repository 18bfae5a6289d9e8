/**
 * The batch API of the core entry, call by call: `UrlScan` (its fields from
 * bytes, strings and host columns, `moveTo`, the keyed host hash and its
 * key), `AgentMatcher.matchScan`, `RobotsStore.lookupScan`, `lookupHost`,
 * `ids`, `keyOf`, the line convention (`lineEnd`, `urlEnd`) and `ruleText`;
 * each with the arguments it refuses and the coded error it gives.
 */
import { describe, expect, it } from 'vitest'
import {
  lineEnd,
  parseRobots,
  RobotsError,
  RobotsInputError,
  RobotsRangeError,
  RobotsStore,
  ruleText,
  urlEnd,
  UrlScan,
  type EntryId,
} from '../src/index.js'

const enc = new TextEncoder()

/** The code of what `f` throws (and that it is a RobotsError of the kind the code promises), or 'none'. */
function codeOf(f: () => unknown): string {
  try {
    f()
  } catch (e) {
    expect(e).toBeInstanceOf(RobotsError)
    const code = (e as RobotsError).code
    if (code === 'ERR_INPUT') expect(e).toBeInstanceOf(RobotsInputError)
    if (code === 'ERR_RANGE') expect(e).toBeInstanceOf(RobotsRangeError)
    return code
  }
  return 'none'
}

/** The fields of a scan, by name. */
function fields(s: UrlScan): Record<string, unknown> {
  return {
    start: s.start,
    end: s.end,
    schemeEnd: s.schemeEnd,
    scheme: s.scheme,
    hostStart: s.hostStart,
    hostEnd: s.hostEnd,
    port: s.port,
    authorityEnd: s.authorityEnd,
    pathStart: s.pathStart,
    plainHost: s.plainHost,
    userInfo: s.userInfo,
  }
}

describe('UrlScan: one pass over a URL, named fields', () => {
  it('reads the parts of a URL in the middle of a buffer', () => {
    const s = new UrlScan()
    const b = enc.encode('xx https://user@Example.COM:8443/a?b#c yy')
    expect(s.scan(b, 3, 38)).toBe(true)
    expect(fields(s)).toEqual({ start: 3, end: 38, schemeEnd: 8, scheme: 'https', hostStart: 16, hostEnd: 27, port: 8443, authorityEnd: 32, pathStart: 32, plainHost: true, userInfo: true })
    expect(s.scan(enc.encode('/just/a/path'))).toBe(false)
    expect(fields(s)).toMatchObject({ start: 0, end: 12, schemeEnd: -1, scheme: null, hostStart: -1, hostEnd: -1, port: UrlScan.NO_PORT, pathStart: 0, plainHost: false })
    expect(s.hostHash).toBe(0)
    expect(s.scan(enc.encode('ftp://h.test'))).toBe(true)
    expect([s.scheme, s.pathStart]).toEqual(['other', -1])
    expect(s.scan(enc.encode('http://h.test:99999/'))).toBe(true)
    expect(s.port).toBe(UrlScan.BAD_PORT)
    expect(s.scan(enc.encode('http://h.test?q'))).toBe(true)
    expect(s.pathStart).toBe(13)
  })

  it('says which hosts are already canonical (plainHost) and which need the WHATWG parser', () => {
    const s = new UrlScan()
    const plain = (url: string): boolean => (s.scan(enc.encode(url)), s.plainHost)
    expect(plain('https://www.example.com/')).toBe(true)
    expect(plain('https://WWW.Example.COM/')).toBe(true)
    // Dotted-decimal IPv4 and '_' are what the parser writes too.
    for (const url of ['http://192.168.0.1/', 'http://a_b.test/', 'http://u@10.0.0.255:81/', 'http://"a$b~.test/']) expect(plain(url), url).toBe(true)
    for (const url of ['https://bücher.de/', 'https://xn--bcher-kva.de/', 'http://0x7f.1/', 'http://127.1/', 'http://1.2.3.04/', 'http://1.2.3.4./', 'http://[::1]/', 'http://a%41.test/', 'http://a.test./', 'http://a.0x/']) {
      expect(plain(url), url).toBe(false)
    }
  })

  it('scanString and scanHost agree with scan; the hash ignores ASCII case and is the static hostHash', () => {
    const s = new UrlScan()
    const url = 'https://Www.Example.com:8080/a;b?c'
    s.scan(enc.encode(url))
    const fromBytes = { ...fields(s), hash: s.hostHash, hash2: s.hostHash2 }
    s.scanString(url)
    expect({ ...fields(s), hash: s.hostHash, hash2: s.hostHash2 }).toEqual(fromBytes)
    expect(fromBytes.hash).toBe(UrlScan.hostHash(enc.encode('www.example.com')))
    expect(fromBytes.hash).not.toBe(0)
    expect(fromBytes.hash2).not.toBe(0)
    // A host column: host, host:port, user@host, [v6]:port, or a URL.
    expect(s.scanHost(enc.encode('WWW.example.com:8080'))).toBe(true)
    expect([s.schemeEnd, s.hostStart, s.hostEnd, s.port, s.hostHash, s.hostHash2]).toEqual([-1, 0, 15, 8080, fromBytes.hash, fromBytes.hash2])
    expect(s.scanHost(enc.encode('[::1]:81'))).toBe(true)
    expect([s.hostStart, s.hostEnd, s.port]).toEqual([0, 5, 81])
    expect(s.scanHost(enc.encode('https://h.test/x'))).toBe(true)
    expect(s.scheme).toBe('https')
    expect(s.scanHost(enc.encode(''))).toBe(false)
  })

  it('moveTo: a URL of the same authority elsewhere, without a second scan', () => {
    const block = enc.encode('https://a.test/x\nhttps://a.test/yyy?z\n')
    const s = new UrlScan()
    s.scan(block, 0, 16)
    const hash = s.hostHash
    s.moveTo(block, 17, 37)
    const fresh = new UrlScan()
    fresh.scan(block, 17, 37)
    expect(fields(s)).toEqual(fields(fresh))
    expect(s.hostHash).toBe(hash)
    // Shorter than the authority, or a scan whose path does not start right after it: ERR_RANGE.
    expect(codeOf(() => s.moveTo(block, 17, 30))).toBe('ERR_RANGE')
    s.scan(enc.encode('https://a.test;p/x'))
    expect(codeOf(() => s.moveTo(block, 17, 37))).toBe('ERR_RANGE')
    s.scan(enc.encode('/path'))
    expect(codeOf(() => s.moveTo(block, 17, 37))).toBe('ERR_RANGE')
  })

  it('refuses what is not bytes, ranges outside them, and keys that are not four words', () => {
    const s = new UrlScan()
    const b = enc.encode('https://a.test/')
    for (const bad of ['https://a.test/', null, 42, [1, 2], new Uint16Array(4)] as unknown[]) {
      expect(codeOf(() => s.scan(bad as Uint8Array)), String(bad)).toBe('ERR_INPUT')
      expect(codeOf(() => s.scanHost(bad as Uint8Array)), String(bad)).toBe('ERR_INPUT')
      expect(codeOf(() => UrlScan.hostHash(bad as Uint8Array)), String(bad)).toBe('ERR_INPUT')
      expect(codeOf(() => s.moveTo(bad as Uint8Array, 0, 1)), String(bad)).toBe('ERR_INPUT')
    }
    for (const [start, end] of [[-1, 3], [3, 2], [0, 99], [0.5, 3], [NaN, 3], [0, Infinity]]) {
      expect(codeOf(() => s.scan(b, start, end)), `${start}, ${end}`).toBe('ERR_RANGE')
      expect(codeOf(() => s.scanHost(b, start, end)), `${start}, ${end}`).toBe('ERR_RANGE')
      expect(codeOf(() => UrlScan.hostHash(b, start, end)), `${start}, ${end}`).toBe('ERR_RANGE')
    }
    for (const bad of [enc.encode('x'), 42, null] as unknown[]) expect(codeOf(() => s.scanString(bad as string))).toBe('ERR_INPUT')
    for (const bad of [new Int32Array(3), new Uint32Array(4), [1, 2, 3, 4], null] as unknown[]) expect(codeOf(() => UrlScan.useHashKey(bad as Int32Array))).toBe('ERR_INPUT')
    expect(s.start).toBe(-1)
  })

  it('hashKey and useHashKey carry a realm key: another key hashes differently, the same key back hashes as before', () => {
    const name = enc.encode('www.example.com')
    const own = UrlScan.hashKey()
    const before = UrlScan.hostHash(name)
    try {
      UrlScan.useHashKey(Int32Array.of(1, 2, 3, 4))
      expect(UrlScan.hostHash(name)).not.toBe(before)
    } finally {
      UrlScan.useHashKey(own)
    }
    expect(UrlScan.hostHash(name)).toBe(before)
    // A copy: changing it changes nothing.
    own[0] ^= 1
    expect(UrlScan.hostHash(name)).toBe(before)
  })
})

describe('AgentMatcher.matchScan', () => {
  const m = parseRobots('User-agent: *\nDisallow: /private\nAllow: /private/ok\n').agent('bot')

  it("gives matchRange's packed verdict from the scan's path start, for bytes and strings", () => {
    const s = new UrlScan()
    const b = enc.encode('>https://a.test/private/x<')
    s.scan(b, 1, 25)
    expect(m.matchScan(s)).toBe(m.matchRange(b, 1, 25))
    expect(m.matchScan(s)).toBe(2 * 2 + 0)
    s.scanString('https://a.test/private/ok')
    expect(m.matchScan(s)).toBe(3 * 2 + 1)
    s.scanString('/elsewhere')
    expect(m.matchScan(s)).toBe(1)
  })

  it('refuses what is not a scan, a scan of nothing, and bytes gone since (ERR_RANGE)', () => {
    for (const bad of [null, '/a', enc.encode('/a'), { start: 0 }] as unknown[]) expect(codeOf(() => m.matchScan(bad as UrlScan))).toBe('ERR_INPUT')
    expect(codeOf(() => m.matchScan(new UrlScan()))).toBe('ERR_INPUT')
    const s = new UrlScan()
    const b = new Uint8Array(new ArrayBuffer(16))
    b.set(enc.encode('https://a.test/p'))
    s.scan(b)
    structuredClone(b.buffer, { transfer: [b.buffer] })
    expect(codeOf(() => m.matchScan(s))).toBe('ERR_RANGE')
  })
})

describe('RobotsStore: look-ups by scan, entry ids, keys', () => {
  function store(): RobotsStore {
    const s = new RobotsStore()
    s.set('a.test', 'User-agent: *\nDisallow: /a\n')
    s.set('https://a.test:8443', 'User-agent: *\nDisallow: /\n')
    s.setOutcome('xn--bcher-kva.de', 'unreachable')
    return s
  }

  it('lookupScan: the origin, else the bare host, as lookup; a host that is not plain through the WHATWG parser', () => {
    const s = store()
    const scan = new UrlScan()
    for (const url of ['https://a.test:8443/x', 'https://A.TEST/x', 'http://a.test:8443/', 'https://bücher.de/', 'https://b.test/', 'https://user@a.test:8443/']) {
      scan.scan(enc.encode(url))
      expect(s.lookupScan(scan), url).toBe(s.lookup(url))
    }
    scan.scan(enc.encode('https://bücher.de/'))
    expect(s.entryKey(s.lookupScan(scan) as EntryId)).toBe('xn--bcher-kva.de')
    scan.scanString('https://a.test:8443/x')
    expect(s.entryKey(s.lookupScan(scan) as EntryId)).toBe('https://a.test:8443')
    scan.scan(enc.encode('/a/path'))
    expect(codeOf(() => s.lookupScan(scan))).toBe('ERR_INPUT')
    for (const bad of [null, 'https://a.test/', new UrlScan()] as unknown[]) expect(codeOf(() => s.lookupScan(bad as UrlScan))).toBe('ERR_INPUT')
  })

  it('lookupHost: the bare host as the WHATWG parser gives it, no origin tried', () => {
    const s = store()
    const scan = new UrlScan()
    scan.scan(enc.encode('https://A.test:8443/x'))
    expect(s.entryKey(s.lookupHost(scan) as EntryId)).toBe('a.test')
    scan.scanHost(enc.encode('a.test:8443'))
    expect(s.entryKey(s.lookupHost(scan) as EntryId)).toBe('a.test')
    // A host that is not plain is made canonical: every spelling of the punycode key finds it.
    for (const url of ['https://bücher.de/', 'https://BÜCHER.de/', 'https://b%C3%BCcher.de/', 'https://xn--bcher-kva.de/', 'https://XN--BCHER-KVA.DE/']) {
      scan.scan(enc.encode(url))
      expect(s.entrySource(s.lookupHost(scan) as EntryId), url).toBe('unreachable')
    }
    scan.scanHost(enc.encode('Bücher.de:8443'))
    expect(s.entrySource(s.lookupHost(scan) as EntryId)).toBe('unreachable')
    // A host the parser refuses names no entry: a coded error saying why.
    scan.scan(enc.encode('https://xn--a.test/'))
    expect(() => s.lookupHost(scan)).toThrow(/RobotsStore\.lookupHost: the host "xn--a\.test" is refused: .*UTS-46/)
    expect(codeOf(() => s.lookupHost(scan))).toBe('ERR_INPUT')
    scan.scan(enc.encode('/p'))
    expect(codeOf(() => s.lookupHost(scan))).toBe('ERR_INPUT')
    expect(codeOf(() => s.lookupHost({} as UrlScan))).toBe('ERR_INPUT')
  })

  it('ids: every entry once; the per-entry calls take them; a bad id is ERR_RANGE', () => {
    const s = store()
    const ids = [...s.ids()]
    expect(ids).toHaveLength(3)
    expect(ids.map((id) => s.entryKey(id)).sort()).toEqual([...s.keys()].sort())
    expect(ids.map((id) => s.entrySource(id)).sort()).toEqual(['robots', 'robots', 'unreachable'])
    s.delete('a.test')
    expect([...s.ids()]).toHaveLength(2)
    for (const bad of [-1, 99, 0.5, NaN, '0'] as unknown[]) {
      expect(codeOf(() => s.entryKey(bad as EntryId)), String(bad)).toBe('ERR_RANGE')
      expect(codeOf(() => s.entrySource(bad as EntryId)), String(bad)).toBe('ERR_RANGE')
      expect(codeOf(() => s.entryFetchInfo(bad as EntryId)), String(bad)).toBe('ERR_RANGE')
      expect(codeOf(() => s.matcher(bad as EntryId, 'bot')), String(bad)).toBe('ERR_RANGE')
    }
    // A loaded store numbers its entries 0 … size − 1.
    const loaded = RobotsStore.fromBytes(store().toBytes())
    expect([...loaded.ids()].sort()).toEqual([0, 1, 2])
  })

  it('keyOf: the key an entry is stored under', () => {
    expect(RobotsStore.keyOf('https://Example.COM:443/a?b')).toBe('https://example.com')
    expect(RobotsStore.keyOf('http://example.com:8080')).toBe('http://example.com:8080')
    expect(RobotsStore.keyOf('EXAMPLE.com')).toBe('example.com')
    expect(RobotsStore.keyOf('bücher.de')).toBe('xn--bcher-kva.de')
    expect(RobotsStore.keyOf(new URL('https://a.test/x'))).toBe('https://a.test')
    for (const bad of ['', 'a.test:80', 'a b', '/path', null, 42, {}] as unknown[]) expect(codeOf(() => RobotsStore.keyOf(bad as string)), String(bad)).toBe('ERR_INPUT')
  })
})

describe('the line convention: lineEnd, urlEnd', () => {
  it("cuts lines as matchLines does: LF ends a line, a CR before it is not the URL's", () => {
    const b = enc.encode('/a\r\n/b\n/c\r')
    expect(lineEnd(b, 0)).toBe(3)
    expect(urlEnd(b, 0, 3)).toBe(2)
    expect(lineEnd(b, 4)).toBe(6)
    expect(urlEnd(b, 4, 6)).toBe(6)
    expect(lineEnd(b, 7)).toBe(b.length)
    expect(urlEnd(b, 7, b.length)).toBe(9)
    expect(urlEnd(b, 3, 3)).toBe(3)
  })
})

describe('ruleText', () => {
  const robots = parseRobots('User-agent: *\nDisallow: /private/\nAllow: /d/index.html\n')
  const m = robots.agent('bot')

  it('a line of the file, an index.html rule\'s directory form (implied), an unreachable stand-in, no rule', () => {
    expect(ruleText(m, m.explain('/private/x').rule)).toEqual({ text: 'line 2: Disallow: /private/' })
    expect(ruleText(m, m.explain('/d/').rule)).toEqual({ text: 'implied: Allow: /d/$ (from line 3: Allow: /d/index.html)', implied: 'index.html', from: '/d/index.html' })
    expect(ruleText(m, m.explain('/d/index.html').rule)).toEqual({ text: 'line 3: Allow: /d/index.html' })
    expect(ruleText(m, null)).toEqual({ text: 'no matching rule' })
    const down = parseRobots('User-agent: *\nDisallow: /\n').agent('bot')
    expect(ruleText(down, down.explain('/x').rule, true)).toEqual({ text: 'implied: Disallow: / (robots.txt unreachable)', implied: 'unreachable' })
  })

  it("an empty Disallow: the reference names as the matching line of an allowed URL is not shown as the rule that decided it", () => {
    const empty = parseRobots('User-agent: bot\nDisallow:\n\nUser-agent: *\nDisallow: /\n').agent('bot')
    const e = empty.explain('/x')
    expect(e).toEqual({ allowed: true, rule: { line: 2, kind: 'disallow', pattern: '' } })
    expect(ruleText(empty, e.rule)).toEqual({ text: 'line 2: Disallow: (empty: no rule in effect)' })
    const allow = parseRobots('User-agent: bot\nAllow:\n').agent('bot')
    expect(ruleText(allow, allow.explain('/x').rule)).toEqual({ text: 'line 2: Allow: (empty: no rule in effect)' })
  })

  it('refuses a matcher that is not one, and a rule that is not a rule reference', () => {
    for (const bad of [null, {}, robots] as unknown[]) expect(codeOf(() => ruleText(bad as typeof m, null))).toBe('ERR_INPUT')
    for (const bad of ['line 2', 42, {}, { line: 2, kind: 'block', pattern: '/' }] as unknown[]) expect(codeOf(() => ruleText(m, bad as null))).toBe('ERR_INPUT')
  })
})
