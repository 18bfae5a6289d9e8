/**
 * The report of a `compare` run as one JSON-ready object: totals and
 * agreement per category under both scores, attribution, pass rates per file
 * of the set, timings, the failure that stopped the run if any, and the
 * disagreements with the reference's deciding rule and their minimised
 * forms; the bodies of the cases once each, by SHA-1. The terminal, JSON and
 * HTML reports all render it; `--json` adds every case (json-report.ts).
 */
import { nodeCrypto } from '../../tools/built-ins.js'
import type { Answer, AdapterTimings, Evidence } from '../adapters/adapter.js'
import type { Attribution } from '../attribution.js'
import { agentField, robotsFields, type Case, type Expected } from '../case.js'
import { CATEGORIES, CATEGORY_ORDER, STANDARDS, type Standard } from '../categories.js'
import type { Minimised } from '../minimise.js'
import type { Outcome, Score, Semantics } from '../outcome.js'
import type { StatedMismatch } from '../oracle.js'
import type { Counts, Kept, Tally as TallyState } from '../tally.js'
import type { BaselineResult } from '../baseline.js'

/** Version of the report layout (3: RFC 9309's answers and scores beside the reference's, standards, content keys, evidence, baseline). */
export const REPORT_FORMAT = 3

/** Disagreements listed in the JSON and HTML reports at most (counts are always complete; `cases` lists every case). */
export const LISTED_MAX = 1000

/** Counts for the run, one category or one file, with the agreement in percent under each score and the headline's. */
export interface Tally extends Counts {
  /** Agreement under the report's score and semantics: `scores[score]` (reference) or `rfcScores[score]` (rfc). */
  agreement: number
  /** Agreement with the reference: `lines`: (agreed / cases); `verdicts`: (agreed + line) / cases; 100 when there are no cases. */
  scores: Record<Score, number>
  /** The same with RFC 9309's answers. */
  rfcScores: Record<Score, number>
}

/** One category's row. */
export interface CategoryRow extends Tally {
  id: string
  description: string
  /** Of its disagreements, those no other category of the explanation at least half as precise tags (absent when it has none). */
  only?: number
}

/** One file of the set (a spec-test file): its pass rate. */
export interface FileRow extends Tally {
  file: string
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
  /** The case's content key (see caseKey). */
  key: string
  /** Under the run's semantics. */
  outcome: Exclude<Outcome, 'agree'>
  standard: Standard
  categories: string[]
  agent: string | string[]
  url: string
  /** Where the body comes from (a file, a case file's line). */
  source?: string
  /** Why the set expects its answer (spec-test `additional_explanation`). */
  explanation?: string
  /** The case's body: a key of the report's `bodies`. */
  robots_sha1: string
  answer: ReportedAnswer
  /** What the implementation gave (its raw answer; a command's exit status, stdout and stderr). */
  evidence?: Evidence
  /** The reference's answer. */
  expected: ReportedExpected
  /** RFC 9309's answer. */
  rfc: ReportedExpected
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

/** One case as `--json` lists it (in `cases`, every case of the run in run order). */
export interface ReportedCase {
  id: string
  key: string
  /** Against the reference's answer. */
  outcome: Outcome
  /** Against RFC 9309's answer. */
  rfcOutcome: Outcome
  standard: Standard
  categories: string[]
  answer: ReportedAnswer
  /** For a case that fails under the run's semantics and score. */
  evidence?: Evidence
  expected: { allowed: boolean; line: number }
  rfc: { allowed: boolean; line: number }
}

/** Timings of the run. */
export interface ReportTimings {
  /** Per-case time: what it measures. */
  caseTime: string
  /** Cases per second of the first pass; with repeats, the median over them. */
  casesPerSecond: number
  p50Ms: number
  p99Ms: number
  meanMs: number
  /** Wall time of running the cases, first pass (ms). */
  runWallMs: number
  /** With --repeat: each pass's wall time (ms) and cases/s, their median and spread. */
  repeats?: { wallMs: number[]; casesPerSecond: { median: number; min: number; max: number }; unstable: number }
  /** Start-up, measured alone (ms). */
  startupMs?: number
  /** --cmd: the start-up was taken off each case's time. */
  startupSubtracted?: boolean
  /** --batch: the harness's own ceiling, a null adapter's rate through the same protocol on the first cases. */
  ceiling?: { cases: number; casesPerSecond: number }
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

/** Why a run stopped before its end. */
export interface ReportedFailure {
  message: string
  /** The end of the implementation's stderr. */
  stderr?: string
}

/** The whole report. */
export interface Report {
  format: number
  tool: string
  set: string
  adapter: string
  date: string
  /** What the headline agreement (and the gate) counts: `lines` or `verdicts`. */
  score: Score
  /** Whose answers the headline and the gate use: the reference's or RFC 9309's (both are scored). */
  semantics: Semantics
  /** False when the run stopped before its end (see `failure`): the counts are those of the cases done. */
  complete: boolean
  failure?: ReportedFailure
  totals: Tally & { skipped: number; skippedWhy?: string; disagreements: number; linesChecked: number; allowed: number }
  categories: CategoryRow[]
  /** Per standard (the case's answer follows RFC 9309 alone, Google's behaviour beyond it, or differs from the RFC): its cases and agreement. */
  standards: ({ id: Standard } & Tally)[]
  /** Categories that together tag every disagreement, chosen for precision (attribution.ts). */
  explanation: { id: string; failures: number; cases: number }[]
  /** Disagreements of cases with no category. */
  uncategorised: number
  /** Pass rate per file of the set (spec-test files), when the set has files. */
  files?: FileRow[]
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
  /** With --baseline: the disagreements it knows, the new ones and those fixed. */
  baseline?: BaselineResult
  /** The run completed, its agreement reached minAgreement and (with a baseline) no disagreement is new. */
  passed: boolean
  /** `--json` only: every case, in run order. */
  cases?: ReportedCase[]
}

/** Counts with their agreement under both scores and both standards; `score` and `semantics` pick the headline. */
export function withAgreement(t: Counts, score: Score, semantics: Semantics = 'reference'): Tally {
  const pct = (n: number): number => (t.cases === 0 ? 100 : (100 * n) / t.cases)
  const scores = { lines: pct(t.agreed), verdicts: pct(t.agreed + t.line) }
  const rfcScores = { lines: pct(t.rfcAgreed), verdicts: pct(t.rfcAgreed + t.rfcLine) }
  return { ...t, agreement: (semantics === 'rfc' ? rfcScores : scores)[score], scores, rfcScores }
}

/** The p-th percentile (0–100) of sorted values (nearest rank). */
export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0
  const rank = Math.ceil((p / 100) * sorted.length)
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]
}

/** An answer as the reports give it. */
export function reportAnswer(a: Answer): ReportedAnswer {
  if (a.error !== undefined) return { error: a.error }
  return a.line === undefined ? { allowed: a.allowed } : { allowed: a.allowed, line: a.line }
}

/** An expected answer as the reports give it. */
export function reportExpected(e: Expected): ReportedExpected {
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
  attribution: Attribution
  skipped: number
  skippedWhy?: string
  statedMismatches: readonly StatedMismatch[]
  statedMismatchCount: number
  adapterTimings: AdapterTimings
  runWallMs: number
  /** Each pass's wall time (one per repeat). */
  repeatWallMs: readonly number[]
  unstable: number
  ceiling?: { cases: number; casesPerSecond: number }
  harness: ReportTimings['harness']
  minAgreement: number
  failure?: ReportedFailure
  baseline?: BaselineResult
}

function median(sorted: readonly number[]): number {
  const n = sorted.length
  return n === 0 ? 0 : n % 2 ? sorted[n >> 1] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
}

/** Builds the report. */
export function buildReport(input: ReportInput, tool: string): Report {
  const t = input.tally
  const score = t.score
  const semantics = t.semantics
  const total = withAgreement(t.total, score, semantics)
  const categories: CategoryRow[] = [...t.byCategory].map(([id, c]) => {
    const known = CATEGORIES.find((k) => k.id === id)
    const only = input.attribution.only.get(id)
    return { id, description: known?.description ?? 'given by the case set', ...withAgreement(c, score, semantics), ...(only !== undefined ? { only } : {}) }
  })
  const standards = STANDARDS.flatMap((id) => {
    const c = t.byStandard.get(id)
    return c ? [{ id, ...withAgreement(c, score, semantics) }] : []
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
    const key = nodeCrypto().createHash('sha1').update(bytes).digest('hex')
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
      key: c.key,
      outcome: t.gate(k.result) as Exclude<Outcome, 'agree'>,
      standard: c.standard,
      categories: [...c.categories],
      agent: agentField(c.agents),
      url: c.url,
      ...(c.source !== undefined ? { source: c.source } : {}),
      ...(c.explanation !== undefined ? { explanation: c.explanation } : {}),
      robots_sha1: bodyKey(c.robots),
      answer: reportAnswer(k.result.answer),
      ...(k.result.answer.evidence ? { evidence: k.result.answer.evidence } : {}),
      expected: reportExpected(c.expected),
      rfc: reportExpected(c.rfc),
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
  const rate = (wallMs: number): number => (wallMs > 0 ? (cases * 1000) / wallMs : 0)
  const rates = input.repeatWallMs.map(rate).sort((a, b) => a - b)
  const files = [...t.byGroup].map(([file, c]) => ({ file, ...withAgreement(c, score, semantics) })).sort((a, b) => (a.file < b.file ? -1 : 1))
  const timings = input.adapterTimings
  return {
    format: REPORT_FORMAT,
    tool,
    set: input.set,
    adapter: input.adapter,
    date: new Date().toISOString(),
    score,
    semantics,
    complete: input.failure === undefined,
    ...(input.failure ? { failure: input.failure } : {}),
    totals: {
      ...total,
      skipped: input.skipped,
      ...(input.skippedWhy ? { skippedWhy: input.skippedWhy } : {}),
      disagreements: t.disagreements,
      linesChecked: t.linesChecked,
      allowed: t.allowed,
    },
    categories,
    standards,
    explanation: input.attribution.explanation.map((e) => ({ ...e })),
    uncategorised: input.attribution.uncategorised,
    ...(files.length > 0 ? { files } : {}),
    timings: {
      caseTime: timings.caseTime,
      casesPerSecond: rates.length > 1 ? median(rates) : rate(input.runWallMs),
      p50Ms: percentile(times, 50),
      p99Ms: percentile(times, 99),
      meanMs: times.length ? sum / times.length : 0,
      runWallMs: input.runWallMs,
      ...(input.repeatWallMs.length > 1
        ? {
            repeats: {
              wallMs: [...input.repeatWallMs],
              casesPerSecond: { median: median(rates), min: rates[0], max: rates[rates.length - 1] },
              unstable: input.unstable,
            },
          }
        : {}),
      ...(timings.startupMs !== undefined ? { startupMs: timings.startupMs } : {}),
      ...(timings.startupSubtracted ? { startupSubtracted: true } : {}),
      ...(input.ceiling ? { ceiling: input.ceiling } : {}),
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
    ...(input.baseline ? { baseline: input.baseline } : {}),
    passed: input.failure === undefined && total.agreement >= input.minAgreement && (input.baseline === undefined || input.baseline.new.length === 0),
  }
}

/** One case as the report lists it; `failing`: its evidence is kept. */
export function reportedCase(c: Case, r: { answer: Answer; outcome: Outcome; rfcOutcome: Outcome }, failing: boolean): ReportedCase {
  return {
    id: c.id,
    key: c.key,
    outcome: r.outcome,
    rfcOutcome: r.rfcOutcome,
    standard: c.standard,
    categories: [...c.categories],
    answer: reportAnswer(r.answer),
    ...(failing && r.answer.evidence ? { evidence: r.answer.evidence } : {}),
    expected: { allowed: c.expected.allowed, line: c.expected.line },
    rfc: { allowed: c.rfc.allowed, line: c.rfc.line },
  }
}
