/**
 * Crawler sets for the data suites: every engine and tier judges sets of 1,
 * 2 and 8 crawlers (crawlers that share tokens, a crawler of several
 * tokens, the same crawler named twice, `*` and the empty token), and each
 * crawler's verdict and line must be what it gets alone. {@link checkSets}
 * runs every form of a set's check (string, `URL`, bytes, range, scan,
 * lines, explain) on the same URL list.
 */
import { parseRobots, UrlScan, type Crawler, type ParseOptions } from '../../src/index.js'

/** The tokens of a crawler. */
export function tokensOf(c: Crawler): readonly string[] {
  return typeof c === 'string' ? [c] : c
}

/** Sets of 1, 2 and 8 crawlers over agent names of the paired corpus and the conformance vectors. */
export const PAIRED_SETS: readonly (readonly Crawler[])[] = [
  ['Googlebot'],
  ['Googlebot', 'bingbot'],
  ['Googlebot', ['Googlebot-Image', 'Googlebot'], 'bingbot', 'FooBot', '*', 'MJ12bot', 'Googlebot', ''],
]

/** Sets over the random suites' agent names (FooBot, BarBot, Foo, Other, ''). */
export const RANDOM_SETS: readonly (readonly Crawler[])[] = [
  ['FooBot'],
  ['FooBot', 'BarBot'],
  ['FooBot', ['BarBot', 'FooBot'], 'Other', 'FooBot', '', 'BarBot', ['Other', 'foobot'], '*'],
]

/** A set made of `agent` (one crawler), `agent` with another, and eight around it (shared tokens, a duplicate). */
export function setsAround(agent: string, other: string): (readonly Crawler[])[] {
  return [[agent], [agent, other], [agent, [other, agent], other, agent, '*', '', [agent.toUpperCase()], 'Unknown-Bot']]
}

const ENCODER = new TextEncoder()

/**
 * Checks every crawler of every set against `want(tokens, i)` (the packed
 * `line * 2 + allowed` of URL `i` for a crawler answering to `tokens`, as a
 * one-crawler run or the reference gives it), on a parse of `body` with
 * `options` per set, through every form of the check. Returns descriptions
 * of the disagreements (at most `max`).
 */
export function checkSets(
  body: string | Uint8Array,
  options: ParseOptions,
  sets: readonly (readonly Crawler[])[],
  urls: readonly string[],
  want: (tokens: readonly string[], i: number) => number,
  max = 10,
): string[] {
  const bad: string[] = []
  const scan = new UrlScan()
  const lineUrls = urls.filter((u) => !/[\r\n]/.test(u))
  for (const crawlers of sets) {
    const set = parseRobots(body, options).crawlers(crawlers)
    const k = crawlers.length
    const wants = urls.map((_, i) => crawlers.map((c) => want(tokensOf(c), i)))
    const out = new Int32Array(k)
    const expectRow = (form: string, url: string, i: number, got: ArrayLike<number>): void => {
      for (let c = 0; c < k; c++) {
        if (got[c] !== wants[i][c] && bad.length < max) {
          bad.push(JSON.stringify({ form, options, crawlers, crawler: c, url, want: wants[i][c], got: got[c] }))
        }
      }
    }
    urls.forEach((url, i) => {
      const bytes = ENCODER.encode(url)
      expectRow('string', url, i, set.match(url, out))
      expectRow('bytes', url, i, set.match(bytes, out))
      const padded = new Uint8Array(bytes.length + 4)
      padded.set(bytes, 2)
      expectRow('range', url, i, set.matchRange(padded, 2, 2 + bytes.length, out))
      scan.scan(bytes)
      expectRow('scan', url, i, set.matchScan(scan, out))
      scan.scanString(url)
      expectRow('scan-string', url, i, set.matchScan(scan, out))
      const ex = set.explain(url)
      expectRow('explain', url, i, ex.map((e) => (e.rule?.line ?? 0) * 2 + (e.allowed ? 1 : 0)))
      expectRow('check', url, i, set.check(url).map((v) => v.line * 2 + (v.allowed ? 1 : 0)))
      const flags = set.isAllowed(url)
      expectRow('isAllowed', url, i, flags.map((a, c) => (a ? 1 : 0) + (wants[i][c] & ~1)))
    })
    if (lineUrls.length > 0) {
      const index = lineUrls.map((u) => urls.indexOf(u))
      const input = ENCODER.encode(lineUrls.join('\n') + '\n')
      const ends = new Int32Array(lineUrls.length)
      const rows = set.matchLines(input, new Int32Array(lineUrls.length * k), ends)
      if (rows.length !== lineUrls.length * k && bad.length < max) bad.push(JSON.stringify({ form: 'lines', crawlers, rows: rows.length, want: lineUrls.length * k }))
      else index.forEach((i, row) => expectRow('lines', urls[i], i, rows.subarray(row * k, row * k + k)))
    }
  }
  return bad
}
