/**
 * Product tokens (user-agent names), as the reference reads them. In a
 * robots.txt `User-agent:` value only the leading run of `[A-Za-z_-]` is the
 * name (`Googlebot/2.1` names `Googlebot`, `MJ12bot` names `MJ`). The
 * crawler's own token is compared whole and ASCII-case-insensitively, so a
 * token outside that alphabet (`MJ12bot`) never names a group, as in the
 * reference.
 */

import { describeValue, RobotsInputError } from '../errors.js'

function isTokenByte(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 45 || c === 95
}

/** Length of the leading `[A-Za-z_-]` run of `bytes[start, end)` (default: all of `bytes`). */
export function productTokenLength(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let i = start
  while (i < end && isTokenByte(bytes[i])) i++
  return i - start
}

/** The reference's IsValidUserAgentToObey: non-empty and only `[A-Za-z_-]`. */
export function isValidProductToken(token: string): boolean {
  if (typeof token !== 'string') throw new RobotsInputError(`isValidProductToken takes a string, got ${describeValue(token)}`)
  if (token.length === 0) return false
  for (let i = 0; i < token.length; i++) if (!isTokenByte(token.charCodeAt(i))) return false
  return true
}

/** ASCII-only lowercase (the reference's EqualsIgnoreCase folds ASCII letters only). */
export function asciiLower(s: string): string {
  let out = ''
  let changed = false
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c >= 65 && c <= 90) {
      changed = true
      break
    }
  }
  if (!changed) return s
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    out += c >= 65 && c <= 90 ? String.fromCharCode(c + 32) : s[i]
  }
  return out
}
