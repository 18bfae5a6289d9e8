/**
 * `robots-automaton/internals`: what a user of the parser needs, **with no
 * stability guarantee** (any name may change in any release, patch
 * included: pin an exact version). The parser and its {@link ParseHandler}
 * interface (the reference's RobotsParseHandler: one parse, many
 * consumers), the reference engine ({@link referenceDecide}, the tests'
 * oracle) and the compact form it reads, and {@link RuleSet}, the type of
 * `robots.rulesFor()` and `matcher.rules`. The stable API, the batch calls
 * the command line uses included, is `robots-automaton`; docs/api.md tells
 * more.
 * @module robots-automaton/internals
 */
import { describeValue, RobotsInputError } from './errors.js'
import { Robots, rulesOf } from './robots/robots.js'
import { CompactRules } from './rules/compact-rules.js'
import { decodeForm } from './rules/serialise.js'

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
 * The compact form of a parsed file, as {@link referenceDecide} reads it.
 * This entry is a bundle of its own, so a `Robots` made by the core entry
 * (or by the other module format) is not an instance of its classes: such a
 * `Robots` is read back through `toBytes()`, checked completely as
 * `Robots.fromBytes` checks (a copy; a forged object is a
 * RobotsFormatError, anything without `toBytes` a RobotsInputError).
 */
export function compactRulesOf(robots: Robots): CompactRules {
  if (robots instanceof Robots) return rulesOf(robots)
  const toBytes: unknown = typeof robots === 'object' && robots !== null ? (robots as { toBytes?: unknown }).toBytes : undefined
  if (typeof toBytes !== 'function') throw new RobotsInputError(`compactRulesOf takes a Robots, got ${describeValue(robots)}`)
  return new CompactRules(decodeForm(toBytes.call(robots) as Uint8Array, 'compactRulesOf'))
}
