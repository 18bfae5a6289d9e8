/**
 * `robots-automaton/internals`: what a user of the parser needs, **with no
 * stability guarantee** (any name may change in any release, patch
 * included: pin an exact version). The parser and its {@link ParseHandler}
 * interface (the reference's RobotsParseHandler: one parse, many
 * consumers), the reference engine ({@link referenceDecide}, the tests'
 * oracle) and the compact form it reads, and {@link RuleSet}, the type of
 * `robots.rulesFor()` and `matcher.rules`. The stable API, the batch calls
 * the command line uses included, is `robots-automaton`; docs/internals.md tells
 * more.
 * @module robots-automaton/internals
 */
import { RobotsInputError } from './errors.js'
import { describeNotRobots, Robots, rulesOf } from './robots/robots.js'
import type { CompactRules } from './rules/compact-rules.js'

// The parser and the interface of its consumers.
export { LineFlag, KeyKind, type ParseHandler } from './parse/handler.js'
export { parseInto, parseLine, createParser } from './parse/parser.js'
export { LineReader, MAX_LINE_BYTES, LINE_HAS_PERCENT, checkLimit, type LineSink, type LineFastPath } from './parse/reader.js'
export { lineMetadata } from './parse/line-report.js'
export type { ReadInfo } from './rules/builder.js'

// The reference engine (the tests' oracle), the compact form it reads, and a crawler's rules.
export { referenceDecide, patternMatches, type ReferenceDecision } from './match/reference-engine.js'
export type { RuleSet } from './rules/rule-set.js'
export type { CompactRules }

/**
 * The compact form of a parsed file, as {@link referenceDecide} reads it
 * (the `Robots`' own bytes, not a copy). The entries of one module format
 * share their classes, so any `Robots` of this format's build will do;
 * a `Robots` of the other format's build (the ESM and CommonJS builds are
 * two module graphs), or anything else, is a RobotsInputError (ERR_INPUT):
 * carry it across with `toBytes()` and `Robots.fromBytes`.
 */
export function compactRulesOf(robots: Robots): CompactRules {
  if (!(robots instanceof Robots)) throw new RobotsInputError(`compactRulesOf takes a Robots of this build, got ${describeNotRobots(robots)}`)
  return rulesOf(robots)
}
