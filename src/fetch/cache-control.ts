/**
 * Freshness from HTTP response headers (RFC 9111 §4.2.1), reduced to what a
 * robots.txt cache needs: `Cache-Control: no-store | no-cache | max-age`, `Age`,
 * `Expires` with `Date`, and `Retry-After` for unreachable answers.
 */

/** Minimal header access (a Web `Headers` fits). */
export interface HeaderSource {
  get(name: string): string | null
}

/** Cache-Control directives, names lower-cased, values unquoted (`true` for a bare directive). */
export function parseCacheControl(value: string | null): Map<string, string | true> {
  const out = new Map<string, string | true>()
  if (!value) return out
  const s = value
  let i = 0
  while (i < s.length) {
    while (i < s.length && (s[i] === ' ' || s[i] === '\t' || s[i] === ',')) i++
    let j = i
    while (j < s.length && s[j] !== '=' && s[j] !== ',') j++
    const name = s.slice(i, j).trim().toLowerCase()
    let v: string | true = true
    i = j
    if (s[i] === '=') {
      i++
      while (s[i] === ' ' || s[i] === '\t') i++
      if (s[i] === '"') {
        let buf = ''
        i++
        while (i < s.length && s[i] !== '"') {
          if (s[i] === '\\' && i + 1 < s.length) i++
          buf += s[i]
          i++
        }
        v = buf
      } else {
        const k = s.indexOf(',', i)
        v = s.slice(i, k === -1 ? s.length : k).trim()
      }
      const k = s.indexOf(',', i)
      i = k === -1 ? s.length : k
    }
    if (name !== '' && !out.has(name)) out.set(name, v) // the first occurrence wins
  }
  return out
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']
const IMF = /^[a-z]{3}, (\d{2}) ([a-z]{3}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) gmt$/
const RFC850 = /^[a-z]+, (\d{2})-([a-z]{3})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) gmt$/
const ASCTIME = /^[a-z]{3} ([a-z]{3}) ([ \d]\d) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/

/** An HTTP-date (RFC 9110 §5.6.7: IMF-fixdate, RFC 850 or asctime) in ms, or NaN. Stricter than `Date.parse`. */
export function parseHttpDate(value: string): number {
  const v = value.trim().toLowerCase()
  // [day, month, year, hh, mm, ss]
  let f: string[]
  let m: RegExpExecArray | null
  if ((m = IMF.exec(v))) f = m.slice(1)
  else if ((m = RFC850.exec(v))) {
    f = m.slice(1)
    const yy = Number(f[2])
    f[2] = String(yy < 70 ? 2000 + yy : 1900 + yy)
  } else if ((m = ASCTIME.exec(v))) f = [m[2]!.trim(), m[1]!, m[6]!, m[3]!, m[4]!, m[5]!]
  else return NaN
  const month = MONTHS.indexOf(f[1]!)
  if (month < 0) return NaN
  return Date.UTC(Number(f[2]), month, Number(f[0]), Number(f[3]), Number(f[4]), Number(f[5]))
}

function deltaSeconds(v: string | true | undefined): number | undefined {
  if (typeof v !== 'string' || !/^\d+$/.test(v)) return undefined
  return Number(v)
}

/**
 * How long (ms) the response says it may be reused, counted from when it was
 * received, or `undefined` when it says nothing. `no-store` and `no-cache` give
 * 0; an invalid `max-age` or `Expires` gives 0 (RFC 9111: treat as stale).
 * `Age` is subtracted. `s-maxage` is ignored (a crawler's cache is private to
 * the crawler).
 */
export function freshnessLifetimeMs(headers: HeaderSource, receivedAt: number): number | undefined {
  const cc = parseCacheControl(headers.get('cache-control'))
  if (cc.has('no-store') || cc.get('no-cache') === true) return 0
  const age = deltaSeconds(headers.get('age')?.trim()) ?? 0
  if (cc.has('max-age')) {
    const maxAge = deltaSeconds(cc.get('max-age'))
    if (maxAge === undefined) return 0
    return Math.max(0, maxAge - age) * 1000
  }
  const expires = headers.get('expires')
  if (expires !== null) {
    const exp = parseHttpDate(expires)
    if (Number.isNaN(exp)) return 0
    const dateHeader = headers.get('date')
    const date = dateHeader === null ? NaN : parseHttpDate(dateHeader)
    const base = Number.isNaN(date) ? receivedAt : date
    return Math.max(0, exp - base - age * 1000)
  }
  return undefined
}

/** `Retry-After` (delta-seconds or HTTP-date) as ms from `receivedAt`, or `undefined`. */
export function retryAfterMs(headers: HeaderSource, receivedAt: number): number | undefined {
  const v = headers.get('retry-after')?.trim()
  if (!v) return undefined
  const s = deltaSeconds(v)
  if (s !== undefined) return s * 1000
  const t = parseHttpDate(v)
  if (Number.isNaN(t)) return undefined
  const dateHeader = headers.get('date')
  const date = dateHeader === null ? NaN : parseHttpDate(dateHeader)
  return Math.max(0, t - (Number.isNaN(date) ? receivedAt : date))
}
