/**
 * The cold tier: a direct engine with no automaton. A matcher starts here
 * (see ../tiers.ts), so that creating and holding one costs almost nothing:
 * its memory is the RuleSet's record table (16 bytes a rule) and this object.
 *
 * Per URL: the path (./path.ts), then the rules in rank order (the RuleSet
 * is sorted: rules/rule-set.ts); the first rule that matches decides, so a
 * URL stops at its first hit. Most rules are rejected on their first two
 * bytes (a `/` and a literal the path must have too); the others are checked
 * segment by segment (./segments.ts).
 */
import type { EngineStats, MatchEngine } from '../matcher.js'
import { objectBytes } from '../../memory.js'
import { RuleField, SecondByte, type RuleSet } from '../../rules/rule-set.js'
import { PATH, pathOfBytes, pathOfString, releasePath } from './path.js'
import { ruleMatches } from './segments.js'

/** The direct engine over a RuleSet in rank order. */
export class DirectEngine implements MatchEngine {
  private readonly bytes: Uint8Array
  private readonly records: Int32Array

  constructor(set: RuleSet) {
    this.bytes = set.bytes
    this.records = set.records
  }

  decideBytes(url: Uint8Array, start: number, end: number): number {
    if (this.records.length === 0) return -1
    pathOfBytes(url, start, end)
    const r = this.decidePath(PATH.bytes, PATH.from, PATH.to)
    releasePath()
    return r
  }

  decideString(url: string): number {
    if (this.records.length === 0) return -1
    // The path is copied as bytes: reading a string by charCodeAt during the
    // rule checks measured slower (bench/RESULTS.md).
    pathOfString(url)
    const r = this.decidePath(PATH.bytes, PATH.from, PATH.to)
    releasePath()
    return r
  }

  /** The first rule (in rank order) that matches the path `p[from, to)`, or -1. */
  decidePath(p: Uint8Array, from: number, to: number): number {
    const bytes = this.bytes
    const rec = this.records
    const n = rec.length
    const second = from + 1 < to ? p[from + 1] : -1
    for (let at = 0; at < n; at += RuleField.Width) {
      // Most rules fail on the path's second byte (rule-set.ts, SecondByte).
      const need = rec[at + RuleField.Flags] >>> SecondByte.Shift
      if (need !== SecondByte.Any && need !== second) continue
      if (ruleMatches(bytes, rec, at, p, from, to)) return at / RuleField.Width
    }
    return -1
  }

  stats(): EngineStats {
    return { ...NO_AUTOMATON, engine: 'direct' }
  }

  memoryUsage(): number {
    return DIRECT_ENGINE_BYTES
  }
}

/** The figures of an engine without an automaton. */
export const NO_AUTOMATON: EngineStats = Object.freeze({
  engine: 'direct',
  positions: 0,
  classes: 0,
  states: 0,
  flushes: 0,
  cacheBytes: 0,
  peakCacheBytes: 0,
  budget: 0,
  largestStateBytes: 0,
})

/** A DirectEngine object (two fields); its records belong to the RuleSet. */
const DIRECT_ENGINE_BYTES = objectBytes(2)
