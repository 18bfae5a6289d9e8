/**
 * The reference's per-line report (RobotsParsingReporter): for every physical
 * line, the tag it was read as and its metadata flags; plus the counts of
 * RobotsStatsReporter. A consumer of the same parse as everything else.
 */
import { latin1 } from './escape.js'
import { LineFlag, type ParseHandler } from './handler.js'
import { parseWith } from './parser.js'
import { asciiLower } from './product-token.js'
import { UNUSED_KEYS } from './keys.js'
import { describeValue, optionsArgument, RobotsInputError } from '../errors.js'

/** Tag of a line, as the reference names it. */
export type LineTag = 'Unknown' | 'UserAgent' | 'Allow' | 'Disallow' | 'Sitemap' | 'Unused'

/** The reference's LineMetadata. */
export interface LineMetadata {
  isEmpty: boolean
  hasComment: boolean
  isComment: boolean
  hasDirective: boolean
  isAcceptableTypo: boolean
  isLineTooLong: boolean
  isMissingColonSeparator: boolean
}

/** One physical line of the report. */
export interface LineReport {
  line: number
  tag: LineTag
  isTypo: boolean
  metadata: LineMetadata
}

/** The whole report of one body. */
export interface RobotsReport {
  lines: LineReport[]
  /** User-agent, allow, disallow and sitemap lines. */
  validDirectives: number
  /** Lines with a key that is none of those. */
  unknownDirectives: number
  /** Number of the last physical line (the empty one after a final newline included). */
  lastLineSeen: number
  /** Number of the last line that had a key (RobotsStatsReporter's last_line_seen). */
  lastDirectiveLine: number
  /** Sitemap values, in file order, as written. */
  sitemaps: string[]
  truncated: boolean
}

/** Decodes {@link LineFlag} bits. */
export function lineMetadata(flags: number): LineMetadata {
  if (typeof flags !== 'number') throw new RobotsInputError(`lineMetadata takes LineFlag bits (a number), got ${describeValue(flags)}`)
  return {
    isEmpty: (flags & LineFlag.isEmpty) !== 0,
    hasComment: (flags & LineFlag.hasComment) !== 0,
    isComment: (flags & LineFlag.isComment) !== 0,
    hasDirective: (flags & LineFlag.hasDirective) !== 0,
    isAcceptableTypo: (flags & LineFlag.isAcceptableTypo) !== 0,
    isLineTooLong: (flags & LineFlag.isLineTooLong) !== 0,
    isMissingColonSeparator: (flags & LineFlag.isMissingColonSeparator) !== 0,
  }
}

const utf8 = new TextDecoder()

class Reporter implements ParseHandler {
  lines: LineReport[] = []
  valid = 0
  unknownCount = 0
  sitemaps: string[] = []
  private tag: LineTag = 'Unknown'
  userAgent(): void {
    this.tag = 'UserAgent'
    this.valid++
  }
  allow(): void {
    this.tag = 'Allow'
    this.valid++
  }
  disallow(): void {
    this.tag = 'Disallow'
    this.valid++
  }
  sitemap(_line: number, bytes: Uint8Array, start: number, end: number): void {
    this.tag = 'Sitemap'
    this.valid++
    this.sitemaps.push(utf8.decode(bytes.subarray(start, end)))
  }
  unknown(_line: number, keyBytes: Uint8Array, keyStart: number, keyEnd: number): void {
    this.tag = UNUSED_KEYS.has(asciiLower(latin1(keyBytes.subarray(keyStart, keyEnd)))) ? 'Unused' : 'Unknown'
    this.unknownCount++
  }
  lastDirectiveLine = 0
  lineEnd(line: number, flags: number): void {
    if (flags & LineFlag.hasDirective) this.lastDirectiveLine = line
    this.lines.push({ line, tag: this.tag, isTypo: (flags & LineFlag.isAcceptableTypo) !== 0, metadata: lineMetadata(flags) })
    this.tag = 'Unknown'
  }
}

/** The per-line report of a body (as the reference's RobotsParsingReporter sees it). Arguments as for `parseRobots`. */
export function reportLines(input: string | Uint8Array, options: { limit?: number } = {}): RobotsReport {
  const { limit } = optionsArgument<{ limit?: number }>(options, 'reportLines')
  const reporter = new Reporter()
  const reader = parseWith(input, reporter, limit)
  return {
    lines: reporter.lines,
    validDirectives: reporter.valid,
    unknownDirectives: reporter.unknownCount,
    lastLineSeen: reader.lineCount,
    lastDirectiveLine: reporter.lastDirectiveLine,
    sitemaps: reporter.sitemaps,
    truncated: reader.truncated,
  }
}
