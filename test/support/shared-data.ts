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

/** What a suite needs of ../shared: the corpus (robots files, paired URLs, user agents) or the spec-test checkout. */
export type SharedPart = 'corpus' | 'spec-test'

const PART_PATH: Record<SharedPart, string> = {
  corpus: resolve(SHARED, 'corpus/urls/paired.tsv'),
  'spec-test': resolve(SHARED, 'spec-test'),
}

/**
 * Set by vitest.quick.config.ts (`npm run test:quick`): the suites that need
 * ../shared are left out, as in a clone without it, and the bundled sample
 * runs through the same checks instead.
 */
export const QUICK_RUN = process.env.ROBOTS_AUTOMATON_QUICK_TESTS === '1'

/** True when that part of ../shared is present (and used: not in a quick run). */
export function sharedHas(part: SharedPart): boolean {
  return !QUICK_RUN && existsSync(PART_PATH[part])
}

/** True when ../shared's corpus is present (CI has it; a bare clone may not). */
export const HAS_SHARED = sharedHas('corpus')

/** Why the suites needing `part` are skipped (empty when they run). */
export function skipReason(part: SharedPart): string {
  if (sharedHas(part)) return ''
  return QUICK_RUN ? 'a quick run (npm run test:quick) leaves ../shared out' : `../shared not found beside the checkout (no ${PART_PATH[part]})`
}

/** The suites that need ../shared, by id, with what each covers and what it needs. */
export const SHARED_SUITES = {
  'corpus-files': { name: 'corpus: the 6,817 robots.txt files of ../shared in every input form', needs: 'corpus' },
  'reader-corpus': { name: 'reader: corpus files with a BOM, NUL, CR, long lines, every chunk split', needs: 'corpus' },
  'fast-line-corpus': { name: "builder's fast path: every corpus file gives the general path's form and diagnostics", needs: 'corpus' },
  'serialise-corpus': { name: 'serialisation: every corpus file round-trips', needs: 'corpus' },
  'store-paired': { name: 'store: paired.tsv through origin and bare-host keys and a bundle', needs: 'corpus' },
  'serialise-fuzz-corpus': { name: 'serialisation fuzz: mutated forms and bundles of ../shared corpus files', needs: 'corpus' },
  'api-corpus': { name: 'api: corpus files answer identically after a round trip', needs: 'corpus' },
  'differential-paired': { name: 'differential: paired.tsv (111,805 URLs), automaton = plain = reference', needs: 'corpus' },
  'match-lines-paired': { name: 'matchLines: equals isAllowed on every paired.tsv URL', needs: 'corpus' },
  'cli-robots-dir': { name: 'cli: filter --robots-dir over paired.tsv', needs: 'corpus' },
  'cli-url-lists': { name: 'cli: filter over the corpus URL lists', needs: 'corpus' },
  'compat-paired': { name: 'compat: robots-parser side by side on paired.tsv, every difference classified', needs: 'corpus' },
  'compat-metadata': { name: 'compat: crawl-delay, sitemaps and host side by side on every corpus file', needs: 'corpus' },
  'user-agents-list': { name: 'productTokens on the crawler-user-agents list', needs: 'corpus' },
  'sample-provenance': { name: 'corpus sample: byte for byte the ../shared rows it was taken from', needs: 'corpus' },
  'spec-test-reader': { name: 'spec-test reader: the 41 google/robotstxt-spec-test files (../shared/spec-test)', needs: 'spec-test' },
  'compare-spec-test': { name: 'compare: google/robotstxt-spec-test (../shared/spec-test), all 400 expectations', needs: 'spec-test' },
} as const satisfies Record<string, { name: string; needs: SharedPart }>

export type SharedSuite = keyof typeof SHARED_SUITES

/** The suites skipped in this checkout, with their reasons. */
export function skippedSuites(): { name: string; reason: string }[] {
  return Object.values(SHARED_SUITES)
    .filter((s) => !sharedHas(s.needs))
    .map((s) => ({ name: s.name, reason: skipReason(s.needs) }))
}

/**
 * A describe block that needs ../shared: runs when its part is present, else
 * is skipped with the reason in its name. `fn` is called in both cases (to
 * collect the tests): read shared data inside the tests, or only when
 * `available`.
 */
export function describeShared(id: SharedSuite, fn: (available: boolean) => void): void {
  const { name, needs } = SHARED_SUITES[id]
  if (sharedHas(needs)) describe(name, () => fn(true))
  else describe.skip(`${name} (skipped: ${skipReason(needs)})`, () => fn(false))
}

/** One test that needs ../shared (see describeShared). */
export function itShared(id: SharedSuite, fn: () => void | Promise<void>, timeout?: number): void {
  const { name, needs } = SHARED_SUITES[id]
  if (sharedHas(needs)) it(name, fn, timeout)
  else it.skip(`${name} (skipped: ${skipReason(needs)})`, fn)
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
