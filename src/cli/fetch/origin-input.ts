/**
 * The origins `fetch` fetches: read from URL lists and logs exactly as
 * `filter` reads them (stdin or files, gzip, `--field`, `--host-field`,
 * `--delimiter`: {@link readOrigins}), one entry per distinct origin in the
 * order first seen ({@link OriginList}), keyed as `filter --bundle` looks
 * lines up: a URL line by its origin, a host column by its bare host.
 */
import { storeKey } from '../../internals.js'
import { findField, type FieldSpec } from '../filter/fields.js'
import type { InputFile } from '../filter/input.js'
import { forEachUrlLine } from '../filter/line-blocks.js'
import { findHost, hostOfField } from '../filter/url-host.js'

/** How lines name their origins (the reading options `fetch` shares with `filter`). */
export interface OriginSpec {
  /** `--field`, `--host-field`, `--delimiter`; undefined: each line is a URL. */
  readonly fields: FieldSpec | undefined
  /** The scheme of a host column's hosts given without one (`--scheme`); ports 80 and 443 name theirs. */
  readonly scheme: 'http' | 'https'
}

/** Most raw authorities remembered to skip the URL parser for lines seen before (then forgotten all at once: bounded memory whatever the input). */
const RAW_CACHE_LIMIT = 1 << 16

const LATIN1 = new TextDecoder('latin1')

/**
 * The distinct origins of the input: bundle key → the origin to fetch
 * (`https://example.com:8443` for a URL line, keyed by that origin;
 * `example.com` for a host column, fetched at `https://example.com` or as
 * its port says). Memory grows with the origins, not the lines.
 */
export class OriginList {
  /** Bundle key → origin to fetch, in the order first seen. */
  readonly origins = new Map<string, string>()
  /** Lines read. */
  lines = 0
  /** Lines with no host (a path without `--host-field`, an empty host column, junk). */
  withoutHost = 0
  /** Lines whose host is not one a robots.txt can be fetched from (another scheme, a malformed host). */
  unusable = 0
  /** Raw authority → its key, or host column → 'KEY ORIGIN'; '' when unusable. */
  private readonly raw = new Map<string, string>()
  private readonly range = new Int32Array(3)

  /** Adds the origin of the URL `bytes[start, end)`. */
  addUrl(bytes: Uint8Array, start: number, end: number): void {
    const r = this.range
    if (!findHost(bytes, start, end, r)) {
      this.withoutHost++
      return
    }
    const authority = LATIN1.decode(bytes.subarray(start, r[2]))
    let key = this.raw.get(authority)
    if (key === undefined) {
      key = ''
      try {
        const k = storeKey(authority, 'fetch').key
        if (k.startsWith('http://') || k.startsWith('https://')) key = k
      } catch {
        // Not a URL the store can key: counted below.
      }
      this.remember(authority, key)
    }
    if (key === '') this.unusable++
    else if (!this.origins.has(key)) this.origins.set(key, key)
  }

  /** Adds the host named by the host column `bytes[start, end)`: a host, `host:port`, or a URL. */
  addHostColumn(bytes: Uint8Array, start: number, end: number, scheme: 'http' | 'https'): void {
    const r = this.range
    if (start >= end || !hostOfField(bytes, start, end, r)) {
      this.withoutHost++
      return
    }
    const column = LATIN1.decode(bytes.subarray(start, end))
    // Cached as 'KEY ORIGIN' (neither holds a space), or '' when unusable.
    let pair = this.raw.get(column)
    if (pair === undefined) {
      pair = ''
      try {
        const key = storeKey(LATIN1.decode(bytes.subarray(r[0], r[1])), 'fetch').key
        const origin = column.includes('://') ? storeKey(column, 'fetch').key : originOfHost(key, column.slice(r[1] - start), scheme)
        if (origin.startsWith('http://') || origin.startsWith('https://')) pair = `${key} ${origin}`
      } catch {
        // Not a host the store can key: counted below.
      }
      this.remember(column, pair)
    }
    if (pair === '') {
      this.unusable++
      return
    }
    const space = pair.indexOf(' ')
    const key = pair.slice(0, space)
    if (!this.origins.has(key)) this.origins.set(key, pair.slice(space + 1))
  }

  private remember(raw: string, key: string): void {
    if (this.raw.size >= RAW_CACHE_LIMIT) this.raw.clear()
    this.raw.set(raw, key)
  }
}

/** The origin to fetch for bare host `key` and what followed it in its column (`:80` → http, `:443` → https, another port → `scheme` with that port). */
function originOfHost(key: string, rest: string, scheme: 'http' | 'https'): string {
  const m = /^:([0-9]{1,5})$/.exec(rest)
  const port = m ? Number(m[1]) : 0
  if (port === 80) return `http://${key}`
  if (port === 443) return `https://${key}`
  if (port > 0 && port <= 65535) return `${scheme}://${key}:${port}`
  return `${scheme}://${key}`
}

/**
 * Reads `inputs` as `filter` reads them and adds every line's origin to
 * `list`: with a host column (`--host-field`), its host; otherwise the URL
 * (the whole line, or the `--field` column).
 */
export async function readOrigins(inputs: readonly InputFile[], spec: OriginSpec, list: OriginList): Promise<void> {
  const f = spec.fields
  const out = new Int32Array(4)
  await forEachUrlLine(
    inputs,
    (bytes, start, end) => {
      list.lines++
      if (f === undefined) return list.addUrl(bytes, start, end)
      if (f.host > 0) {
        if (findField(bytes, start, end, f.host, f.delimiter, out, 2)) list.addHostColumn(bytes, out[2], out[3], spec.scheme)
        else list.withoutHost++
        return
      }
      if (findField(bytes, start, end, f.url, f.delimiter, out, 0)) list.addUrl(bytes, out[0], out[1])
      else list.withoutHost++
    },
    async () => {},
  )
}
