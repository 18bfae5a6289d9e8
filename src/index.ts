/**
 * robots-automaton: the Robots Exclusion Protocol (RFC 9309) with the answers
 * of google/robotstxt, compiled per crawler into a lazy byte-level DFA. The
 * core entry, browser-safe (no Node built-ins): what users need and nothing
 * else (test/public-api.test.ts lists every name). Parser internals and the
 * reference engine: `robots-automaton/internals`, without stability guarantee.
 * @module robots-automaton
 */

// Parsing: a body, a stream; options and their limits.
export { parseRobots, Robots, type ParseOptions } from './robots/robots.js'
export { parseRobotsStream, type ByteSource, type StreamParseOptions } from './robots/stream.js'
export { DEFAULT_LIMIT } from './parse/reader.js'

// Matching: a crawler's matcher, its answers and figures, its options.
export { AgentMatcher, type Explanation, type RuleRef, type MatcherStats } from './match/matcher.js'
export type { EngineStats } from './match/engine.js'
export type { EngineOptions } from './match/engine-options.js'
export { DEFAULT_MATCHER_BUDGET } from './match/automaton/lazy-dfa.js'
export { ruleText, type RuleText } from './match/rule-text.js'

// Several crawlers judged together, each with its own verdict and line; what each may fetch of a site.
export { CrawlerSet, type Crawler, type CrawlerAccess, type CrawlerVerdict, type AccessGroup } from './robots/crawler-set.js'
export type { AccessClass } from './match/access.js'

// Batch judging straight from byte buffers: a URL's scan (matcher.matchScan,
// store.lookupScan, store.lookupHost read it), and the line convention of matchLines.
export { UrlScan } from './url/url-scan-record.js'
export { canonicalHost } from './url/host.js'
export { checkedLineEnd as lineEnd, checkedUrlEnd as urlEnd } from './match/lines.js'

// What a file says beyond its rules: diagnostics, extensions, the per-line report.
export { DIAGNOSTICS, type Diagnostic, type DiagnosticCode, type DiagnosticTotals, type Severity } from './rules/diagnostics.js'
export { MAX_CRAWL_DELAY, type RequestRate, type VisitTime } from './rules/extensions.js'
export { reportLines, type LineReport, type LineTag, type LineMetadata, type RobotsReport } from './parse/line-report.js'

// Helpers: user-agent headers and tokens, URL paths, patterns.
export { isValidProductToken } from './parse/product-token.js'
export { productTokens } from './parse/user-agent.js'
export { pathOf } from './url/url-path.js'
export { escapePattern } from './parse/escape.js'

// Serialisation (Robots.toBytes / fromBytes), the store and its bundles.
export { FORMAT_VERSION } from './rules/serialise.js'
export {
  RobotsStore,
  DEFAULT_STORE_MATCHER_BUDGET,
  type RobotsStoreOptions,
  type RobotsStoreStats,
  type StoreExplanation,
  type StoreOutcome,
  type StoreSource,
  type EntryId,
} from './store/robots-store.js'
export { BUNDLE_VERSION } from './store/bundle-codec.js'
export { StoreCrawlers, type StoreCrawlerExplanation } from './store/store-crawlers.js'
export { BundleWriter, type BundleEntryKind, type BundleChecksum } from './store/bundle-writer.js'
export type { StoreFetchInfo } from './store/fetch-info.js'

// Errors: one tree rooted in RobotsError, each with a code.
export { RobotsError, RobotsInputError, RobotsRangeError, RobotsLimitError, RobotsFormatError, type RobotsErrorCode } from './errors.js'

// The access method (RFC 9309 §2.3) and a per-origin cache (§2.4).
export { fetchRobots, MAX_TIMEOUT_MS } from './fetch/fetch-robots.js'
export type { FetchLike, FetchRobotsOptions, PreviousFetch } from './fetch/options.js'
export type { RobotsTransport, TransportRequest, TransportResponse } from './fetch/transport.js'
export type { PrivateAddressPolicy } from './fetch/address-policy.js'
export type { FetchValidators } from './fetch/validators.js'
export type { RedirectFilter } from './fetch/redirect-guard.js'
export { classifyHost, type HostClass } from './fetch/address.js'
export type { FetchFailure, FetchOutcome, FetchReason, RedirectHop, RobotsFetchResult } from './fetch/outcome.js'
export {
  RobotsCache,
  type RobotsBasis,
  type RobotsCacheOptions,
  type RobotsCacheStats,
  type RobotsLookup,
} from './fetch/robots-cache.js'
export { robotsLocation, type RobotsLocation } from './fetch/origin.js'
export { describeFetchResult } from './fetch/describe.js'
