/**
 * Structured mutations of compact forms (rules/compact-rules.ts) and the
 * check that a form which loads is one a parse could have made: the
 * serialisation fuzz tests of `Robots.fromBytes` and of store bundles use
 * both.
 */
import { expect } from 'vitest'
import { parseRobots, type Robots } from '../../src/index.js'
import { ByteBuffer, readU32, writeU32 } from '../../src/rules/byte-buffer.js'
import { CompactRules, EventCursor, EventType, FORMAT_VERSION, formLayout, Header, HeaderV3 } from '../../src/rules/compact-rules.js'
import { DIAG_INDEX } from '../../src/rules/diagnostics.js'
import { forEachSitemap } from '../../src/rules/sitemap-list.js'
import { EXTENSION_KEYS } from '../../src/rules/extensions.js'
import { extensionEntries } from '../../src/rules/sections.js'
import { prng } from './prng.mjs'
import { sealForm } from '../../src/rules/serialise.js'
import { compactRulesOf } from '../../src/internals.js'

/** A varint's place in a form: `[start, end)` and its section's header field (whose start follows it). */
export interface VarintAt {
  start: number
  end: number
  value: number
  /** The version 3 header field of the section it is in. */
  section: number
  /** The section it is in: 0 events, 1 names, 2 extensions, 3 sitemaps, 4 diagnostics. */
  index: number
}

/** The version 3 header fields holding section starts, in layout order. */
export const SECTION_FIELDS = [HeaderV3.EventsStart, HeaderV3.NamesStart, HeaderV3.ExtensionsStart, HeaderV3.SitemapsStart, HeaderV3.DiagnosticsStart] as const

/** The u32 header fields of version 3 a mutation may change (u16 version and flags aside). */
export const U32_FIELDS = [
  Header.Checksum, HeaderV3.Length, HeaderV3.EventCount, ...SECTION_FIELDS,
  HeaderV3.BytesRead, HeaderV3.BytesRead + 4, HeaderV3.LineCount, HeaderV3.LineCount + 4,
]

/** Every varint of a well-formed form of any version, section by section (patterns hold none). */
export function varintsOf(form: Uint8Array, base = 0): VarintAt[] {
  const out: VarintAt[] = []
  const l = formLayout(form, base)
  const starts = [l.eventsStart, l.namesStart, l.extensionsStart, l.sitemapsStart, l.diagnosticsStart, l.length]
  const start = (f: number): number => base + starts[SECTION_FIELDS.indexOf(f as (typeof SECTION_FIELDS)[number])]
  const end = (i: number): number => base + starts[i + 1]
  const frontCoded = l.version === FORMAT_VERSION
  const read = (at: number, section: number): number => {
    let v = 0
    let scale = 1
    let p = at
    for (;;) {
      const b = form[p++]
      v += (b & 0x7f) * scale
      scale *= 128
      if (b < 0x80) break
    }
    out.push({ start: at, end: p, value: v, section, index: SECTION_FIELDS.indexOf(section as (typeof SECTION_FIELDS)[number]) })
    return p
  }
  SECTION_FIELDS.forEach((field, i) => {
    let at = start(field)
    const stop = end(i)
    while (at < stop) {
      if (field === HeaderV3.EventsStart) {
        const header = out.length
        at = read(at, field)
        const type = out[header].value % 8
        if (type !== EventType.UaGlobal) at = read(at, field)
        // A repeat: the pattern's length, then how far back it starts.
        if (type === EventType.AllowRepeat || type === EventType.DisallowRepeat) at = read(at, field)
      } else if (field === HeaderV3.ExtensionsStart) {
        at++ // the kind byte
        const len = out.length
        at = read(at, field)
        at += out[len].value
      } else if (field === HeaderV3.DiagnosticsStart) {
        const head = out.length
        at = read(at, field)
        at = read(at, field) // the line
        if (out[head].value % 2 === 1) {
          const len = out.length
          at = read(at, field)
          at += out[len].value
        }
      } else {
        if (frontCoded && field === HeaderV3.SitemapsStart) at = read(at, field) // the bytes shared with the previous sitemap
        const len = out.length
        at = read(at, field)
        at += out[len].value
      }
    }
  })
  return out
}

function varint(v: number): Uint8Array {
  const b = new ByteBuffer(8)
  b.varint(v)
  return b.bytes.slice(0, b.length)
}

/** A value to try in place of `v`: boundaries, near misses, wrap probes, random. */
function pick(rand: () => number, v: number, max: number): number {
  const choices = [0, 1, 2, v + 1, Math.max(0, v - 1), v * 2, v + 8, 2 ** 31, 2 ** 31 - 1, 2 ** 32 - 1, 2 ** 32 - 4, v + 2 ** 31, Math.floor(rand() * max)]
  return choices[Math.floor(rand() * choices.length)] % (max + 1)
}

/**
 * One structured mutation of the form at `form[base, base + length)`,
 * returned as the new bytes of that form (the caller seals it and puts it
 * back): a header field, a varint (re-encoded, overlong, cut, continued;
 * with the header's sections and length shifted to keep the layout
 * plausible, or not), or a byte of a section.
 */
export function mutateForm(form: Uint8Array, rand: () => number): Uint8Array {
  if (formLayout(form).version === FORMAT_VERSION) return mutateFormV4(form, rand)
  const m = form.slice()
  const r = rand()
  if (r < 0.35) {
    // A header field.
    if (rand() < 0.15) {
      const at = rand() < 0.5 ? Header.Version : Header.Flags
      m[at] = Math.floor(rand() * 4)
      m[at + 1] = rand() < 0.8 ? 0 : Math.floor(rand() * 256)
      return m
    }
    const field = U32_FIELDS[Math.floor(rand() * U32_FIELDS.length)]
    writeU32(m, field, pick(rand, readU32(m, field), 2 ** 32 - 1))
    return m
  }
  const varints = varintsOf(form)
  if (r < 0.9 && varints.length > 0) {
    const v = varints[Math.floor(rand() * varints.length)]
    const replacement = mutatedVarint(rand, form, v)
    const out = new Uint8Array(form.length - (v.end - v.start) + replacement.length)
    out.set(form.subarray(0, v.start))
    out.set(replacement, v.start)
    out.set(form.subarray(v.end), v.start + replacement.length)
    const delta = replacement.length - (v.end - v.start)
    if (delta !== 0 && rand() < 0.7) {
      // Keep the layout plausible: the later sections move, the length follows.
      for (const f of SECTION_FIELDS) if (f > v.section) writeU32(out, f, readU32(out, f) + delta)
      writeU32(out, HeaderV3.Length, out.length)
    }
    return out
  }
  // A byte anywhere past the header.
  if (form.length > HeaderV3.Size) {
    const at = HeaderV3.Size + Math.floor(rand() * (form.length - HeaderV3.Size))
    m[at] = rand() < 0.5 ? m[at] ^ (1 << Math.floor(rand() * 8)) : Math.floor(rand() * 256)
  }
  return m
}

/** The varint fields of a version 4 header (length first) and where they end. */
export function headerFieldsOf(form: Uint8Array): { fields: number[]; end: number } {
  const fields: number[] = []
  let p = Header.Fields
  const stop = form[Header.HeaderBytes]
  while (p < stop) {
    let v = 0
    let scale = 1
    for (;;) {
      const b = form[p++]
      v += (b & 0x7f) * scale
      scale *= 128
      if (b < 0x80) break
    }
    fields.push(v)
  }
  return { fields, end: p }
}

/** A version 4 form of `fields` (length first: set to the form's length when `fixLength`) over `body`, with the fixed bytes of `like`. */
function withHeader(like: Uint8Array, fields: number[], body: Uint8Array, fixLength: boolean, fixHeaderBytes = true): Uint8Array {
  const encode = (f: number[]): Uint8Array => {
    const b = new ByteBuffer(64)
    for (const v of f) b.varint(v)
    return b.bytes.slice(0, b.length)
  }
  let head = encode(fields)
  if (fixLength) {
    for (let k = 0; k < 3; k++) {
      fields = [Header.Fields + head.length + body.length, ...fields.slice(1)]
      head = encode(fields)
    }
  }
  const out = new Uint8Array(Header.Fields + head.length + body.length)
  out.set(like.subarray(0, Header.Fields))
  out.set(head, Header.Fields)
  out.set(body, Header.Fields + head.length)
  if (fixHeaderBytes) out[Header.HeaderBytes] = Header.Fields + head.length
  return out
}

/** Index of each flagged section's length among a version 4 header's fields (length, event count, patterns, events, then these). */
function sectionField(form: Uint8Array, index: number): number {
  // index: 1 names, 2 extensions, 3 sitemaps (flags 2, 4, 8); 0 events.
  if (index === 0) return 3
  let f = 4
  for (let s = 1; s < index; s++) if (form[Header.Flags] & (1 << s)) f++
  return form[Header.Flags] & (1 << index) ? f : -1
}

/**
 * One structured mutation of a version 4 form: its fixed bytes, a header
 * varint (the header's size and the length kept plausible, or not), a
 * varint of a section (re-encoded, overlong, cut, continued; the section's
 * length in the header and the form's length following, or not), or a byte
 * of a section.
 */
export function mutateFormV4(form: Uint8Array, rand: () => number): Uint8Array {
  const r = rand()
  const { fields, end } = headerFieldsOf(form)
  const body = form.subarray(end)
  if (r < 0.08) {
    const m = form.slice()
    const at = [Header.Version, Header.Flags, Header.HeaderBytes][Math.floor(rand() * 3)]
    m[at] = rand() < 0.5 ? Math.floor(rand() * 16) : Math.floor(rand() * 256)
    return m
  }
  if (r < 0.35) {
    const k = Math.floor(rand() * fields.length)
    const next = fields.slice()
    next[k] = pick(rand, fields[k], 2 ** 49 - 1)
    return withHeader(form, next, body, k !== 0 && rand() < 0.5, rand() < 0.8)
  }
  const varints = varintsOf(form)
  if (r < 0.9 && varints.length > 0) {
    const v = varints[Math.floor(rand() * varints.length)]
    const replacement = mutatedVarint(rand, form, v)
    const nextBody = new Uint8Array(body.length - (v.end - v.start) + replacement.length)
    nextBody.set(form.subarray(end, v.start))
    nextBody.set(replacement, v.start - end)
    nextBody.set(form.subarray(v.end), v.start - end + replacement.length)
    const delta = replacement.length - (v.end - v.start)
    const next = fields.slice()
    const plausible = delta !== 0 && rand() < 0.7
    if (plausible) {
      const f = v.index === 4 ? -1 : sectionField(form, v.index)
      if (f >= 0) next[f] += delta
    }
    return withHeader(form, next, nextBody, plausible)
  }
  const m = form.slice()
  if (form.length > end) {
    const at = end + Math.floor(rand() * (form.length - end))
    m[at] = rand() < 0.5 ? m[at] ^ (1 << Math.floor(rand() * 8)) : Math.floor(rand() * 256)
  }
  return m
}

/**
 * The same rules as a version 3 form (or version 2, which has no repeat
 * events: only for forms without them), as an older build wrote them: a
 * fixed header of u32 fields, sitemaps written whole, diagnostics on
 * absolute lines, each `pattern-start` with its pattern's bytes.
 */
export function toVersion3(form: Uint8Array, version = 3): Uint8Array {
  const l = formLayout(form)
  const maps = new ByteBuffer(64)
  forEachSitemap(form, l.sitemapsStart, l.diagnosticsStart, true, 'toVersion3', (b, s, e) => maps.run(b, s, e))
  // Diagnostics: absolute lines, and pattern-start with its pattern as detail bytes.
  const diags = new ByteBuffer(64)
  const cursor = new EventCursor(new CompactRules(form))
  let more = cursor.next()
  let line = 0
  for (let p = l.diagnosticsStart; p < l.length; ) {
    const read = (): number => {
      let v = 0
      let scale = 1
      for (;;) {
        const x = form[p++]
        v += (x & 0x7f) * scale
        scale *= 128
        if (x < 0x80) return v
      }
    }
    const head = read()
    line += read()
    if (Math.floor(head / 2) === DIAG_INDEX['pattern-start']) {
      while (more && cursor.line < line) more = cursor.next()
      diags.varint(head | 1)
      diags.varint(line)
      diags.run(cursor.patternBytes, cursor.a, cursor.b)
      continue
    }
    diags.varint(head)
    diags.varint(line)
    if (head % 2 === 1) {
      const n = read()
      diags.run(form, p, p + n)
      p += n
    }
  }
  const parts = [
    form.subarray(l.patternsStart, l.namesStart),
    form.subarray(l.namesStart, l.sitemapsStart),
    maps.bytes.subarray(0, maps.length),
    diags.bytes.subarray(0, diags.length),
  ]
  const size = HeaderV3.Size + parts.reduce((n, p) => n + p.length, 0)
  const out = new Uint8Array(size)
  out.set(form.subarray(0, 4))
  out[Header.Version] = version
  out[Header.Flags] = form[Header.Flags] & 1
  let p = HeaderV3.Size
  for (const part of parts) {
    out.set(part, p)
    p += part.length
  }
  const shift = HeaderV3.Size - l.patternsStart
  writeU32(out, HeaderV3.Length, size)
  writeU32(out, HeaderV3.EventCount, l.eventCount)
  writeU32(out, HeaderV3.EventsStart, l.eventsStart + shift)
  writeU32(out, HeaderV3.NamesStart, l.namesStart + shift)
  writeU32(out, HeaderV3.ExtensionsStart, l.extensionsStart + shift)
  writeU32(out, HeaderV3.SitemapsStart, l.sitemapsStart + shift)
  writeU32(out, HeaderV3.DiagnosticsStart, l.sitemapsStart + shift + maps.length)
  writeU32(out, HeaderV3.BytesRead, l.bytesRead % 2 ** 32)
  writeU32(out, HeaderV3.BytesRead + 4, Math.floor(l.bytesRead / 2 ** 32))
  writeU32(out, HeaderV3.LineCount, l.lineCount % 2 ** 32)
  writeU32(out, HeaderV3.LineCount + 4, Math.floor(l.lineCount / 2 ** 32))
  sealForm(out)
  return out
}

/** A robots.txt that a fresh parse turns into `r`'s rules (events on their lines, sitemaps after them); null when its lines are too many to write. */
export function renderBody(r: Robots): string | null {
  const names = compactRulesOf(r).names
  const ext = extensionEntries(compactRulesOf(r).bytes)
  const lines: string[] = []
  let e = 0
  const latin1 = (b: Uint8Array): string => Buffer.from(b).toString('latin1')
  for (const c = new EventCursor(compactRulesOf(r)); c.next(); ) {
    if (c.line > 100_000) return null
    while (lines.length < c.line - 1) lines.push('')
    switch (c.type) {
      case EventType.UaGlobal:
        lines.push('User-agent: *')
        break
      case EventType.UaName:
        lines.push(`User-agent: ${names[c.a]}`)
        break
      case EventType.Allow:
      case EventType.Disallow:
        lines.push(`${c.type === EventType.Allow ? 'Allow' : 'Disallow'}: ${latin1(c.pattern())}`)
        break
      default: {
        const entry = ext[e++]
        lines.push(`${EXTENSION_KEYS[entry.kind]}: ${entry.text}`)
      }
    }
  }
  for (const s of r.sitemaps) lines.push(`Sitemap: ${s}`)
  return lines.join('\n')
}

/**
 * Checks that a Robots loaded from an untrusted buffer is one a parse
 * could have made: a body rendered from it parses to the same patterns,
 * events, names, extensions and sitemaps, and both answer alike; its
 * diagnostics decode; `toBytes` gives the loaded bytes back.
 */
export function expectParseable(r: Robots, loaded: Uint8Array, urls: readonly string[]): void {
  const same = (a: Uint8Array, b: Uint8Array): boolean => Buffer.from(a.buffer, a.byteOffset, a.length).equals(b)
  expect(same(r.toBytes(), loaded), 'toBytes gives the loaded bytes back').toBe(true)
  for (const d of r.diagnostics) expect(typeof d.message).toBe('string')
  const body = renderBody(r)
  if (body === null) return
  const fresh = parseRobots(body)
  expect(same(compactRulesOf(fresh).patterns, compactRulesOf(r).patterns), 'patterns').toBe(true)
  expect(same(compactRulesOf(fresh).events, compactRulesOf(r).events), 'events').toBe(true)
  expect(compactRulesOf(fresh).names).toEqual(compactRulesOf(r).names)
  expect(extensionEntries(compactRulesOf(fresh).bytes)).toEqual(extensionEntries(compactRulesOf(r).bytes))
  expect(fresh.sitemaps).toEqual(r.sitemaps)
  for (const agent of [...compactRulesOf(r).names.slice(0, 2), 'otherbot']) {
    const a = r.agent(agent)
    const b = fresh.agent(agent)
    const got = urls.map((u) => a.explain(u))
    const want = urls.map((u) => b.explain(u))
    expect(got).toEqual(want)
    expect(r.crawlDelay(agent)).toEqual(fresh.crawlDelay(agent))
  }
}

/** URLs worth judging against a form: its own patterns as paths, and a few others. */
export function probeUrls(r: Robots): string[] {
  const urls = ['/', '/index.html', '/a/b?c=d']
  for (const c = new EventCursor(compactRulesOf(r)); c.next() && urls.length < 12; ) {
    if (c.type === EventType.Allow || c.type === EventType.Disallow) urls.push(Buffer.from(c.pattern()).toString('latin1').replace(/\*/g, 'x'))
  }
  return urls
}

/** A seeded generator (re-exported for the fuzz tests). */
export { prng }

/** A varint of the form mutated: another value, an overlong encoding, one continued into the next byte, or one cut short. */
function mutatedVarint(rand: () => number, form: Uint8Array, v: VarintAt): Uint8Array {
  const how = rand()
  if (how < 0.6) return varint(pick(rand, v.value, 2 ** 49 - 1))
  if (how < 0.75) return Uint8Array.from([...form.subarray(v.start, v.end - 1), form[v.end - 1] | 0x80, 0x00]) // overlong
  if (how < 0.85) return Uint8Array.from([...form.subarray(v.start, v.end - 1), form[v.end - 1] | 0x80]) // continued into the next byte
  return form.subarray(v.start, v.end - 1) // cut
}
