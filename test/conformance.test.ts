/**
 * Every vector of test/data/conformance (google/robotstxt's own unit tests,
 * vendored with their provenance in its README): the 145 allow/disallow cases
 * through the public API, against every engine, and the 50 others through the
 * helpers and the per-line report. Runs in a bare clone (no ../shared needed).
 */
import { describe, expect, it } from 'vitest'
import {
  escapePattern,
  isValidProductToken,
  parseInto,
  parseRobots,
  pathOf,
  reportLines,
  type ParseHandler,
} from '../src/index.js'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { vectorBytes } from './support/shared-data.js'

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
  for (const engine of ['automaton', 'plain'] as const) {
    describe(`engine: ${engine}`, () => {
      for (const t of robotsTests) {
        it(t.id, () => {
          const body = vectorBytes(t, 'robotstxt')
          const url = t.url_base64 ? vectorBytes(t, 'url') : t.url
          const m = parseRobots(body, { engine }).agent(t.useragent)
          expect(m.isAllowed(url)).toBe(t.allowed)
          expect(m.explain(url).allowed).toBe(t.allowed)
          if (typeof url === 'string') expect(m.isAllowed(new TextEncoder().encode(url))).toBe(t.allowed)
        })
      }
    })
  }
})

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
            if ('valid_directives' in expectObj) expect(stats.validDirectives).toBe(expectObj.valid_directives)
            if ('unknown_directives' in expectObj) expect(stats.unknownDirectives).toBe(expectObj.unknown_directives)
            if ('last_line_seen' in expectObj) expect(stats.lastLineSeen).toBe(expectObj.last_line_seen)
            if ('sitemap' in expectObj) expect(stats.sitemapText).toBe(expectObj.sitemap)
            expect(Object.keys(expectObj).length).toBeGreaterThan(0)
          } else if (t.handler === 'RobotsParsingReporter') {
            const report = reportLines(body)
            if ('valid_directives' in expectObj) expect(report.validDirectives).toBe(expectObj.valid_directives)
            if ('last_line_seen' in expectObj) expect(report.lastLineSeen).toBe(expectObj.last_line_seen)
            if (expectObj.parse_results_count_equals_last_line_seen) expect(report.lines).toHaveLength(report.lastLineSeen)
            const lines = t.lines as { line_num: number; tag_name: string; is_typo: boolean; metadata: Record<string, boolean> }[]
            expect(lines.length + Object.keys(expectObj).length).toBeGreaterThan(0)
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
