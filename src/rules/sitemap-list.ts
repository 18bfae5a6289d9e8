/**
 * The sitemaps section of a version 4 form, front-coded: sitemaps of one
 * file usually share their scheme and host, so each is written as the count
 * of bytes it shares with the previous one (the first with
 * {@link SITEMAP_SEED}), then a varint length and the rest of its bytes.
 * A share is at most {@link MAX_SHARED} bytes, so that a section never
 * expands to more than a small multiple of its size (a crafted form cannot
 * make its check or its reader do more than linear work). Versions 2 and 3
 * wrote each sitemap whole (a varint length and its bytes).
 */
import { type ByteBuffer, VarintReader } from './byte-buffer.js'
import { SCRATCH_KEEP } from '../memory.js'
import { RobotsFormatError } from '../errors.js'

/** What the first sitemap is front-coded against. */
export const SITEMAP_SEED: Uint8Array = Uint8Array.from('https://www.', (c) => c.charCodeAt(0))

/** Most bytes a sitemap shares with the previous one (a one-byte varint). */
export const MAX_SHARED = 127

/** Bytes `a[as, as + an)` and `b[bs, bs + bn)` have in common at their start, at most MAX_SHARED. */
function shared(a: Uint8Array, as: number, an: number, b: Uint8Array, bs: number, bn: number): number {
  const n = Math.min(an, bn, MAX_SHARED)
  let k = 0
  while (k < n && a[as + k] === b[bs + k]) k++
  return k
}

/** Appends sitemaps to a section, front-coded; `reset` between files. */
export class SitemapWriter {
  readonly out: ByteBuffer
  /** The previous sitemap's first bytes (at most MAX_SHARED), or the seed; -1: none yet (the seed is copied in on the first). */
  private last = new Uint8Array(MAX_SHARED)
  private lastLength = -1

  constructor(out: ByteBuffer) {
    this.out = out
    this.reset(Infinity)
  }

  add(b: Uint8Array, start: number, end: number): void {
    if (this.lastLength < 0) {
      this.last.set(SITEMAP_SEED)
      this.lastLength = SITEMAP_SEED.length
    }
    const k = shared(this.last, 0, this.lastLength, b, start, end - start)
    this.out.varint(k)
    this.out.run(b, start + k, end)
    // The first k bytes are the previous one's already.
    const n = Math.min(end - start, MAX_SHARED)
    for (let i = k; i < n; i++) this.last[i] = b[start + i]
    this.lastLength = n
  }

  reset(keep: number): void {
    this.out.reset(keep)
    this.lastLength = -1
  }
}

/** The sitemap being read, whole: `bytes[0, length)` (reused from sitemap to sitemap). */
let scratch = new Uint8Array(256)

/**
 * Calls `visit(bytes, start, end)` for each sitemap of the section
 * `form[start, end)` in file order, whole (for version 4, rebuilt in a
 * scratch buffer that the next sitemap overwrites). A section that does
 * not read (a share longer than the previous sitemap or than MAX_SHARED,
 * a length past the section, a bad varint) is a RobotsFormatError
 * (ERR_FORMAT) naming `what`; `check` also rejects a share shorter than
 * the bytes in common (a writer always shares all it can).
 */
export function forEachSitemap(
  form: Uint8Array,
  start: number,
  end: number,
  frontCoded: boolean,
  what: string,
  visit: (bytes: Uint8Array, start: number, end: number) => void,
  check?: (why: string) => never,
): void {
  const r = new VarintReader(form, start, end, what, 'sitemaps')
  if (!frontCoded) {
    while (r.more) {
      const s = r.readRun()
      visit(form, s, r.at)
    }
    return
  }
  let b = scratch
  b.set(SITEMAP_SEED)
  let length = SITEMAP_SEED.length
  while (r.more) {
    const k = r.read()
    const s = r.readRun()
    const n = r.at - s
    if (k > length || k > MAX_SHARED) (check ?? fail(what))('share too long')
    if (check !== undefined && k < MAX_SHARED && k < length && n > 0 && b[k] === form[s]) check('share too short')
    if (k + n > b.length) {
      const grown = new Uint8Array(Math.max(2 * b.length, k + n))
      grown.set(b.subarray(0, k))
      b = grown
    }
    b.set(form.subarray(s, r.at), k)
    length = k + n
    visit(b, 0, length)
  }
  scratch = b.length > SCRATCH_KEEP ? new Uint8Array(256) : b
}

function fail(what: string): (why: string) => never {
  return (why) => {
    throw new RobotsFormatError('ERR_FORMAT', `${what}: sitemaps: ${why}`)
  }
}
