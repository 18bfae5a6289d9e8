/**
 * Patterns written once: a rule whose pattern equals the one at its place in
 * the previous block of rules is a repeat event pointing back to it
 * (rules/pattern-table.ts). The answers,
 * matching lines and pattern texts are those of the file; `fromBytes` takes
 * exactly the repeats a parse makes, and reads version 2 forms (no repeats).
 */
import { describe, expect, it } from 'vitest'
import { parseRobots, Robots, RobotsFormatError } from '../../src/index.js'
import { compactRulesOf, referenceDecide } from '../../src/internals.js'
import { writeU16 } from '../../src/rules/byte-buffer.js'
import { EventCursor, EventType, EventWriter, formLayout, Header, MIN_REPEAT } from '../../src/rules/compact-rules.js'
import { FORMAT_VERSION, FORMAT_VERSION_2, sealForm } from '../../src/rules/serialise.js'
import { handForm } from '../support/forms.js'
import { toVersion3 } from '../support/form-fuzz.js'

const latin1 = (b: Uint8Array): string => Buffer.from(b).toString('latin1')
const enc = new TextEncoder()

/** The event types as written in the form (repeats told apart from the rest). */
function rawTypes(form: Uint8Array): number[] {
  const types: number[] = []
  const l = formLayout(form)
  let at = l.eventsStart
  const end = l.namesStart
  const read = (): number => {
    let v = 0
    let scale = 1
    for (;;) {
      const b = form[at++]
      v += (b & 0x7f) * scale
      scale *= 128
      if (b < 0x80) return v
    }
  }
  while (at < end) {
    const type = read() % 8
    types.push(type)
    if (type !== EventType.UaGlobal) read()
    if (type === EventType.AllowRepeat || type === EventType.DisallowRepeat) read()
  }
  return types
}

/** A form with its checksum, as `toBytes` gives it. */
function sealed(form: Uint8Array): Uint8Array {
  const out = form.slice()
  sealForm(out)
  return out
}

function rejects(form: Uint8Array, code = 'ERR_FORMAT'): void {
  let error: unknown
  try {
    Robots.fromBytes(sealed(form))
  } catch (e) {
    error = e
  }
  expect(error).toBeInstanceOf(RobotsFormatError)
  expect((error as RobotsFormatError).code).toBe(code)
}

const BODY = [
  'User-agent: a',
  'Disallow: /private/',
  'Allow: /private/open$',
  'Disallow: /x',
  '',
  'User-agent: b',
  'Disallow: /private/',
  'Allow: /private/open$',
  'Disallow: /x',
  '',
  'User-agent: *',
  'Disallow: /private/',
  'Disallow: /*.pdf$',
  'Disallow: /*.pdf$',
].join('\n')

describe('patterns written once', () => {
  it('a block repeated for another group is written once, and every rule still reads as its own line and pattern', () => {
    const r = parseRobots(BODY)
    const rules = compactRulesOf(r)
    // "/x" is shorter than MIN_REPEAT: written each time; "/*.pdf$" is at no place of the previous block.
    expect(latin1(rules.patterns)).toBe('/private//private/open$/x/x/*.pdf$/*.pdf$')
    const types = rawTypes(rules.bytes)
    expect(types.filter((t) => t === EventType.DisallowRepeat).length).toBe(2)
    expect(types.filter((t) => t === EventType.AllowRepeat).length).toBe(1)
    // The cursor reads repeats as the rules they are.
    const seen: [number, number, string][] = []
    for (const c = new EventCursor(rules); c.next(); ) {
      if (c.type === EventType.Allow || c.type === EventType.Disallow) seen.push([c.line, c.type, latin1(c.pattern())])
    }
    expect(seen).toEqual([
      [2, EventType.Disallow, '/private/'], [3, EventType.Allow, '/private/open$'], [4, EventType.Disallow, '/x'],
      [7, EventType.Disallow, '/private/'], [8, EventType.Allow, '/private/open$'], [9, EventType.Disallow, '/x'],
      [12, EventType.Disallow, '/private/'], [13, EventType.Disallow, '/*.pdf$'], [14, EventType.Disallow, '/*.pdf$'],
    ])
    for (const agent of ['a', 'b', 'other']) {
      const m = r.agent(agent)
      for (const path of ['/private/open', '/private/z', '/x1', '/doc.pdf', '/']) {
        const url = `https://e.com${path}`
        const ref = referenceDecide(rules, [agent], enc.encode(path))
        expect(m.explain(url).allowed).toBe(ref.allowed)
        expect(m.explain(url).rule?.line ?? 0).toBe(ref.line)
      }
    }
    expect(r.rulesFor('b').fileOrder().map((i) => r.rulesFor('b').patternText(i))).toEqual(['/private/', '/private/open$', '/x'])
    const back = Robots.fromBytes(r.toBytes())
    expect(back.toBytes()).toEqual(r.toBytes())
    expect(back.agent('b').explain('https://e.com/private/open').rule?.line).toBe(8)
  })

  it('a pattern is repeated only from its own place in the previous block, and equal bytes only (case kept)', () => {
    const r = parseRobots(['User-agent: a', 'Disallow: /abc', 'Disallow: /def', 'User-agent: b', 'Crawl-delay: 3', 'Disallow: /ABC', 'Disallow: /def', 'Disallow: /def'].join('\n'))
    expect(latin1(compactRulesOf(r).patterns)).toBe('/abc/def/ABC/def')
    expect(rawTypes(compactRulesOf(r).bytes).filter((t) => t >= EventType.AllowRepeat)).toEqual([EventType.DisallowRepeat])
    const lines: number[] = []
    for (const c = new EventCursor(compactRulesOf(r)); c.next(); ) if (c.type === EventType.Disallow && latin1(c.pattern()) === '/def') lines.push(c.line)
    expect(lines).toEqual([3, 7, 8])
    for (const agent of ['a', 'b']) for (const u of ['/def', '/abc', '/ABC']) {
      expect(r.agent(agent).explain(`https://e.com${u}`).rule?.line ?? 0).toBe(referenceDecide(compactRulesOf(r), [agent], enc.encode(u)).line)
    }
    // Consecutive user-agent lines (and a group without rules) start one block.
    const s = parseRobots(['User-agent: a', 'Disallow: /abc', 'User-agent: b', 'User-agent: c', 'Crawl-delay: 1', 'User-agent: d', 'Disallow: /abc'].join('\n'))
    expect(latin1(compactRulesOf(s).patterns)).toBe('/abc')
    expect(s.agent('c').explain('https://e.com/abc').rule?.line).toBe(7)
  })

  it('a $ inside a repeated pattern is diagnosed on each of its lines', () => {
    const r = parseRobots('User-agent: *\nDisallow: /a$b\nDisallow: /a$b\n')
    expect(r.diagnostics.filter((d) => d.code === 'dollar-not-at-end').map((d) => d.line)).toEqual([2, 3])
  })

  it('large blocks repeated, with changes, give the same answers as each written out', () => {
    const block = Array.from({ length: 3000 }, (_, i) => `Disallow: /p${i}/${'q'.repeat(i % 5)}`)
    const lines = ['User-agent: a', ...block, 'User-agent: b', ...block.map((l, i) => (i % 7 === 0 ? `${l}x` : l)), 'User-agent: *', 'Allow: /', ...block]
    const r = parseRobots(lines.join('\n'))
    const rules = compactRulesOf(r)
    const bytes = (l: string): number => l.length - 'Disallow: '.length
    // Block a in full; of block b the changed rules; of block * its rules one place off (none repeats), and '/'.
    const written = block.reduce((n, l) => n + bytes(l), 0) * 2 + block.reduce((n, l, i) => n + (i % 7 === 0 ? bytes(l) + 1 : 0), 0)
    expect(rules.patterns.length).toBe(written + 1)
    for (const agent of ['a', 'b', 'c']) for (const u of ['/p5/', '/p699/qq', '/p7/x', '/p14/qqqqx', '/p3000/', '/q']) {
      const url = `https://e.com${u}`
      expect(r.agent(agent).explain(url).rule?.line ?? 0).toBe(referenceDecide(rules, [agent], enc.encode(u)).line)
    }
    for (const u of ['/p5/', '/p699/qq', '/p700/', '/q']) {
      expect(r.agent('bot').explain(`https://e.com${u}`).rule?.line ?? 0).toBe(referenceDecide(rules, ['bot'], enc.encode(u)).line)
    }
    expect(Robots.fromBytes(r.toBytes()).toBytes()).toEqual(r.toBytes())
  })
})

describe('fromBytes and repeats', () => {
  /** Events: `User-agent: *` on line 1, then the given rules, one a line ('ua': another `User-agent: *`). */
  const events = (rules: (((w: EventWriter, line: number) => void) | 'ua')[]): EventWriter => {
    const w = new EventWriter()
    w.add(EventType.UaGlobal, 1, 0)
    rules.forEach((add, i) => (add === 'ua' ? w.add(EventType.UaGlobal, i + 2, 0) : add(w, i + 2)))
    return w
  }
  const form = (patterns: string, w: EventWriter): Uint8Array => handForm({ events: w, patterns: enc.encode(patterns), lineCount: 10, bytesRead: 100 })

  it('takes the repeats a parse makes', () => {
    const f = form('/abc', events([(w, l) => w.add(EventType.Disallow, l, 4), 'ua', (w, l) => w.repeat(EventType.Allow, l, 4, 4)]))
    const r = Robots.fromBytes(sealed(f))
    expect(r.agent('x').explain('https://e.com/abc').rule?.line).toBe(4)
    // What a parse of those lines writes.
    const parsed = compactRulesOf(parseRobots('User-agent: *\nDisallow: /abc\nUser-agent: *\nAllow: /abc\n'))
    expect(compactRulesOf(r).patterns).toEqual(parsed.patterns)
    expect(compactRulesOf(r).events).toEqual(parsed.events)
  })

  it('rejects a repeat of no whole earlier pattern, of a short one, or past the section', () => {
    const disallow = (n: number) => (w: EventWriter, l: number) => w.add(EventType.Disallow, l, n)
    const repeat = (n: number, back: number) => (w: EventWriter, l: number) => w.repeat(EventType.Disallow, l, n, back)
    // The control: the pattern at its place in the previous block.
    expect(() => Robots.fromBytes(sealed(form('/abcd', events([disallow(5), 'ua', repeat(5, 5)]))))).not.toThrow()
    // In the same block.
    rejects(form('/abcd', events([disallow(5), repeat(5, 5)])))
    // At another place of the previous block.
    rejects(form('/abcd/efg', events([disallow(5), disallow(4), 'ua', repeat(4, 9)])))
    rejects(form('/abcd/efg', events([disallow(5), disallow(4), 'ua', disallow(0), repeat(5, 9)])))
    // Inside an earlier pattern, not at its start.
    rejects(form('/abcd', events([disallow(5), 'ua', repeat(3, 4)])))
    // A prefix of an earlier pattern.
    rejects(form('/abcd', events([disallow(5), 'ua', repeat(3, 5)])))
    // Longer than what lies behind.
    rejects(form('/abcd', events([disallow(5), 'ua', repeat(6, 5)])))
    // Further back than the patterns.
    rejects(form('/abcd', events([disallow(5), 'ua', repeat(5, 6)])))
    rejects(form('/abcd', events([disallow(5), 'ua', repeat(5, 2 ** 40)])))
    // Before any pattern.
    rejects(form('', events([repeat(3, 0)])))
    // A pattern shorter than MIN_REPEAT is written, never repeated.
    rejects(form('/a', events([disallow(2), 'ua', repeat(2, 2)])))
    expect(MIN_REPEAT).toBe(3)
    // Before any user-agent line.
    const w = new EventWriter()
    w.add(EventType.Disallow, 1, 4)
    w.repeat(EventType.Disallow, 2, 4, 4)
    rejects(form('/abc', w))
  })

  it('rejects a pattern written again where a parse repeats it', () => {
    rejects(form('/abc/abc', events([(w, l) => w.add(EventType.Disallow, l, 4), 'ua', (w, l) => w.add(EventType.Disallow, l, 4)])))
    // In the same block, and short patterns, are written again (a parse does so too).
    expect(() => Robots.fromBytes(sealed(form('/abc/abc', events([(w, l) => w.add(EventType.Disallow, l, 4), (w, l) => w.add(EventType.Disallow, l, 4)]))))).not.toThrow()
    expect(() => Robots.fromBytes(sealed(form('/a/a', events([(w, l) => w.add(EventType.Disallow, l, 2), 'ua', (w, l) => w.add(EventType.Disallow, l, 2)]))))).not.toThrow()
  })

  it('reads version 2 forms (every pattern written out), and no repeat in them', () => {
    expect(FORMAT_VERSION).toBe(4)
    const twice = toVersion3(form('/abc/abc', events([(w, l) => w.add(EventType.Disallow, l, 4), 'ua', (w, l) => w.add(EventType.Allow, l, 4)])), FORMAT_VERSION_2)
    const r = Robots.fromBytes(sealed(twice))
    expect(r.agent('x').explain('https://e.com/abc').rule?.line).toBe(4)
    const repeated = form('/abc', events([(w, l) => w.add(EventType.Disallow, l, 4), 'ua', (w, l) => w.repeat(EventType.Allow, l, 4, 4)]))
    // The same form is read as version 3 (with repeats), not as version 2.
    expect(Robots.fromBytes(toVersion3(repeated)).agent('x').explain('https://e.com/abc').rule?.line).toBe(4)
    rejects(toVersion3(repeated, FORMAT_VERSION_2))
    const other = form('/abc', events([(w, l) => w.add(EventType.Disallow, l, 4)]))
    writeU16(other, Header.Version, 1)
    rejects(other, 'ERR_VERSION')
  })
})
