/**
 * `robots-automaton/internals`: the parser and its {@link ParseHandler}
 * interface, the reference engine (the tests' oracle), {@link RuleSet},
 * {@link MatchEngine}, and what the command line needs, **with no stability
 * guarantee**: any name may change in any release, patch included (pin an
 * exact version). The stable API is `robots-automaton`; docs/api.md tells more.
 * @module robots-automaton/internals
 */
import { describeValue, RobotsInputError } from './errors.js'

// The tools' error (the command line, compare) and how they word a file's system error.
export { CliError, UsageError, describeSystemError, readError, type CliErrorCode } from './errors.js'
import { Robots } from './robots/robots.js'
import { CompactRules } from './rules/compact-rules.js'
import { decodeForm } from './rules/serialise.js'

// The parser and the interface of its consumers.
export { LineFlag, KeyKind, type ParseHandler } from './parse/handler.js'
export { parseInto, parseLine, createParser } from './parse/parser.js'
export { LineReader, MAX_LINE_BYTES, LINE_HAS_PERCENT, checkLimit, type LineSink, type LineFastPath } from './parse/reader.js'
export { lineMetadata } from './parse/line-report.js'
export type { ReadInfo } from './rules/builder.js'

// The reference engine (the tests' oracle) and the matcher's parts.
export { referenceDecide, patternMatches, type ReferenceDecision } from './match/reference-engine.js'
export type { RuleSet } from './rules/rule-set.js'
export type { LineJob, MatchEngine } from './match/engine.js'
export type { CompactRules }

// For the command line (it uses the library through its entries): the line
// convention of batch input, the byte-budget LRU, the store's key of an origin.
export { lineEnd, urlEnd } from './match/lines.js'
export { ByteLru, BYTE_LRU_ENTRY_BYTES, type ByteLruOptions } from './byte-lru.js'
export { storeKey, type KeyParts } from './store/origin-keys.js'
// A bundle written entry by entry (fetch's output, whatever its size).
export { BundleWriter, type BundleEntryKind, type BundleChecksum } from './store/bundle-writer.js'

// The one scan of a URL and the keyed hash of names (src/url/): the command
// line's host index, line locator and host counter read them, and its worker
// threads take the main thread's key.
export { scanUrl, scanHostField, newUrlRecord, UrlField, UrlFlag, PortCode } from './url/url-scan.js'
export { hostHash, secondHash, hashKeyWords, adoptHashKey } from './url/keyed-hash.js'

/**
 * The compact form of a parsed file, as {@link referenceDecide} reads it.
 * This entry is a bundle of its own, so a `Robots` made by the core entry
 * (or by the other module format) is not an instance of its classes: such a
 * `Robots` is read back through `toBytes()`, checked completely as
 * `Robots.fromBytes` checks (a copy; a forged object is a
 * RobotsFormatError, anything without `toBytes` a RobotsInputError).
 */
export function compactRulesOf(robots: Robots): CompactRules {
  if (robots instanceof Robots) return robots.rules
  const toBytes: unknown = typeof robots === 'object' && robots !== null ? (robots as { toBytes?: unknown }).toBytes : undefined
  if (typeof toBytes !== 'function') throw new RobotsInputError(`compactRulesOf takes a Robots, got ${describeValue(robots)}`)
  return new CompactRules(decodeForm(toBytes.call(robots) as Uint8Array, 'compactRulesOf'))
}
