/** Numbers as the command line prints them: grouped counts, plurals, megabytes, rates. */

import { count, plural } from '../../tools/counts.js'

export { count, plural }

/** Bytes as megabytes (10^6), one decimal. */
export function megabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`
}

/** A rate with a unit, rounded to three significant figures where large. */
export function rate(perSecond: number): string {
  if (!Number.isFinite(perSecond)) return '-'
  if (perSecond >= 1e6) return `${(perSecond / 1e6).toFixed(2)}M`
  if (perSecond >= 1e4) return `${(perSecond / 1e3).toFixed(0)}k`
  return perSecond.toFixed(0)
}

/**
 * A duration as a person says it, rounded down within its unit, never
 * inflated: `45 seconds`, `90 seconds`, `2 minutes`, `119 minutes`,
 * `2 hours`, `47 hours`, `2 days`.
 */
export function duration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000))
  if (s < 120) return plural(s, 'second')
  const m = Math.floor(s / 60)
  if (m < 120) return plural(m, 'minute')
  const h = Math.floor(m / 60)
  if (h < 48) return plural(h, 'hour')
  return plural(Math.floor(h / 24), 'day')
}
