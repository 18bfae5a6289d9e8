/**
 * Diagnostics: every code fires on a minimal body, on the right line, and none
 * fires on a clean robots.txt. Then the group extensions (crawl-delay,
 * request-rate, visit-time, host): which groups they come from and how values
 * are read.
 */
import { describe, expect, it } from 'vitest'
import { DIAGNOSTICS, parseRobots, Robots, type DiagnosticCode } from '../../src/index.js'
import { DIAG_INDEX, MAX_HTML_DIAGNOSTICS } from '../../src/rules/diagnostics.js'
import { latin1Bytes } from '../support/core-helpers.js'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { referenceDecide, compactRulesOf } from '../../src/internals.js'
import { itShared, SHARED } from '../support/shared-data.js'

interface Case {
  body: string | Uint8Array
  line: number
  note?: string
}

const long = (n: number) => 'User-agent: *\nDisallow: /' + 'a'.repeat(n) + '\n'

/** The code that is about a call, not a file (test/robots/agent-warning.test.ts covers it). */
type CallCode = 'agent-not-product-token'

/** One minimal body per code of a file; `line` is where the diagnostic must point. */
const CASES: Record<Exclude<DiagnosticCode, CallCode>, Case[]> = {
  'invalid-line': [
    { body: 'User-agent: *\nthis is not a rule\n', line: 2 },
    { body: 'User-agent: *\n\nnocolon\n', line: 3 },
    { body: ': /x\n', line: 1, note: 'empty key' },
  ],
  'unknown-directive': [{ body: 'User-agent: *\nFoo: bar\n', line: 2 }],
  'unused-directive': [
    { body: 'User-agent: *\nNoindex: /x\n', line: 2 },
    { body: 'User-agent: *\nDisallow: /\nClean-param: ref /a\n', line: 3 },
  ],
  typo: [
    { body: 'User-agent: *\nDissallow: /x\n', line: 2 },
    { body: 'Useragent: *\nDisallow: /x\n', line: 1 },
    { body: 'User-agent: *\nsite-map: https://a.example/s.xml\n', line: 2 },
  ],
  'missing-colon': [{ body: 'User-agent: *\nDisallow /x\n', line: 2 }],
  'line-too-long': [{ body: long(20_000), line: 2 }],
  'rule-outside-group': [
    { body: 'Disallow: /x\nUser-agent: *\nDisallow: /y\n', line: 1 },
    { body: '# hi\n\nAllow: /x\n', line: 3 },
  ],
  'directive-outside-group': [{ body: 'Crawl-delay: 5\nUser-agent: *\n', line: 1 }],
  'pattern-start': [
    { body: 'User-agent: *\nDisallow: private\n', line: 2 },
    { body: 'User-agent: *\nAllow: ?x\n', line: 2 },
  ],
  'dollar-not-at-end': [{ body: 'User-agent: *\nDisallow: /a$b\n', line: 2 }],
  'empty-user-agent': [{ body: 'Sitemap: https://a.example/s.xml\nUser-agent:\nDisallow: /\n', line: 2 }],
  'user-agent-cut': [
    { body: 'User-agent: MJ12bot\nDisallow: /\n', line: 1 },
    { body: 'User-agent: *\nDisallow: /\nUser-agent: foo.bar\n', line: 3 },
  ],
  'invalid-utf8': [{ body: latin1Bytes('User-agent: *\nDisallow: /caf\xe9\n'), line: 2 }],
  'control-character': [
    { body: latin1Bytes('User-agent: *\nDisallow: /a\x01b\n'), line: 2 },
    { body: latin1Bytes('User-agent: *\nDisallow: /a\x00junk\n'), line: 2, note: 'NUL' },
    { body: latin1Bytes('User-agent: *\n\nDisallow: /a\x7f\n'), line: 3, note: 'DEL' },
    { body: latin1Bytes('User-agent: *\n# comment \x1b[31m\n'), line: 2, note: 'ESC in a comment' },
  ],
  truncated: [{ body: 'User-agent: *\n' + '#'.repeat(600_000) + '\n', line: 2 }],
  'html-body': [
    { body: '<!DOCTYPE html>\n<html><body>Not found</body></html>\n', line: 1 },
    { body: '\n  \n# c\n  <html>\n', line: 4 },
  ],
  'utf16-body': [
    { body: new Uint8Array([0xff, 0xfe, ...Buffer.from('User-agent: *\nDisallow: /\n', 'utf16le')]), line: 1, note: 'little-endian BOM' },
    { body: new Uint8Array([0xfe, 0xff, ...Buffer.from('User-agent: *\nDisallow: /\n', 'utf16le').swap16()]), line: 1, note: 'big-endian BOM' },
  ],
  'sitemap-not-absolute': [
    { body: 'Sitemap: /sitemap.xml\n', line: 1 },
    { body: 'User-agent: *\nSitemap: ftp://a.example/s.xml\n', line: 2 },
  ],
  'bad-crawl-delay': [
    { body: 'User-agent: *\nCrawl-delay: -1\n', line: 2 },
    { body: 'User-agent: *\nCrawl-delay: abc\n', line: 2 },
  ],
  'crawl-delay-clamped': [{ body: 'User-agent: *\nCrawl-delay: 1000000000\n', line: 2 }],
  'bad-request-rate': [
    { body: 'User-agent: *\nRequest-rate: fast\n', line: 2 },
    { body: 'User-agent: *\nRequest-rate: 0/10s\n', line: 2 },
  ],
  'bad-visit-time': [
    { body: 'User-agent: *\nVisit-time: 2500-0100\n', line: 2 },
    { body: 'User-agent: *\nVisit-time: morning\n', line: 2 },
  ],
  'bad-host': [{ body: 'User-agent: *\nHost: not a host!\n', line: 2 }],
  'too-many-diagnostics': [{ body: 'x\n'.repeat(1500), line: 1001, note: 'the cap on diagnostics per file' }],
}

const CLEAN = `# robots.txt for www.example.com
User-agent: *
Disallow: /private/
Disallow: /*.pdf$
Allow: /private/public/
Crawl-delay: 2.5

User-agent: Googlebot
User-agent: bingbot
Disallow: /nogoogle
Request-rate: 1/10s
Visit-time: 0600-0845
Host: www.example.com

Sitemap: https://www.example.com/sitemap.xml
`

describe('diagnostics: bounded per file', () => {
  it('keeps at most MAX_DIAGNOSTICS, notes the cut once, and still reports truncation', () => {
    const body = 'junkline\n'.repeat(60_000)
    const robots = parseRobots(body)
    const d = robots.diagnostics
    expect(d.filter((x) => x.code === 'invalid-line')).toHaveLength(1000)
    expect(d.filter((x) => x.code === 'too-many-diagnostics')).toHaveLength(1)
    expect(d.filter((x) => x.code === 'truncated')).toHaveLength(1)
    expect(d).toHaveLength(1002)
  })

  it('a body that looks like an HTML page keeps MAX_HTML_DIAGNOSTICS, notes the cut once, and counts them all', () => {
    const body = '<!DOCTYPE html>\n' + '<a href="https://example.com/x">x</a>\n'.repeat(400) + 'User-agent: *\nDisallow: /private\n'
    const robots = parseRobots(body)
    const d = robots.diagnostics
    expect(d[2].code).toBe('html-body')
    expect(d).toHaveLength(MAX_HTML_DIAGNOSTICS + 1)
    expect(d.filter((x) => x.code === 'too-many-diagnostics')).toHaveLength(1)
    expect(d.at(-1)!.code).toBe('too-many-diagnostics')
    // The cap lists fewer; the totals are the real ones: one html-body error, and per line an unknown key (the
    // first line's with its missing colon).
    expect(robots.diagnosticTotals).toEqual({ error: 1, warning: 402, info: 0 })
    // The rules still apply as the reference reads them.
    expect(robots.isAllowed('https://example.com/private', 'bot')).toBe(false)
    // The cut survives a round trip.
    expect(Robots.fromBytes(robots.toBytes()).diagnostics).toEqual(d)
  })

  it('an HTML body whose comments held more diagnostics than its cap keeps those, then notes the cut', () => {
    const body = '# \x01\n'.repeat(MAX_HTML_DIAGNOSTICS + 10) + '<html>\n<body>\n</body>\n'
    const d = parseRobots(body).diagnostics
    expect(d.filter((x) => x.code === 'control-character')).toHaveLength(MAX_HTML_DIAGNOSTICS + 10)
    expect(d.filter((x) => x.code === 'html-body')).toHaveLength(1)
    expect(d.at(-1)!.code).toBe('too-many-diagnostics')
    // Then `<html>`'s invalid-line and html-body, and the note at `<body>`.
    expect(d).toHaveLength(MAX_HTML_DIAGNOSTICS + 13)
  })

  it('diagnosticTotals counts every diagnostic past the cap (lint: the real totals, not the first 1,000)', () => {
    const body = 'junkline\n'.repeat(60_000)
    const robots = parseRobots(body)
    // 512,000 bytes read: 56,888 whole lines, each an invalid-line warning; the crossing line is dropped; truncated is an error.
    expect(robots.diagnosticTotals).toEqual({ error: 1, warning: 56_888, info: 0 })
    // Invalid UTF-8 past the cap is still looked for and counted (two warnings per line: invalid-line, invalid-utf8).
    const bad = parseRobots(new Uint8Array([...Array(1500)].flatMap(() => [0x78, 0xff, 0x0a])))
    expect(bad.diagnosticTotals).toEqual({ error: 0, warning: 3000, info: 0 })
    // Under the cap: the list, counted (also for a Robots from fromBytes).
    const few = parseRobots('Disallow: /x\nUser-agent: *\nFoo: bar\nDisallow: y\n')
    const byList = { error: 0, warning: 0, info: 0 }
    for (const x of few.diagnostics) byList[x.severity]++
    expect(few.diagnosticTotals).toEqual(byList)
    expect(Robots.fromBytes(few.toBytes()).diagnosticTotals).toEqual(byList)
    // A capped Robots read back from bytes counts what its form kept.
    expect(Robots.fromBytes(robots.toBytes()).diagnosticTotals).toEqual({ error: 1, warning: 1000, info: 0 })
  })
})

describe('diagnostics: every code', () => {
  it('has a case for every code of a file in DIAGNOSTICS', () => {
    expect(Object.keys(CASES).sort()).toEqual(Object.keys(DIAGNOSTICS).filter((c) => c !== 'agent-not-product-token').sort())
  })

  it('DIAG_INDEX gives each code its place in DIAGNOSTICS (the index a form stores)', () => {
    const codes = Object.keys(DIAGNOSTICS) as DiagnosticCode[]
    expect(codes.map((c) => DIAG_INDEX[c])).toEqual(codes.map((_, i) => i))
    expect(Object.keys(DIAG_INDEX).filter((k) => Number.isNaN(Number(k)))).toEqual(codes)
  })

  for (const [code, cases] of Object.entries(CASES) as [DiagnosticCode, Case[]][]) {
    cases.forEach((c, i) => {
      it(`${code} #${i + 1}${c.note ? ` (${c.note})` : ''} fires on line ${c.line}`, () => {
        const robots = parseRobots(c.body)
        const hits = robots.diagnostics.filter((d) => d.code === code)
        expect(hits.map((d) => d.line), JSON.stringify(robots.diagnostics)).toEqual([c.line])
        expect(hits[0].severity).toBe(DIAGNOSTICS[code][0])
        expect(hits[0].message.startsWith(DIAGNOSTICS[code][1])).toBe(true)
        // Diagnostics survive serialisation.
        expect(Robots.fromBytes(robots.toBytes()).diagnostics).toEqual(robots.diagnostics)
      })
    })
  }

  it('nothing fires on a clean robots.txt (LF, CRLF, with a BOM)', () => {
    expect(parseRobots(CLEAN).diagnostics).toEqual([])
    expect(parseRobots(CLEAN.replace(/\n/g, '\r\n')).diagnostics).toEqual([])
    expect(parseRobots('\ufeff' + CLEAN).diagnostics).toEqual([])
    expect(parseRobots('').diagnostics).toEqual([])
  })

  it('a tab inside a line, UTF-8 in a pattern and `User-agent: Googlebot/2.1` are not problems', () => {
    const robots = parseRobots('User-agent:\tGooglebot/2.1 (+http://g.co)\nDisallow:\t/caf\u00e9\nUser-agent: * \nAllow: /\n')
    expect(robots.diagnostics).toEqual([])
  })

  it('the user-agent-cut message shows what the value is read as', () => {
    const d = parseRobots('User-agent: MJ12bot\nDisallow: /\n').diagnostics.find((x) => x.code === 'user-agent-cut')!
    expect(d.message).toContain('"MJ12bot"')
    expect(d.message).toContain('"MJ"')
  })

  it('html-body fires once, only when the first content line starts with <', () => {
    expect(parseRobots('User-agent: *\n<html>\n').diagnostics.some((d) => d.code === 'html-body')).toBe(false)
    expect(parseRobots('<html>\n<body>\n').diagnostics.filter((d) => d.code === 'html-body')).toHaveLength(1)
  })

  it('invalid-utf8 does not fire for a valid multi-byte sequence cut by the 16,663-byte line limit', () => {
    // 'é' (C3 A9) placed so that the line cut falls between its two bytes.
    const prefix = 'Disallow: /' + 'a'.repeat(16_663 - 12)
    const body = 'User-agent: *\n' + prefix + '\u00e9' + 'b'.repeat(100) + '\n'
    const codes = parseRobots(body).diagnostics.map((d) => d.code)
    expect(codes).toContain('line-too-long')
    expect(codes).not.toContain('invalid-utf8')
  })

  it('the truncated diagnostic points at the first line not read', () => {
    const body = 'User-agent: *\nDisallow: /a\n' + ('#'.repeat(99) + '\n').repeat(6000)
    const robots = parseRobots(body)
    const d = robots.diagnostics.filter((x) => x.code === 'truncated')
    expect(d).toHaveLength(1)
    expect(d[0].line).toBe(robots.lineCount + 1)
    expect(robots.lineCount).toBe(2 + Math.floor((512_000 - 27) / 100))
  })
})

describe('group extensions: crawl-delay, request-rate, visit-time, host', () => {
  it('crawl-delay values: 10, 0.5, .5 accepted; -1, abc, 1e9 ignored; 1000000000 clamped to a day', () => {
    const cd = (v: string) => parseRobots(`User-agent: *\nCrawl-delay: ${v}\n`).crawlDelay('bot')
    expect(cd('10')).toBe(10)
    expect(cd('0.5')).toBe(0.5)
    expect(cd('.5')).toBe(0.5)
    expect(cd('0')).toBe(0)
    expect(cd('7.')).toBe(7)
    expect(cd('-1')).toBeUndefined()
    expect(cd('abc')).toBeUndefined()
    expect(cd('1e9')).toBeUndefined()
    expect(cd('Infinity')).toBeUndefined()
    expect(cd('')).toBeUndefined()
    expect(cd('10 # slow down')).toBe(10)
    expect(cd('1000000000')).toBe(86_400)
    expect(cd('86400')).toBe(86_400)
    const codes = (v: string) => parseRobots(`User-agent: *\nCrawl-delay: ${v}\n`).diagnostics.map((d) => d.code)
    expect(codes('1e9')).toEqual(['bad-crawl-delay'])
    expect(codes('-1')).toEqual(['bad-crawl-delay'])
    expect(codes('10')).toEqual([])
    expect(codes('86401')).toEqual(['crawl-delay-clamped'])
  })

  it('a specific group hides `*`, even when it has no crawl-delay of its own', () => {
    const robots = parseRobots('User-agent: *\nCrawl-delay: 5\n\nUser-agent: slowbot\nCrawl-delay: 20\n\nUser-agent: fastbot\nDisallow: /x\n')
    expect(robots.crawlDelay('slowbot')).toBe(20)
    expect(robots.crawlDelay('SlowBot')).toBe(20)
    expect(robots.crawlDelay('otherbot')).toBe(5)
    expect(robots.crawlDelay('fastbot')).toBeUndefined()
    expect(robots.crawlDelay(['fastbot', 'otherbot'])).toBeUndefined()
    expect(robots.crawlDelay(['slowbot', 'fastbot'])).toBe(20)
  })

  it('regression: a later group’s crawl-delay leaked into `*` through the still-open user-agent list', () => {
    // Crawl-delay does not close a user-agent list for rules (reference), which
    // made `*` collect slowbot's 20 as well. An extension now belongs to the
    // user-agent lines right above it.
    const robots = parseRobots('User-agent: *\nCrawl-delay: 5\n\nUser-agent: slowbot\nCrawl-delay: 20\n')
    expect(robots.crawlDelay('anybot')).toBe(5)
    expect(robots.crawlDelay('slowbot')).toBe(20)
    // Rules keep the reference's grouping: `Disallow` after both lists binds both.
    const mixed = parseRobots('User-agent: Yandex\nCrawl-delay: 2\n\nUser-agent: *\nDisallow: /admin\n')
    expect(mixed.crawlDelay('Yandex')).toBe(2)
    expect(mixed.crawlDelay('other')).toBeUndefined()
    expect(mixed.agent('Yandex').isAllowed('/admin')).toBe(false)
    expect(mixed.agent('other').isAllowed('/admin')).toBe(false)
    // Several extension lines under one user-agent list all belong to it.
    const one = parseRobots('User-agent: a\nUser-agent: b\nCrawl-delay: 3\nRequest-rate: 1/5s\nDisallow: /x\nHost: h.example\n')
    for (const t of ['a', 'b']) {
      expect(one.crawlDelay(t)).toBe(3)
      expect(one.requestRate(t)).toEqual({ requests: 1, seconds: 5 })
      expect(one.host(t)).toBe('h.example')
    }
    expect(one.crawlDelay('c')).toBeUndefined()
  })

  it('several groups for the crawler are merged: crawl-delay takes the largest', () => {
    const robots = parseRobots(
      'User-agent: a\nCrawl-delay: 3\nDisallow: /x\n\nUser-agent: b\nUser-agent: a\nCrawl-delay: 10\nDisallow: /y\n\nUser-agent: a\nCrawl-delay: 0.5\nAllow: /\n',
    )
    expect(robots.crawlDelay('a')).toBe(10)
    expect(robots.crawlDelay('b')).toBe(10)
    expect(robots.crawlDelay(['a', 'b'])).toBe(10)
    expect(robots.crawlDelay('c')).toBeUndefined()
  })

  it('request-rate: N/T with units; several: the slowest; bad values ignored', () => {
    const rr = (v: string) => parseRobots(`User-agent: *\nRequest-rate: ${v}\n`).requestRate('x')
    expect(rr('1/5')).toEqual({ requests: 1, seconds: 5 })
    expect(rr('1/5s')).toEqual({ requests: 1, seconds: 5 })
    expect(rr('10/1m')).toEqual({ requests: 10, seconds: 60 })
    expect(rr('3 / 2h')).toEqual({ requests: 3, seconds: 7200 })
    expect(rr('1/1d')).toEqual({ requests: 1, seconds: 86_400 })
    expect(rr('0/5')).toBeUndefined()
    expect(rr('1/0')).toBeUndefined()
    expect(rr('-1/5')).toBeUndefined()
    expect(rr('1/5y')).toBeUndefined()
    expect(rr('fast')).toBeUndefined()
    const two = parseRobots('User-agent: *\nRequest-rate: 1/1s\nRequest-rate: 1/10s\nRequest-rate: 5/20s\n')
    expect(two.requestRate('x')).toEqual({ requests: 1, seconds: 10 })
  })

  it('visit-time: HHMM-HHMM or HH:MM-HH:MM, the first one counts', () => {
    const vt = (v: string) => parseRobots(`User-agent: *\nVisit-time: ${v}\n`).visitTime('x')
    expect(vt('0600-0845')).toEqual({ from: '06:00', to: '08:45' })
    expect(vt('06:00 - 08:45')).toEqual({ from: '06:00', to: '08:45' })
    expect(vt('2300-0100')).toEqual({ from: '23:00', to: '01:00' })
    expect(vt('2400-0100')).toBeUndefined()
    expect(vt('0660-0700')).toBeUndefined()
    expect(vt('6-8')).toBeUndefined()
    expect(parseRobots('User-agent: *\nVisit-time: 0100-0200\nVisit-time: 0300-0400\n').visitTime('x')).toEqual({ from: '01:00', to: '02:00' })
  })

  it('host: a host name with optional scheme and port, lowercased; bad values ignored', () => {
    const h = (v: string) => parseRobots(`User-agent: *\nHost: ${v}\n`).host('x')
    expect(h('WWW.Example.COM')).toBe('www.example.com')
    expect(h('https://www.example.com/')).toBe('https://www.example.com')
    expect(h('example.com:8080')).toBe('example.com:8080')
    expect(h('[::1]:8080')).toBe('[::1]:8080')
    expect(h('not a host!')).toBeUndefined()
    expect(h('example.com/path')).toBeUndefined()
    expect(h('-bad.example')).toBeUndefined()
  })

  it('per group: each crawler gets its own groups’ extension values', () => {
    const robots = parseRobots(
      'User-agent: *\nCrawl-delay: 1\nHost: star.example\n\nUser-agent: a\nCrawl-delay: 4\nVisit-time: 0100-0200\nRequest-rate: 1/3s\nHost: a.example\nDisallow: /\n',
    )
    expect(robots.crawlDelay('a')).toBe(4)
    expect(robots.host('a')).toBe('a.example')
    expect(robots.visitTime('a')).toEqual({ from: '01:00', to: '02:00' })
    expect(robots.requestRate('a')).toEqual({ requests: 1, seconds: 3 })
    expect(robots.crawlDelay('b')).toBe(1)
    expect(robots.host('b')).toBe('star.example')
    expect(robots.visitTime('b')).toBeUndefined()
    expect(robots.requestRate('b')).toBeUndefined()
  })

  it('extension values survive toBytes / fromBytes', () => {
    const robots = parseRobots('User-agent: a\nCrawl-delay: 4\nVisit-time: 0100-0200\nRequest-rate: 1/3s\nHost: a.example\n')
    const loaded = Robots.fromBytes(robots.toBytes())
    expect(loaded.crawlDelay('a')).toBe(4)
    expect(loaded.visitTime('a')).toEqual({ from: '01:00', to: '02:00' })
    expect(loaded.requestRate('a')).toEqual({ requests: 1, seconds: 3 })
    expect(loaded.host('a')).toBe('a.example')
  })
})

describe('utf16-body (issue 12: a UTF-16 robots.txt lost every rule silently)', () => {
  itShared('corpus-files', () => {
    // protego/store.usps.com is UTF-16 with a BOM: the reference reads no rule from it.
    const body = new Uint8Array(readFileSync(resolve(SHARED, 'corpus/robots/protego/store.usps.com')))
    expect([body[0], body[1]]).toEqual([0xff, 0xfe])
    const robots = parseRobots(body)
    const d = robots.diagnostics.filter((x) => x.code === 'utf16-body')
    expect(d).toEqual([{ line: 1, code: 'utf16-body', severity: 'error', message: DIAGNOSTICS['utf16-body'][1] }])
    // Verdicts stay the reference's: no rule applies.
    const enc = new TextEncoder()
    for (const path of ['/', '/checkout', '/private/x']) {
      const ref = referenceDecide(compactRulesOf(robots), ['Googlebot'], enc.encode(path))
      expect(robots.agent('Googlebot').explain(path)).toEqual({ allowed: ref.allowed, rule: null })
    }
  })

  it('only a BOM at the start of the body counts', () => {
    const le = new Uint8Array([0xff, 0xfe, 0x55, 0x00])
    expect(parseRobots(le).diagnostics.some((x) => x.code === 'utf16-body')).toBe(true)
    const later = new Uint8Array([0x0a, 0xff, 0xfe, 0x55, 0x00])
    expect(parseRobots(later).diagnostics.some((x) => x.code === 'utf16-body')).toBe(false)
    expect(parseRobots(new Uint8Array([0xfe])).diagnostics.some((x) => x.code === 'utf16-body')).toBe(false)
  })
})
