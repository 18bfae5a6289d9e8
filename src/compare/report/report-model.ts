/**
 * The report of a `compare` run as one JSON-ready object: totals, agreement
 * per category, timings, and the disagreements with the reference's deciding
 * rule and their minimised forms; the bodies of the cases once each, by
 * SHA-1. The terminal, JSON and HTML reports all render this object.
 * `--json` writes it as is (its `format` field versions the layout).
 */
import { createHash } from 'node:crypto'
import type { Answer, AdapterTimings } from '../adapters/adapter.js'
import { agentField, robotsFields, type Expected } from '../case.js'
import { CATEGORIES, CATEGORY_ORDER, SET_CATEGORIES } from '../categories.js'
import type { Minimised, Outcome } from '../minimise.js'
import type { StatedMismatch } from '../oracle.js'
import type { Counts, Kept, Tally as TallyState } from '../tally.js'

/** Version of the report layout. */
export const REPORT_FORMAT = 1

/** Disagreements listed in the JSON and HTML reports at most (counts are always complete). */
export const LISTED_MAX = 1000

/** Counts for the run or one category, with the agreement in percent (`agreed / cases`; 100 when there are no cases). */
export interface Tally extends Counts {
  agreement: number
}

/** One category's row. */
export interface CategoryRow extends Tally {
  id: string
  description: string
}

/** An answer as reported. */
export interface ReportedAnswer {
  allowed?: boolean
  line?: number
  error?: string
}

/** The reference's answer as reported. */
export interface ReportedExpected {
  allowed: boolean
  line: number
  rule: { line: number; kind: 'allow' | 'disallow'; pattern: string } | null
}

/** One disagreement. */
export interface ReportedDisagreement {
  id: string
  outcome: Exclude<Outcome, 'agree'>
  categories: string[]
  agent: string | string[]
  url: string
  /** The case's body: a key of the report's `bodies`. */
  robots_sha1: string
  answer: ReportedAnswer
  expected: ReportedExpected
  minimised?: {
    robots?: string
    robots_base64?: string
    url: string
    answer: ReportedAnswer
    expected: ReportedExpected
    calls: number
    linesBefore: number
    linesAfter: number
    complete: boolean
  }
}

/** Timings of the run. */
export interface ReportTimings {
  /** Per-case time: what it measures. */
  caseTime: string
  casesPerSecond: number
  p50Ms: number
  p99Ms: number
  meanMs: number
  /** Wall time of running the cases (ms). */
  runWallMs: number
  /** --cmd: process start-up, measured alone (ms). */
  startupMs?: number
  /** --module: parse time per distinct body. */
  parse?: { bodies: number; p50Ms: number; p99Ms: number }
  /** The harness's own time (ms): cases (reading or generating them, the oracle, categories), its CPU while running, minimisation, report. */
  harness: { casesMs: number; runCpuMs: number; minimiseMs: number; reportMs: number }
}

/** A body of the report: its bytes as `robots` (UTF-8) or `robots_base64`, or left out past the size budget. */
export interface ReportedBody {
  robots?: string
  robots_base64?: string
  /** Its length in bytes. */
  bytes: number
  /** True when the bytes were left out (the report's bodies exceeded BODY_BUDGET). */
  omitted?: true
}

/** Bytes of bodies a report holds at most (each distinct body once; bodies past it are left out). */
export const BODY_BUDGET = 32 * 1024 * 1024

/** The whole report. */
export interface Report {
  format: number
  tool: string
  set: string
  adapter: string
  date: string
  totals: Tally & { skipped: number; skippedWhy?: string; disagreements: number; linesChecked: number }
  categories: CategoryRow[]
  timings: ReportTimings
  disagreements: ReportedDisagreement[]
  /** The bodies of the listed disagreements, each distinct body once, by SHA-1 (hex). */
  bodies: Record<string, ReportedBody>
  /** Disagreements not listed (beyond LISTED_MAX, or beyond what was kept of their kind). */
  unlisted: number
  /** Cases whose set states an answer other than the reference's (the reference's answer is used). */
  statedMismatchCount: number
  /** The first 100 of them. */
  statedMismatches: { id: string; stated: { allowed: boolean; line?: number }; expected: { allowed: boolean; line: number } }[]
  minAgreement: number
  passed: boolean
}

function withAgreement(t: Counts): Tally {
  return { ...t, agreement: t.cases === 0 ? 100 : (100 * t.agreed) / t.cases }
}

/** The p-th percentile (0–100) of sorted values (nearest rank). */
export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0
  const rank = Math.ceil((p / 100) * sorted.length)
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]
}

function reportAnswer(a: Answer): ReportedAnswer {
  if (a.error !== undefined) return { error: a.error }
  return a.line === undefined ? { allowed: a.allowed } : { allowed: a.allowed, line: a.line }
}

function reportExpected(e: Expected): ReportedExpected {
  return { allowed: e.allowed, line: e.line, rule: e.rule ? { line: e.rule.line, kind: e.rule.kind, pattern: e.rule.pattern } : null }
}

/** Everything the report is built from. */
export interface ReportInput {
  set: string
  adapter: string
  tally: TallyState
  /** The kept disagreements in report order. */
  order: readonly Kept[]
  minimised: ReadonlyMap<Kept, Minimised>
  skipped: number
  skippedWhy?: string
  statedMismatches: readonly StatedMismatch[]
  statedMismatchCount: number
  adapterTimings: AdapterTimings
  runWallMs: number
  harness: ReportTimings['harness']
  minAgreement: number
}

/** Builds the report. */
export function buildReport(input: ReportInput, tool: string): Report {
  const t = input.tally
  const total = withAgreement(t.total)
  const categories: CategoryRow[] = [...t.byCategory].map(([id, c]) => {
    const known = CATEGORIES.find((k) => k.id === id) ?? SET_CATEGORIES.find((k) => k.id === id)
    return { id, description: known?.description ?? 'given by the case set', ...withAgreement(c) }
  })
  categories.sort((a, b) => {
    const x = CATEGORY_ORDER.get(a.id) ?? Infinity
    const y = CATEGORY_ORDER.get(b.id) ?? Infinity
    return x !== y ? x - y : a.id < b.id ? -1 : 1
  })
  const times = t.sortedTimes()
  let sum = 0
  for (const v of times) sum += v
  const parse = input.adapterTimings.parseMs
  const parseSorted = parse ? Float64Array.from(parse).sort() : undefined
  const bodies: Record<string, ReportedBody> = {}
  let bodyBytes = 0
  const bodyKey = (bytes: Uint8Array): string => {
    const key = createHash('sha1').update(bytes).digest('hex')
    if (bodies[key] === undefined) {
      bodyBytes += bytes.length
      bodies[key] = bodyBytes <= BODY_BUDGET ? { ...robotsFields(bytes), bytes: bytes.length } : { bytes: bytes.length, omitted: true }
    }
    return key
  }
  const disagreements: ReportedDisagreement[] = input.order.slice(0, LISTED_MAX).map((k) => {
    const c = k.c
    const m = input.minimised.get(k)
    return {
      id: c.id,
      outcome: k.result.outcome as Exclude<Outcome, 'agree'>,
      categories: [...c.categories],
      agent: agentField(c.agents),
      url: c.url,
      robots_sha1: bodyKey(c.robots),
      answer: reportAnswer(k.result.answer),
      expected: reportExpected(c.expected),
      ...(m
        ? {
            minimised: {
              ...robotsFields(m.robots),
              url: m.url,
              answer: reportAnswer(m.answer),
              expected: reportExpected(m.expected),
              calls: m.calls,
              linesBefore: m.linesBefore,
              linesAfter: m.linesAfter,
              complete: m.complete,
            },
          }
        : {}),
    }
  })
  const cases = total.cases
  return {
    format: REPORT_FORMAT,
    tool,
    set: input.set,
    adapter: input.adapter,
    date: new Date().toISOString(),
    totals: {
      ...total,
      skipped: input.skipped,
      ...(input.skippedWhy ? { skippedWhy: input.skippedWhy } : {}),
      disagreements: t.disagreements,
      linesChecked: t.linesChecked,
    },
    categories,
    timings: {
      caseTime: input.adapterTimings.caseTime,
      casesPerSecond: input.runWallMs > 0 ? (cases * 1000) / input.runWallMs : 0,
      p50Ms: percentile(times, 50),
      p99Ms: percentile(times, 99),
      meanMs: times.length ? sum / times.length : 0,
      runWallMs: input.runWallMs,
      ...(input.adapterTimings.startupMs !== undefined ? { startupMs: input.adapterTimings.startupMs } : {}),
      ...(parseSorted ? { parse: { bodies: parseSorted.length, p50Ms: percentile(parseSorted, 50), p99Ms: percentile(parseSorted, 99) } } : {}),
      harness: input.harness,
    },
    disagreements,
    bodies,
    unlisted: Math.max(0, t.disagreements - disagreements.length),
    statedMismatchCount: input.statedMismatchCount,
    statedMismatches: input.statedMismatches.map((s) => ({
      id: s.id,
      stated: s.stated.line === undefined ? { allowed: s.stated.allowed } : { allowed: s.stated.allowed, line: s.stated.line },
      expected: { allowed: s.expected.allowed, line: s.expected.line },
    })),
    minAgreement: input.minAgreement,
    passed: total.agreement >= input.minAgreement,
  }
}
