/**
 * Directive keys, as the reference's ParsedRobotsKey::Parse reads them:
 * case-insensitively, by prefix, with its accepted typos; and the fast
 * check for a key spelled out in full and followed by its colon, which
 * most lines are.
 */
import { KeyKind } from './handler.js'

/** Keys the reference reports as "Unused": known, but carrying no access rule. */
export const UNUSED_KEYS: ReadonlySet<string> = new Set([
  'clean-param', 'content-signal', 'content-usage', 'crawl-delay', 'domain', 'host', 'noarchive',
  'nofollow', 'noindex', 'request-rate', 'revisit-after', 'visit-time',
])

function startsWithLower(s: Uint8Array, from: number, to: number, word: string): boolean {
  const n = word.length
  if (to - from < n) return false
  for (let i = 0; i < n; i++) {
    let c = s[from + i]
    if (c >= 65 && c <= 90) c += 32
    if (c !== word.charCodeAt(i)) return false
  }
  return true
}

/**
 * Classifies a key like the reference's ParsedRobotsKey::Parse.
 * Returns a {@link KeyKind}, with `KeyKind.TypoFlag` set when the key was
 * read through an accepted typo.
 */
export function classifyKey(s: Uint8Array, from: number, to: number): number {
  // Dispatch on the first letter: one or two comparisons for the usual keys.
  switch (s[from] | 32) {
    case 117: // u
      if (startsWithLower(s, from, to, 'user-agent')) return KeyKind.UserAgent
      if (startsWithLower(s, from, to, 'useragent') || startsWithLower(s, from, to, 'user agent')) return KeyKind.UserAgent | KeyKind.TypoFlag
      return KeyKind.Unknown
    case 97: // a
      return startsWithLower(s, from, to, 'allow') ? KeyKind.Allow : KeyKind.Unknown
    case 100: // d
      if (startsWithLower(s, from, to, 'disallow')) return KeyKind.Disallow
      for (const typo of DISALLOW_TYPOS) if (startsWithLower(s, from, to, typo)) return KeyKind.Disallow | KeyKind.TypoFlag
      return KeyKind.Unknown
    case 115: // s
      if (startsWithLower(s, from, to, 'sitemap')) return KeyKind.Sitemap
      if (startsWithLower(s, from, to, 'site-map')) return KeyKind.Sitemap | KeyKind.TypoFlag
      return KeyKind.Unknown
    default:
      return KeyKind.Unknown
  }
}

/**
 * Four bytes at `at`, little-endian, with 0x20 set in each (ASCII letters
 * lowercased), as a signed int32: compared with {@link word4}'s values in
 * int32 arithmetic (an unsigned result above 2^31 would be a double).
 */
function lower4(s: Uint8Array, at: number): number {
  return s[at] | (s[at + 1] << 8) | (s[at + 2] << 16) | (s[at + 3] << 24) | 0x20202020
}

/** `word` (4 chars) as {@link lower4} reads it (a signed int32). */
function word4(word: string): number {
  return word.charCodeAt(0) | (word.charCodeAt(1) << 8) | (word.charCodeAt(2) << 16) | (word.charCodeAt(3) << 24)
}

const DISA = word4('disa')
const LLOW = word4('llow')
const ALLO = word4('allo')
const USER = word4('user')
const _AGE = word4('-age')
const SITE = word4('site')
const MAP_ = word4('map:')

/** Length of the key of each KeyKind when spelled out (see {@link spelledKey}). */
export const KEY_LENGTH = [0, 10, 5, 8, 7, 0]

/**
 * The kind of the line `s[from, to)` when it starts with `disallow`,
 * `allow`, `user-agent` or `sitemap` (any case) right followed by `:`, else
 * KeyKind.Unknown (then the general path finds the key). Comparing with
 * 0x20 set in every byte is exact here: a line holds no CR, the only other
 * byte that maps onto `-`.
 */
export function spelledKey(s: Uint8Array, from: number, to: number): number {
  const n = to - from
  if (n < 6) return KeyKind.Unknown
  const w = lower4(s, from)
  if (w === DISA) return n > 8 && lower4(s, from + 4) === LLOW && s[from + 8] === 58 ? KeyKind.Disallow : KeyKind.Unknown
  if (w === ALLO) return (s[from + 4] | 0x20) === 119 && s[from + 5] === 58 ? KeyKind.Allow : KeyKind.Unknown
  if (w === USER) {
    return n > 10 && lower4(s, from + 4) === _AGE && (s[from + 8] | 0x20) === 110 && (s[from + 9] | 0x20) === 116 && s[from + 10] === 58
      ? KeyKind.UserAgent
      : KeyKind.Unknown
  }
  if (w === SITE) return n > 7 && (lower4(s, from + 4) & 0xffffff) === (MAP_ & 0xffffff) && s[from + 7] === 58 ? KeyKind.Sitemap : KeyKind.Unknown
  return KeyKind.Unknown
}

/** The misspellings of `disallow` the reference accepts. */
const DISALLOW_TYPOS = ['dissallow', 'dissalow', 'disalow', 'diasllow', 'disallaw'] as const

