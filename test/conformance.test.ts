/**
 * Every vector of test/data/conformance (google/robotstxt's own unit tests,
 * vendored with their provenance in its README): the 145 allow/disallow cases
 * through the public API, against every engine and tier (support/engines.ts), and the 50 others through the
 * helpers and the per-line report. Runs in a bare clone (no ../shared needed).
 */
import { describe, expect, it } from 'vitest'
import {
  escapePattern,
  isValidProductToken,
  parseRobots,
  pathOf,
  reportLines,
} from '../src/index.js'
import { parseInto, type ParseHandler } from '../src/internals.js'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { vectorBytes } from './support/shared-data.js'
import { ENGINES } from './support/engines.js'
import { checkSets, setsAround } from './support/crawler-sets.js'

interface AllowRecord {
  id: string
  robotstxt: string
  useragent: string
  url: string
  allowed: boolean
  [k: string]: unknown
}

interface OtherRecord {
  id: string
  api: string
  handler?: string
  [k: string]: unknown
}

/** The project's single vendored copy of the vectors (also shipped with `compare --cases unit`). */
const VECTORS = resolve(__dirname, 'data/conformance')
const vectors = <T>(name: string): T => JSON.parse(readFileSync(resolve(VECTORS, name), 'utf8')) as T
const robotsTests: AllowRecord[] = vectors('google-robots-test.json')
const otherTests: OtherRecord[] = vectors('google-other-tests.json')

describe('conformance: google-robots-test.json (allow/disallow)', () => {
  it('has the 145 records', () => {
    expect(robotsTests).toHaveLength(145)
  })
  for (const engine of ENGINES) {
    describe(`engine: ${engine.name}`, () => {
      for (const t of robotsTests) {
        it(t.id, () => {
          const body = vectorBytes(t, 'robotstxt')
          const url = t.url_base64 ? vectorBytes(t, 'url') : t.url
          const m = parseRobots(body, engine.options).agent(t.useragent)
          expect(m.isAllowed(url)).toBe(t.allowed)
          expect(m.explain(url).allowed).toBe(t.allowed)
          if (typeof url === 'string') expect(m.isAllowed(new TextEncoder().encode(url))).toBe(t.allowed)
        })
      }
    })
  }
})

describe('conformance: google-robots-test.json through crawler sets of 1, 2 and 8', () => {
  for (const engine of ENGINES) {
    it(`engine ${engine.name}: each vector's crawler, in every set around it, answers as alone (verdict and line)`, () => {
      const bad: string[] = []
      for (const t of robotsTests) {
        const body = vectorBytes(t, 'robotstxt')
        if (t.url_base64) continue
        const alone = (tokens: readonly string[]): number => {
          const e = parseRobots(body, engine.options).agents(tokens).explain(t.url)
          return (e.rule?.line ?? 0) * 2 + (e.allowed ? 1 : 0)
        }
        const cache = new Map<string, number>()
        const want = (tokens: readonly string[]): number => {
          const key = JSON.stringify(tokens)
          if (!cache.has(key)) cache.set(key, alone(tokens))
          return cache.get(key)!
        }
        for (const d of checkSets(body, engine.options, setsAround(t.useragent, 'Googlebot'), [t.url], (tokens) => want(tokens))) bad.push(`${t.id}: ${d}`)
        // The vector's own answer, through the set of eight.
        const set = parseRobots(body, engine.options).crawlers(setsAround(t.useragent, 'Googlebot')[2])
        if (set.isAllowed(t.url)[0] !== t.allowed) bad.push(`${t.id}: set says ${!t.allowed}`)
      }
      expect(bad).toEqual([])
    })
  }
})

/** The values of `got` under the keys of `want` (absent keys read as undefined). */
function pick(got: Record<string, unknown>, want: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.keys(want).map((k) => [k, got[k]]))
}

/** The reference test's RobotsStatsReporter, as a ParseHandler. */
class StatsReporter implements ParseHandler {
  lastLineSeen = 0
  validDirectives = 0
  unknownDirectives = 0
  sitemapText = ''
  private digest(line: number): void {
    expect(line).toBeGreaterThanOrEqual(this.lastLineSeen)
    this.lastLineSeen = line
    this.validDirectives++
  }
  userAgent(line: number): void {
    this.digest(line)
  }
  allow(line: number): void {
    this.digest(line)
  }
  disallow(line: number): void {
    this.digest(line)
  }
  sitemap(line: number, bytes: Uint8Array, start: number, end: number): void {
    this.digest(line)
    this.sitemapText += new TextDecoder().decode(bytes.subarray(start, end))
  }
  unknown(line: number): void {
    this.lastLineSeen = line
    this.unknownDirectives++
  }
}

describe('conformance: google-other-tests.json', () => {
  it('has the 50 records', () => {
    expect(otherTests).toHaveLength(50)
  })
  for (const t of otherTests) {
    it(t.id, () => {
      switch (t.api) {
        case 'IsValidUserAgentToObey':
          expect(isValidProductToken(t.useragent as string)).toBe(t.expected)
          break
        case 'GetPathParamsQuery':
          expect(pathOf(t.url as string)).toBe(t.expected)
          break
        case 'MaybeEscapePattern':
          expect(escapePattern(t.input as string)).toBe(t.expected)
          break
        case 'ParseRobotsTxt': {
          const body = vectorBytes(t, 'robotstxt')
          const expectObj = t.expect as Record<string, unknown>
          if (t.handler === 'RobotsStatsReporter') {
            const stats = new StatsReporter()
            parseInto(body, stats)
            // Every expectation of the vector, read from the code: a key the suite does not know reads as undefined and fails.
            const got: Record<string, unknown> = {
              valid_directives: stats.validDirectives,
              unknown_directives: stats.unknownDirectives,
              last_line_seen: stats.lastLineSeen,
              sitemap: stats.sitemapText,
            }
            expect(pick(got, expectObj)).toEqual(expectObj)
          } else if (t.handler === 'RobotsParsingReporter') {
            const report = reportLines(body)
            const got: Record<string, unknown> = {
              valid_directives: report.validDirectives,
              last_line_seen: report.lastLineSeen,
              parse_results_count_equals_last_line_seen: report.lines.length === report.lastLineSeen,
            }
            expect(pick(got, expectObj)).toEqual(expectObj)
            const lines = t.lines as { line_num: number; tag_name: string; is_typo: boolean; metadata: Record<string, boolean> }[]
            for (const want of lines) {
              const got = report.lines.find((l) => l.line === want.line_num)
              expect(got, `line ${want.line_num}`).toBeDefined()
              expect(got!.tag).toBe(want.tag_name)
              expect(got!.isTypo).toBe(want.is_typo)
              const m = got!.metadata
              expect({
                is_empty: m.isEmpty,
                has_comment: m.hasComment,
                is_comment: m.isComment,
                has_directive: m.hasDirective,
                is_acceptable_typo: m.isAcceptableTypo,
                is_line_too_long: m.isLineTooLong,
                is_missing_colon_separator: m.isMissingColonSeparator,
              }).toEqual(want.metadata)
            }
          } else {
            throw new Error(`unknown handler ${t.handler}`)
          }
          break
        }
        default:
          throw new Error(`unknown api ${t.api}`)
      }
    })
  }
})
