/**
 * Which `Sitemap:` values are kept: absolute http(s) URLs, read as UTF-8
 * (invalid sequences replaced), that start `http(s)://` and a host and that
 * the WHATWG URL parser accepts. The usual value (an ASCII host of letters,
 * digits, dots and dashes whose last label starts with a letter, no port,
 * no user info, no `xn--` label) is accepted from its bytes; the URL parser
 * is asked only about the others.
 */
import { utf8Text } from '../parse/escape.js'

/** The kept-sitemap rule on a string (the slow path, and the definition). */
export function isSitemapText(text: string): boolean {
  if (!/^https?:\/\/[^\s/?#]/i.test(text)) return false
  try {
    new URL(text)
    return true
  } catch {
    return false
  }
}

/** True when the sitemap value `b[start, end)` is kept (see the module comment). */
export function isSitemapUrl(b: Uint8Array, start: number, end: number): boolean {
  const fast = fastSitemap(b, start, end)
  if (fast) return true
  return isSitemapText(utf8Text(b.subarray(start, end)))
}

function lower(c: number): number {
  return c >= 65 && c <= 90 ? c + 32 : c
}

/** The fast accept: true only for values the URL parser certainly accepts. */
function fastSitemap(b: Uint8Array, start: number, end: number): boolean {
  // "http://" or "https://", any case.
  if (end - start < 8 || lower(b[start]) !== 104 || lower(b[start + 1]) !== 116 || lower(b[start + 2]) !== 116 || lower(b[start + 3]) !== 112) {
    return false
  }
  let i = start + 4
  if (lower(b[i]) === 115) i++
  if (b[i] !== 58 || b[i + 1] !== 47 || b[i + 2] !== 47) return false
  i += 3
  const hostStart = i
  let labelStart = i
  for (; i < end; i++) {
    const c = b[i]
    if (c === 46) {
      labelStart = i + 1
      continue
    }
    const letter = (c >= 97 && c <= 122) || (c >= 65 && c <= 90)
    if (!(letter || (c >= 48 && c <= 57) || c === 45)) break
    // An "xn--" label goes through punycode validation: leave it to the URL parser.
    if (c === 45 && i === labelStart + 3 && b[i - 1] === 45 && lower(b[labelStart]) === 120 && lower(b[labelStart + 1]) === 110) return false
  }
  if (i === hostStart) return false
  // The host must end its URL part: the path, query, fragment or the end (no port, no user info).
  if (i < end && b[i] !== 47 && b[i] !== 63 && b[i] !== 35) return false
  // A last label that starts with a letter is not a number: the host is not read as IPv4.
  if (labelStart >= i) return false
  const c = b[labelStart]
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90)
}
