/**
 * The kept bytes of src/memory.ts: small buffers cut from shared slabs,
 * large ones with a buffer of their own, and what each is counted as; and
 * that a parsed file's form is such a buffer, counted by the same model.
 */
import { describe, expect, it } from 'vitest'
import { parseRobots } from '../src/index.js'
import { keptBytes, objectBytes, SLAB_BYTES, SLAB_SHARE_MAX, TYPED_VIEW_BYTES, typedArrayBytes, viewBytes } from '../src/memory.js'
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
    expect(r.memoryUsage()).toBe(objectBytes(3) + TYPED_VIEW_BYTES + form.byteLength)
    // toBytes() is a copy with a buffer of its own, whatever the form's home.
    expect(r.toBytes().buffer.byteLength).toBe(r.toBytes().byteLength)
  })
})
