/**
 * Group directives the reference ignores but crawlers use: crawl-delay,
 * request-rate, visit-time and host. Values are read strictly; a bad value is
 * ignored with a diagnostic (see each parser below for the exact rule).
 */
import { DIAG_INDEX } from './diagnostics.js'

/** Requests allowed per period (`Request-rate: 1/10s` → `{ requests: 1, seconds: 10 }`). */
export interface RequestRate {
  requests: number
  seconds: number
}

/** A daily window in UTC (`Visit-time: 0600-0845` → `{ from: '06:00', to: '08:45' }`). */
export interface VisitTime {
  from: string
  to: string
}

/**
 * The extension directives (a `const enum`: numbers in the bundle). A kind is
 * one byte of the compact form (rules/compact-rules.ts): renumbering one
 * changes the serialised format (FORMAT_VERSION, rules/compact-rules.ts).
 */
export const enum ExtensionKind {
  CrawlDelay = 0,
  RequestRate = 1,
  VisitTime = 2,
  Host = 3,
  /** How many kinds there are: a form's kind byte is below it. */
  Count = 4,
}

/** Each extension's key, lowercased, by {@link ExtensionKind}. */
export const EXTENSION_KEYS: readonly string[] = ['crawl-delay', 'request-rate', 'visit-time', 'host'] satisfies string[] & { length: ExtensionKind.Count }

/** Longest crawl-delay taken as given; larger values are read as this (one day). */
export const MAX_CRAWL_DELAY = 86_400

export type ExtensionValue = number | RequestRate | VisitTime | string

/** Result of reading an extension value: the value, and a diagnostic (its code's index) when it was bad or changed. */
export interface ExtensionRead {
  value?: ExtensionValue
  problem?: DIAG_INDEX
}

/**
 * Crawl-delay: a decimal number of seconds (`10`, `0.5`, `.5`). Negative,
 * non-numeric or non-finite values are ignored; values above one day are
 * read as one day.
 */
export function readCrawlDelay(text: string): ExtensionRead {
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(text)) return { problem: DIAG_INDEX['bad-crawl-delay'] }
  const n = Number(text)
  if (!Number.isFinite(n)) return { problem: DIAG_INDEX['bad-crawl-delay'] }
  if (n > MAX_CRAWL_DELAY) return { value: MAX_CRAWL_DELAY, problem: DIAG_INDEX['crawl-delay-clamped'] }
  return { value: n }
}

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 }

/** Request-rate: `N/T` with an optional unit s, m, h or d (default s); N ≥ 1 integer, T > 0. */
export function readRequestRate(text: string): ExtensionRead {
  const m = /^(\d+)\s*\/\s*(\d+(?:\.\d+)?)\s*([smhd]?)$/i.exec(text)
  if (!m) return { problem: DIAG_INDEX['bad-request-rate'] }
  const requests = Number(m[1])
  const seconds = Number(m[2]) * UNIT_SECONDS[(m[3] || 's').toLowerCase()]
  if (!(requests >= 1) || !(seconds > 0) || !Number.isFinite(seconds) || !Number.isSafeInteger(requests)) {
    return { problem: DIAG_INDEX['bad-request-rate'] }
  }
  return { value: { requests, seconds } }
}

/** Visit-time: `HHMM-HHMM` (or `HH:MM-HH:MM`), UTC, hours 00–23 and minutes 00–59. */
export function readVisitTime(text: string): ExtensionRead {
  const m = /^(\d\d):?(\d\d)\s*-\s*(\d\d):?(\d\d)$/.exec(text)
  if (!m || +m[1] > 23 || +m[3] > 23 || +m[2] > 59 || +m[4] > 59) return { problem: DIAG_INDEX['bad-visit-time'] }
  return { value: { from: `${m[1]}:${m[2]}`, to: `${m[3]}:${m[4]}` } }
}

/** Host: a host name or IP with an optional port, an optional http(s) scheme; kept lowercased. */
export function readHost(text: string): ExtensionRead {
  const m = /^(?:https?:\/\/)?([a-z0-9](?:[a-z0-9.-]*[a-z0-9])?|\[[0-9a-f:.]+\])(?::(\d{1,5}))?\/?$/i.exec(text)
  if (!m) return { problem: DIAG_INDEX['bad-host'] }
  return { value: text.toLowerCase().replace(/\/$/, '') }
}

/** Reads an extension value of kind `kind`. */
export function readExtension(kind: ExtensionKind, text: string): ExtensionRead {
  switch (kind) {
    case ExtensionKind.CrawlDelay:
      return readCrawlDelay(text)
    case ExtensionKind.RequestRate:
      return readRequestRate(text)
    case ExtensionKind.VisitTime:
      return readVisitTime(text)
    default:
      return readHost(text)
  }
}
