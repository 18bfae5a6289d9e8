/**
 * The kept bytes of src/memory.ts: small buffers cut from shared slabs,
 * large ones with a buffer of their own, and what each is counted as; and
 * that a parsed file's form is such a buffer, counted by the same model.
 */
import { describe, expect, it } from 'vitest'
import { parseRobots, Robots } from '../src/index.js'
import { keptBytes, keptSlab, keptSlot, MID_SHARE_MAX, MID_SLAB_BYTES, objectBytes, SLAB_BYTES, SLAB_SHARE_MAX, slotBytes, TYPED_ARRAY_BYTES, TYPED_VIEW_BYTES, typedArrayBytes, viewBytes } from '../src/memory.js'
import { compactRulesOf } from '../src/internals.js'

describe('kept bytes (slabs)', () => {
  it('cuts small buffers from a shared slab, zeroed and apart, and gives large ones their own', () => {
    const a = keptBytes(100)
    const b = keptBytes(SLAB_SHARE_MAX)
    expect(a.buffer.byteLength).toBe(SLAB_BYTES)
    expect([...a, ...b].every((x) => x === 0)).toBe(true)
    a.fill(1)
    expect(b.every((x) => x === 0)).toBe(true)
    const big = keptBytes(SLAB_SHARE_MAX + 1)
    expect(big.buffer.byteLength).toBe(SLAB_SHARE_MAX + 1)
    // Many small ones: every view fits its slab, none overlaps the next.
    const views = Array.from({ length: 200 }, (_, i) => keptBytes(1 + (i * 37) % SLAB_SHARE_MAX))
    for (let i = 1; i < views.length; i++) {
      const p = views[i - 1]
      const q = views[i]
      expect(q.byteOffset + q.byteLength).toBeLessThanOrEqual(SLAB_BYTES)
      if (p.buffer === q.buffer) expect(q.byteOffset).toBeGreaterThanOrEqual(p.byteOffset + p.byteLength)
    }
  })

  it('cuts slots from the same slabs: zeroed, apart, in one shared array per slab; large ones get none', () => {
    expect(keptSlot(MID_SHARE_MAX + 1)).toBe(-1)
    let last: { slab: Uint8Array; at: number; n: number } | undefined
    for (let i = 0; i < 200; i++) {
      const n = 1 + (i * 53) % SLAB_SHARE_MAX
      const at = keptSlot(n)
      const slab = keptSlab()
      expect(slab.byteLength).toBe(SLAB_BYTES)
      expect(at + n).toBeLessThanOrEqual(SLAB_BYTES)
      expect(slab.subarray(at, at + n).every((x) => x === 0)).toBe(true)
      slab.fill(7, at, at + n)
      if (last !== undefined && last.slab.buffer === slab.buffer) {
        expect(slab).toBe(last.slab)
        expect(at).toBeGreaterThanOrEqual(last.at + last.n)
      }
      last = { slab, at, n }
    }
  })

  it('small forms in one slab stay apart: every file keeps its own answers and bytes', () => {
    const bodies = Array.from({ length: 300 }, (_, i) => `User-agent: *\nDisallow: /p${i}/\nAllow: /p${i}/ok\nSitemap: https://s${i}.example/map.xml\n`)
    const parsed = bodies.map((b) => parseRobots(b))
    parsed.forEach((r, i) => {
      expect(r.isAllowed(`https://x.example/p${i}/a`, 'bot')).toBe(false)
      expect(r.isAllowed(`https://x.example/p${i}/ok`, 'bot')).toBe(true)
      expect(r.isAllowed(`https://x.example/p${i + 1}/a`, 'bot')).toBe(true)
      expect(r.sitemaps).toEqual([`https://s${i}.example/map.xml`])
      expect(parseRobots(bodies[i]).toBytes()).toEqual(r.toBytes())
    })
  })

  it('cuts slots of more than SLAB_SHARE_MAX bytes from larger slabs, apart from the small ones, each slab with its one shared array', () => {
    let last: { slab: Uint8Array; at: number; n: number } | undefined
    let lastSmall: { slab: Uint8Array; at: number; n: number } | undefined
    for (let i = 0; i < 200; i++) {
      const n = i % 3 === 0 ? 1 + (i * 29) % SLAB_SHARE_MAX : SLAB_SHARE_MAX + 1 + (i * 211) % (MID_SHARE_MAX - SLAB_SHARE_MAX)
      const at = keptSlot(n)
      const slab = keptSlab()
      expect(slab.byteLength).toBe(n > SLAB_SHARE_MAX ? MID_SLAB_BYTES : SLAB_BYTES)
      expect(at + n).toBeLessThanOrEqual(slab.byteLength)
      expect(slab.subarray(at, at + n).every((x) => x === 0)).toBe(true)
      slab.fill(9, at, at + n)
      const prev = n > SLAB_SHARE_MAX ? last : lastSmall
      if (prev !== undefined && prev.slab.buffer === slab.buffer) {
        expect(slab).toBe(prev.slab)
        expect(at).toBeGreaterThanOrEqual(prev.at + prev.n)
      }
      if (n > SLAB_SHARE_MAX) last = { slab, at, n }
      else lastSmall = { slab, at, n }
    }
  })

  it("lineCount, bytesRead and truncated (read in place) are the form's, whatever its home: a slab, its own buffer, fromBytes", () => {
    const big = 'User-agent: *\n' + Array.from({ length: 200 }, (_, i) => `Disallow: /q${i}\n`).join('')
    const huge = 'User-agent: *\n' + 'Disallow: /x\n'.repeat(50_000)
    for (const body of ['', 'User-agent: *\nDisallow: /a', big, huge]) {
      const parsed = [parseRobots(body)]
      for (let k = 0; k < 20; k++) parsed.push(parseRobots(body))
      parsed.push(Robots.fromBytes(parsed[0].toBytes()))
      for (const r of parsed) {
        const form = compactRulesOf(r)
        expect([r.lineCount, r.bytesRead, r.truncated]).toEqual([form.lineCount, form.bytesRead, form.truncated])
      }
      expect(parsed[0].bytesRead).toBe(Math.min(new TextEncoder().encode(body).length, 512_000))
      expect(parsed[0].truncated).toBe(body === huge)
    }
  })

  it('counts a slab view as a view and its bytes, an own buffer as an array, a view of another buffer as a view only', () => {
    expect(viewBytes(keptBytes(64))).toBe(TYPED_VIEW_BYTES + 64)
    const own = new Uint8Array(1000)
    expect(viewBytes(own)).toBe(typedArrayBytes(own))
    expect(viewBytes(own.subarray(10, 20))).toBe(TYPED_VIEW_BYTES)
  })

  it("a small file's form is kept in a slab, and Robots.memoryUsage counts it so", () => {
    const r = parseRobots('User-agent: *\nDisallow: /private\n')
    const form = compactRulesOf(r).bytes
    expect(form.byteLength).toBeLessThanOrEqual(SLAB_SHARE_MAX)
    expect(form.buffer.byteLength).toBe(SLAB_BYTES)
    // No view of its own: the Robots keeps the slab's shared array and an offset.
    expect(r.memoryUsage()).toBe(objectBytes(3) + slotBytes(form.byteLength))
    expect(slotBytes(SLAB_BYTES)).toBe(SLAB_BYTES + TYPED_ARRAY_BYTES)
    // toBytes() is a copy with a buffer of its own, whatever the form's home.
    expect(r.toBytes().buffer.byteLength).toBe(r.toBytes().byteLength)
  })

  it("a mid-sized file's form is kept in a larger slab, a large file's in a buffer of its own, and Robots.memoryUsage counts each so", () => {
    const rules = (n: number) => 'User-agent: *\n' + Array.from({ length: n }, (_, i) => `Disallow: /section-${i}/page\n`).join('')
    const midSized = parseRobots(rules(60))
    const form = compactRulesOf(midSized).bytes
    expect(form.byteLength).toBeGreaterThan(SLAB_SHARE_MAX)
    expect(form.byteLength).toBeLessThanOrEqual(MID_SHARE_MAX)
    expect(form.buffer.byteLength).toBe(MID_SLAB_BYTES)
    expect(midSized.memoryUsage()).toBe(objectBytes(3) + slotBytes(form.byteLength, MID_SLAB_BYTES))
    expect(midSized.agent('bot').isAllowed('/section-59/page')).toBe(false)
    expect(midSized.agent('bot').isAllowed('/section-60/page')).toBe(true)
    const large = parseRobots(rules(400))
    const own = compactRulesOf(large).bytes
    expect(own.byteLength).toBeGreaterThan(MID_SHARE_MAX)
    expect(own.buffer.byteLength).toBe(own.byteLength)
    expect(large.memoryUsage()).toBe(objectBytes(3) + typedArrayBytes(own))
  })
})
