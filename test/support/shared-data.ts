/**
 * Locating ../shared (the real corpus) from the tests, and the suites that
 * need it.
 *
 * A clone without ../shared beside it still proves reference-exactness: the
 * vendored vectors (test/data/) and the bundled corpus sample (corpus/) run
 * through the same suites. The suites that need the full corpus are listed
 * in {@link SHARED_SUITES}; when it is absent they are skipped with the
 * reason in their name, and the global setup prints one line naming them.
 */
import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, it } from 'vitest'

/** Path of the shared folder beside the repository. */
export const SHARED = resolve(__dirname, '../../../shared')

/** True when ../shared is present (CI has it; a bare clone may not). */
export const HAS_SHARED = existsSync(resolve(SHARED, 'corpus/urls/paired.tsv'))

/** Why the full-corpus suites are skipped (empty when they run). */
export const SKIP_REASON = HAS_SHARED ? '' : `../shared not found beside the checkout (no ${resolve(SHARED, 'corpus/urls/paired.tsv')})`

/** The suites that need ../shared, by id, with what each covers. */
export const SHARED_SUITES = {
  'corpus-files': 'corpus: the 6,817 robots.txt files of ../shared in every input form',
  'reader-corpus': 'reader: corpus files with a BOM, NUL, CR, long lines, every chunk split',
  'serialise-corpus': 'serialisation: every corpus file round-trips',
  'api-corpus': 'api: corpus files answer identically after a round trip',
  'differential-paired': 'differential: paired.tsv (111,805 URLs), automaton = plain = reference',
  'match-lines-paired': 'matchLines: equals isAllowed on every paired.tsv URL',
  'cli-robots-dir': 'cli: filter --robots-dir over paired.tsv',
  'cli-url-lists': 'cli: filter over the corpus URL lists',
  'compat-paired': 'compat: robots-parser side by side on paired.tsv, every difference classified',
  'compat-metadata': 'compat: crawl-delay, sitemaps and host side by side on every corpus file',
  'user-agents-list': 'productTokens on the crawler-user-agents list',
  'sample-provenance': 'corpus sample: byte for byte the ../shared rows it was taken from',
} as const

export type SharedSuite = keyof typeof SHARED_SUITES

/**
 * A describe block that needs ../shared: runs when it is present, else is
 * skipped with the reason in its name. `fn` is called in both cases (to
 * collect the tests): read shared data inside the tests, or only when
 * `available`.
 */
export function describeShared(id: SharedSuite, fn: (available: boolean) => void): void {
  if (HAS_SHARED) describe(SHARED_SUITES[id], () => fn(true))
  else describe.skip(`${SHARED_SUITES[id]} (skipped: ${SKIP_REASON})`, () => fn(false))
}

/** One test that needs ../shared (see describeShared). */
export function itShared(id: SharedSuite, fn: () => void | Promise<void>, timeout?: number): void {
  if (HAS_SHARED) it(SHARED_SUITES[id], fn, timeout)
  else it.skip(`${SHARED_SUITES[id]} (skipped: ${SKIP_REASON})`, fn)
}

/** Reads a JSON file under ../shared. */
export function sharedJson<T>(rel: string): T {
  return JSON.parse(readFileSync(resolve(SHARED, rel), 'utf8')) as T
}

/** Bytes of a vector's field: `<name>_base64` is authoritative when present. */
export function vectorBytes(record: Record<string, unknown>, name: string): Uint8Array {
  const b64 = record[`${name}_base64`]
  if (typeof b64 === 'string') return new Uint8Array(Buffer.from(b64, 'base64'))
  return new TextEncoder().encode(String(record[name] ?? ''))
}
