/**
 * The interface between the parser and its consumers ({@link ParseHandler},
 * the reference's RobotsParseHandler). Two handlers ship: the rule builder
 * (rules/builder.ts: the compact rules, sitemaps and the diagnostics that
 * `lint` prints) and the per-line reporter (line-report.ts: the reference's
 * RobotsParsingReporter); `parseInto(body, handler)` runs any other.
 */

/**
 * Per-line flags (the reference's LineMetadata), as bits of one integer. An
 * enum, not an object, so that the bundler writes each value in place (so
 * does {@link KeyKind}).
 */
export enum LineFlag {
  /** The line is empty (or whitespace) and has no comment. */
  isEmpty = 1,
  /** The line has a `#` comment. */
  hasComment = 2,
  /** The line is only a comment. */
  isComment = 4,
  /** The line has a key and a value (a directive, known or not). */
  hasDirective = 8,
  /** The key is an accepted typo (`useragent`, `dissallow`, `site-map`, ...). */
  isAcceptableTypo = 16,
  /** The line was longer than the reference keeps (16,663 bytes). */
  isLineTooLong = 32,
  /** Key and value were separated by whitespace, not a colon. */
  isMissingColonSeparator = 64,
  /** Beyond the reference: the line holds a control byte (below 0x20 except tab, or 0x7F). */
  hasControl = 128,
  /** Beyond the reference: the line holds a byte >= 0x80. */
  hasNonAscii = 256,
  /** Beyond the reference: the line holds a `$`. */
  hasDollar = 512,
}

/**
 * The key a directive line was read as (`classifyKey`'s result): a kind, plus
 * {@link KeyKind.TypoFlag} when the key was read through an accepted typo.
 * `kind & KeyKind.KindMask` is the kind.
 */
export enum KeyKind {
  UserAgent = 1,
  Allow = 2,
  Disallow = 3,
  Sitemap = 4,
  Unknown = 5,
  /** Bits of the kind. */
  KindMask = 7,
  /** Set when the key is an accepted typo (`useragent`, `dissallow`, `site-map`, ...). */
  TypoFlag = 8,
}

/**
 * Receives one parse, line by line. All methods are called in line order.
 * Values arrive as `bytes[start, end)`: offsets into a buffer that is only
 * valid during the call (no view is made per line; copy what you keep).
 * Allow and disallow patterns (and unknown values) arrive escaped, as in the
 * reference; user-agent and sitemap values arrive raw.
 */
export interface ParseHandler {
  /** A `User-agent:` line (raw value, comment and surrounding whitespace removed). */
  userAgent(line: number, bytes: Uint8Array, start: number, end: number): void
  /** An `Allow:` line (escaped pattern; may be empty). */
  allow(line: number, bytes: Uint8Array, start: number, end: number): void
  /** A `Disallow:` line (escaped pattern; may be empty). */
  disallow(line: number, bytes: Uint8Array, start: number, end: number): void
  /** A `Sitemap:` line (raw value). */
  sitemap(line: number, bytes: Uint8Array, start: number, end: number): void
  /** Any other `key: value` line: the key is `keyBytes[keyStart, keyEnd)`, the escaped value `bytes[start, end)`. */
  unknown(line: number, keyBytes: Uint8Array, keyStart: number, keyEnd: number, bytes: Uint8Array, start: number, end: number): void
  /**
   * Called once for every physical line after its directive (if any), with the
   * {@link LineFlag} bits; the line's bytes as read (cut at 16,663 bytes) are
   * `bytes[start, end)` (offsets, so that no view is made per line).
   */
  lineEnd?(line: number, flags: number, bytes: Uint8Array, start: number, end: number): void
}
