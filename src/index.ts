/**
 * robots-automaton: the Robots Exclusion Protocol (RFC 9309) with the answers
 * of google/robotstxt, compiled per crawler into a lazy byte-level DFA.
 *
 * Browser-safe core entry: no Node built-ins.
 */
export { parseRobots, Robots, type ParseOptions, type ReadInfo } from './robots.js'
export { parseRobotsStream, type ByteSource } from './stream.js'
export { AgentMatcher, type Explanation, type RuleRef, type MatchEngine } from './agent-matcher.js'
export type { RuleSet } from './rule-set.js'
export type { EngineOptions } from './engine.js'
export { DIAGNOSTICS, type Diagnostic, type DiagnosticCode, type Severity } from './diagnostics.js'
export type { RequestRate, VisitTime } from './group-extensions.js'
export { MAX_CRAWL_DELAY } from './group-extensions.js'
export { reportLines, lineMetadata, type LineReport, type LineTag, type LineMetadata, type RobotsReport } from './line-report.js'
export { LineFlag, KeyKind, type ParseHandler } from './parse-handler.js'
export { parseInto, parseLine, createParser } from './parser.js'
export { LineReader, DEFAULT_LIMIT, MAX_LINE_BYTES, checkLimit } from './reader.js'
export { isValidProductToken } from './product-token.js'
export { pathOf } from './url-path.js'
export { escapePattern } from './escape.js'
export { referenceDecide, patternMatches, type ReferenceDecision } from './reference-engine.js'
export { FORMAT_VERSION } from './robots-bytes.js'
export { RobotsError, RobotsLimitError, RobotsInputError, RobotsFormatError, type RobotsErrorCode } from './errors.js'
export * from './fetch/index.js'
