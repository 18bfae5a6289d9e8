// Bundles (pack / filter --bundle): the format, its validation, and look-ups by host and origin.
import { describe, expect, it } from 'vitest'
import { parseRobots } from '../../src/index.js'
import { BundleError, BundleRules, BundleWriter, bundleChecksum, bundleKey } from '../../src/cli/bundle.js'
import { HostJudge } from '../../src/cli/host-judge.js'
import { prng } from '../support/prng.mjs'

const enc = new TextEncoder()

function sample(): Uint8Array {
  const w = new BundleWriter()
  w.add({ key: enc.encode('a.test'), robots: parseRobots('User-agent: *\nDisallow: /a\n') })
  w.add({ key: enc.encode('https://a.test:8443'), robots: parseRobots('User-agent: *\nDisallow: /\n') })
  w.add({ key: enc.encode('http://b.test'), outcome: 'unreachable' })
  w.add({ key: enc.encode('b.test'), outcome: 'unavailable' })
  w.add({ key: enc.encode('c.test'), robots: parseRobots('User-agent: bot\nDisallow: /c\n') })
  return w.toBytes()
}

function judgeUrls(bytes: Uint8Array, urls: string[]): number[] {
  const judge = new HostJudge(BundleRules.fromBytes(bytes, 'b'), { agent: 'bot', missingAllowed: true, cacheBytes: 1 << 20, onEntry: () => {} })
  return urls.map((u) => {
    const b = enc.encode(u)
    return judge.judge(b, 0, b.length)
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

describe('bundleKey', () => {
  it('normalises origins and hosts', () => {
    expect(bundleKey('https://Example.COM:443/robots.txt')).toBe('https://example.com')
    expect(bundleKey('HTTP://example.com:80')).toBe('http://example.com')
    expect(bundleKey('http://example.com:8080')).toBe('http://example.com:8080')
    expect(bundleKey('http://example.com:08080')).toBe('http://example.com:8080')
    expect(bundleKey('https://u:p@[::1]:443')).toBe('https://[::1]')
    expect(bundleKey('Example.com')).toBe('example.com')
    expect(bundleKey('[::1]')).toBe('[::1]')
    for (const bad of ['', 'example.com:80', '/path', 'a b', 'https://', 'https://:80', 'a\u0000b']) expect(bundleKey(bad), bad).toBeUndefined()
  })
})

describe('BundleRules', () => {
  it('looks up the origin first, then the bare host', () => {
    const bytes = sample()
    expect(
      judgeUrls(bytes, [
        'https://a.test/a', // bare host a.test: Disallow /a (line 2)
        'https://a.test:8443/x', // origin https://a.test:8443: Disallow / (line 2)
        'https://A.TEST:08443/a', // the same origin
        'http://a.test:8443/a', // other scheme: the bare host
        'http://b.test/x', // origin http://b.test: unreachable, disallow all
        'http://b.test:80/x', // the same
        'https://b.test/x', // bare host b.test: unavailable, allow all
        'https://c.test/c', // bot's group
        'https://d.test/c', // no entry: --missing
      ]),
    ).toEqual([4, 4, 4, 4, 0, 0, 1, 4, 1])
  })

  it('a key given twice keeps the last entry', () => {
    const w = new BundleWriter()
    w.add({ key: enc.encode('a.test'), outcome: 'unreachable' })
    w.add({ key: enc.encode('a.test'), outcome: 'unavailable' })
    expect(w.replaced).toBe(1)
    expect(judgeUrls(w.toBytes(), ['https://a.test/'])).toEqual([1])
  })

  it('a bad, truncated or corrupted bundle is a coded error', () => {
    const bytes = sample()
    expect(codeOf(() => BundleRules.fromBytes(bytes, 'b'))).toBeUndefined()
    expect(codeOf(() => BundleRules.fromBytes(new Uint8Array(0), 'b'))).toBe('ERR_FORMAT')
    expect(codeOf(() => BundleRules.fromBytes(enc.encode('User-agent: *\nDisallow: /\n'.repeat(3)), 'b'))).toBe('ERR_FORMAT')
    for (let cut = 1; cut < bytes.length; cut += 7) expect(codeOf(() => BundleRules.fromBytes(bytes.subarray(0, cut), 'b')), `cut at ${cut}`).toBe('ERR_FORMAT')
    for (let i = 0; i < bytes.length; i++) {
      const flipped = bytes.slice()
      flipped[i] ^= 0x20
      expect(codeOf(() => BundleRules.fromBytes(flipped, 'b')), `byte ${i}`).toMatch(/^ERR_(FORMAT|VERSION)$/)
    }
    const newer = bytes.slice()
    new DataView(newer.buffer).setUint32(8, 2, true)
    expect(codeOf(() => BundleRules.fromBytes(newer, 'b'))).toBe('ERR_VERSION')
    expect(() => BundleRules.fromBytes(bytes.subarray(0, 100), 'x.bundle')).toThrow(/^cannot read bundle 'x\.bundle': truncated: the header says \d+ bytes, the file has 100 \(ERR_FORMAT\)$/)
  })

  it('structured fuzz: header and entry fields mutated, checksum recomputed → a coded error or the same answers', () => {
    const bytes = sample()
    const urls = ['https://a.test/a', 'https://a.test:8443/x', 'http://b.test/', 'https://b.test/', 'https://c.test/c', 'https://d.test/']
    const want = judgeUrls(bytes, urls)
    const rand = prng(10)
    const fields = [8, 12, 16, 20, 24]
    const entries = (new DataView(bytes.buffer).getUint32(16, true))
    for (let e = 0; e < entries; e++) for (let f = 0; f < 5; f++) fields.push(32 + 20 * e + 4 * f)
    const values = [0, 1, 2, 3, 4, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffffc, bytes.length, bytes.length - 32, 1 << 31]
    let decoded = 0
    for (let k = 0; k < 10_000; k++) {
      const m = bytes.slice()
      const view = new DataView(m.buffer)
      const n = 1 + Math.floor(rand() * 2)
      for (let j = 0; j < n; j++) {
        const at = fields[Math.floor(rand() * fields.length)]
        const old = view.getUint32(at, true)
        const r = rand()
        view.setUint32(at, r < 0.5 ? values[Math.floor(rand() * values.length)] : r < 0.75 ? (old + 1 + Math.floor(rand() * 8)) >>> 0 : (old - 1 - Math.floor(rand() * 8)) >>> 0, true)
      }
      view.setUint32(28, bundleChecksum(m), true)
      let answers: number[] | undefined
      try {
        answers = judgeUrls(m, urls)
      } catch (err) {
        expect(err, `mutation ${k}`).toBeInstanceOf(BundleError)
        continue
      }
      decoded++
      // Decoded: every URL judged by some entry of the file, never a crash; an unchanged table gives the same answers.
      expect(answers.length).toBe(urls.length)
      if (Buffer.from(m).equals(Buffer.from(bytes))) expect(answers).toEqual(want)
    }
    expect(decoded).toBeGreaterThan(0)
  })
})
