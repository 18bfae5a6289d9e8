/**
 * Minimising a disagreement: drop lines of the robots.txt while the
 * implementation still disagrees with the reference (or RFC 9309's answer,
 * under `--semantics rfc`) in the same way: the same outcome (verdict, line
 * or error) in the same direction (the implementation's verdict unchanged,
 * so a case it allowed against a disallow stays one), by delta debugging (ddmin: halves, quarters, … down to
 * single lines, restarting after every success); then shorten the URL
 * (fragment, query, trailing path segments) the same way. Each try re-runs
 * the oracle and the adapter; adapter calls per disagreement are bounded.
 */
import type { Answer, Request } from './adapters/adapter.js'
import type { Case, Expected } from './case.js'
import { decide, decideRfc } from './oracle.js'
import { outcomeOf, type Outcome, type Semantics } from './outcome.js'

/** A smaller case that disagrees in the same way. */
export interface Minimised {
  readonly robots: Uint8Array
  readonly url: string
  readonly expected: Expected
  readonly answer: Answer
  /** Adapter calls spent. */
  readonly calls: number
  /** Lines of the body before and after. */
  readonly linesBefore: number
  readonly linesAfter: number
  /** False when the budget ran out before no line could be dropped any more. */
  readonly complete: boolean
}

/** Splits a body into lines, each with its ending (LF, CR or CRLF; the last may have none). */
export function splitLines(body: Uint8Array): Uint8Array[] {
  const lines: Uint8Array[] = []
  let start = 0
  for (let i = 0; i < body.length; i++) {
    const c = body[i]
    if (c === 10 || c === 13) {
      const end = c === 13 && body[i + 1] === 10 ? i + 2 : i + 1
      lines.push(body.subarray(start, end))
      start = end
      i = end - 1
    }
  }
  if (start < body.length) lines.push(body.subarray(start))
  return lines
}

function join(lines: readonly Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(lines))
}

/** Shorter forms of a URL: without fragment, without query, with fewer path segments. */
function shorterUrls(url: string): string[] {
  const out: string[] = []
  const hash = url.indexOf('#')
  if (hash >= 0) out.push(url.slice(0, hash))
  const base = hash >= 0 ? url.slice(0, hash) : url
  const q = base.indexOf('?')
  if (q >= 0) out.push(base.slice(0, q))
  const bare = q >= 0 ? base.slice(0, q) : base
  const m = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*)?(\/.*)$/.exec(bare)
  if (m) {
    const origin = m[1] ?? ''
    let path = m[2]
    while (path.length > 1) {
      const cut = path.endsWith('/') ? path.slice(0, -1) : path
      path = cut.slice(0, cut.lastIndexOf('/') + 1) || '/'
      out.push(origin + path)
    }
  }
  return out
}

/** Whether `answer` disagrees with `expected` as `outcome` did with the implementation's verdict `allowed` (undefined for an error). */
export function sameDisagreement(expected: Expected, answer: Answer, outcome: Outcome, allowed: boolean | undefined): boolean {
  if (outcomeOf(expected, answer) !== outcome) return false
  return outcome === 'error' || answer.allowed === allowed
}

/**
 * Minimises the disagreement `outcome` of case `c` (the implementation's
 * answer `original`) with at most `budget` adapter calls, against the
 * answers of `semantics`; undefined when the case does not shrink at all.
 */
export async function minimise(
  c: Case,
  outcome: Outcome,
  judge: (request: Request) => Promise<Answer>,
  budget: number,
  original?: Answer,
  semantics: Semantics = 'reference',
): Promise<Minimised | undefined> {
  let calls = 0
  let best: { robots: Uint8Array; url: string; expected: Expected; answer: Answer } | undefined
  const oracle = semantics === 'rfc' ? decideRfc : decide
  const allowed = original?.allowed
  const still = async (robots: Uint8Array, url: string): Promise<boolean> => {
    calls++
    const expected = oracle(robots, c.agents, url)
    const answer = await judge({ robots, agents: c.agents, url })
    if (original ? !sameDisagreement(expected, answer, outcome, allowed) : outcomeOf(expected, answer) !== outcome) return false
    best = { robots, url, expected, answer }
    return true
  }
  let lines = splitLines(c.robots)
  const linesBefore = lines.length
  let url = c.url
  let complete = true
  let n = 2
  ddmin: while (lines.length > 0) {
    const chunk = Math.ceil(lines.length / n)
    for (let start = 0; start < lines.length; start += chunk) {
      if (calls >= budget) {
        complete = false
        break ddmin
      }
      const candidate = [...lines.slice(0, start), ...lines.slice(start + chunk)]
      if (await still(join(candidate), url)) {
        lines = candidate
        n = Math.max(n - 1, 2)
        continue ddmin
      }
    }
    if (chunk === 1) break
    n = Math.min(n * 2, lines.length)
  }
  for (const shorter of shorterUrls(url)) {
    if (calls >= budget) {
      complete = false
      break
    }
    if (await still(join(lines), shorter)) url = shorter
  }
  if (best === undefined) return undefined
  return { ...best, calls, linesBefore, linesAfter: splitLines(best.robots).length, complete }
}
