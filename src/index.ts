/**
 * robots-automaton: the Robots Exclusion Protocol (RFC 9309) with the answers
 * of google/robotstxt, compiled per crawler into a lazy byte-level DFA.
 *
 * Browser-safe core entry: no Node built-ins.
 */
export { parseRobots, Robots, type ParseOptions, type ReadInfo } from './robots.js'
export { parseRobotsStream, type ByteSource, type StreamParseOptions } from './stream.js'
export { AgentMatcher, type Explanation, type RuleRef, type MatchEngine } from './match/matcher.js'
export type { RuleSet } from './rules/rule-set.js'
export type { EngineOptions } from './match/engine.js'
export { DIAGNOSTICS, type Diagnostic, type DiagnosticCode, type Severity } from './rules/diagnostics.js'
export type { RequestRate, VisitTime } from './rules/extensions.js'
export { MAX_CRAWL_DELAY } from './rules/extensions.js'
export { reportLines, lineMetadata, type LineReport, type LineTag, type LineMetadata, type RobotsReport } from './parse/line-report.js'
export { LineFlag, KeyKind, type ParseHandler } from './parse/handler.js'
export { parseInto, parseLine, createParser } from './parse/parser.js'
export { LineReader, DEFAULT_LIMIT, MAX_LINE_BYTES, checkLimit } from './parse/reader.js'
export { isValidProductToken } from './parse/product-token.js'
export { productTokens } from './parse/user-agent.js'
export { pathOf } from './match/url-path.js'
export { escapePattern } from './parse/escape.js'
export { referenceDecide, patternMatches, type ReferenceDecision } from './match/reference-engine.js'
export { FORMAT_VERSION } from './rules/serialise.js'
export * from './store/index.js'
export { RobotsError, RobotsInputError, RobotsRangeError, RobotsLimitError, RobotsFormatError, type RobotsErrorCode } from './errors.js'
export * from './fetch/index.js'
