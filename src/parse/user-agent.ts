/**
 * From a User-Agent header to the product token(s) a robots.txt names
 * ({@link productTokens}, where the exact rule is written). Crawlers send a
 * full header, but robots.txt groups and the reference's matcher use the bare
 * product token (`Googlebot`), compared whole: `agent('Googlebot/2.1')` names
 * no `Googlebot` group. This is the extraction callers otherwise get wrong.
 */
import { describeValue, RobotsInputError } from '../errors.js'

/**
 * Names that browsers and their platforms send and no crawler is known by
 * (lowercase; compared ASCII-case-insensitively): never returned as tokens.
 */
export const NOT_CRAWLER_PRODUCTS: ReadonlySet<string> = new Set([
  // browsers and engines
  'mozilla', 'docomo', 'applewebkit', 'webkit', 'khtml', 'gecko', 'like', 'compatible',
  'chrome', 'chromium', 'crios', 'safari', 'mobile', 'version', 'firefox', 'fxios',
  'edg', 'edge', 'edga', 'edgios', 'opr', 'opera', 'presto', 'trident', 'msie', 'iemobile',
  'build', 'samsungbrowser', 'ucbrowser', 'yabrowser', 'silk', 'vivaldi',
  // platforms
  'windows', 'linux', 'x11', 'macintosh', 'iphone', 'ipad', 'ipod', 'android', 'cpu', 'intel',
  'u', 'wow64', 'win64', 'x64', 'ubuntu', 'fedora', 'cros', 'mac', 'touch', 'arm',
])

/** A product word: a name starting with a letter, an optional `/version`. */
const PRODUCT = /^([A-Za-z][A-Za-z0-9_.-]*)(\/\S*)?$/

interface Product {
  name: string
  versioned: boolean
}

/** One element of the header: a product word outside comments, or a comment's items. */
type Element = { kind: 'product'; word: string } | { kind: 'comment'; items: string[] }

/** Splits a header into top-level words and comments (nested parentheses stay inside their comment). */
function elements(header: string): Element[] {
  const out: Element[] = []
  let word = ''
  let comment = ''
  let depth = 0
  const flushWord = (): void => {
    if (word) out.push({ kind: 'product', word })
    word = ''
  }
  for (let i = 0; i < header.length; i++) {
    const ch = header[i]
    if (depth > 0) {
      if (ch === '(') depth++
      else if (ch === ')' && --depth === 0) {
        out.push({ kind: 'comment', items: comment.split(';').map((s) => s.trim()).filter(Boolean) })
        comment = ''
        continue
      }
      comment += ch
    } else if (ch === '(') {
      flushWord()
      depth = 1
    } else if (ch === ' ' || ch === '\t' || ch === ';' || ch === ',') {
      flushWord()
    } else {
      word += ch
    }
  }
  flushWord()
  if (depth > 0) out.push({ kind: 'comment', items: comment.split(';').map((s) => s.trim()).filter(Boolean) })
  return out
}

/** The product of one word, or null. */
function productOf(word: string): Product | null {
  const m = PRODUCT.exec(word)
  if (!m) return null
  return { name: m[1], versioned: m[2] !== undefined }
}

/**
 * The products of a comment item: the item when it is one word; else its
 * versioned words, and its first word when `firstWord` (after `compatible`).
 */
function itemProducts(item: string, firstWord: boolean): Product[] {
  const words = item.split(/\s+/)
  const out: Product[] = []
  for (let i = 0; i < words.length; i++) {
    const p = productOf(words[i])
    const named = words.length === 1 || (firstWord && i === 0)
    if (p && (p.versioned || named)) out.push(p)
  }
  return out
}

function isBrowser(name: string): boolean {
  return NOT_CRAWLER_PRODUCTS.has(name.toLowerCase())
}

/**
 * The product tokens of a User-Agent header, most specific first. A bare
 * token (`Googlebot`) or a token with a version (`Googlebot/2.1`) gives
 * itself without the version.
 *
 * The header is read as RFC 9110 §10.1.5 writes it: products
 * (`name[/version]`) separated by whitespace, in decreasing order of
 * significance, and parenthesised comments whose items are separated by `;`.
 * A product's token is its name without the `/version`; a name starts with a
 * letter and holds letters, digits, `_`, `-` and `.`. Browser and platform
 * names (`Mozilla`, `AppleWebKit`, `Chrome`, `Safari`, `Windows`, `Build`,
 * …: `NOT_CRAWLER_PRODUCTS`) are never tokens: a crawler that imitates a
 * browser names itself elsewhere. The tokens, most specific first:
 *
 * 1. the header's first product (`Googlebot-Image/1.0` → `Googlebot-Image`,
 *    `LinkedInBot/1.0 (compatible; Mozilla/5.0; …)` → `LinkedInBot`);
 * 2. the products named after the item `compatible` of a comment (the
 *    convention of crawlers that imitate a browser): an item that is one
 *    word (`Googlebot/2.1`, `AdsBot-Google-Mobile`), or the first word and
 *    the versioned words of an item of several (`Exabot PyExalead/3.0`);
 * 3. the header's other products (`… Safari/537.36 ClaudeBot/1.0`);
 * 4. the versioned products of other comments (`(X11; Linux x86_64;
 *    Storebot-Google/1.0)`).
 *
 * Each token appears once (the first spelling of ASCII-case-insensitive
 * duplicates). A browser's own header gives no token. On the crawler
 * headers of the crawler-user-agents list the first token is the listed
 * crawler's name for nearly every header that carries that name as a
 * product (test/parse/user-agent.test.ts holds the rate to its floor).
 *
 * Examples:
 * - `Googlebot` → `['Googlebot']`; `Googlebot/2.1` → `['Googlebot']`
 * - `Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)` → `['bingbot']`
 * - `Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Googlebot/2.1;
 *   +http://www.google.com/bot.html) Chrome/120.0.0.0 Safari/537.36` → `['Googlebot']`
 * - `Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/)` → `['MJ12bot']`
 *   (a token with a digit: as in the reference it names no group, since
 *   robots.txt names stop at the first character outside `[A-Za-z_-]`)
 * - `Mozilla/5.0 (Windows NT 10.0; Win64; x64) … Chrome/120.0 Safari/537.36` → `[]`
 */
export function productTokens(header: string): string[] {
  if (typeof header !== 'string') throw new RobotsInputError(`productTokens() takes a User-Agent header string, got ${describeValue(header)}`)
  const els = elements(header)
  const lead: string[] = []
  const compatible: string[] = []
  const rest: string[] = []
  const others: string[] = []
  let first = true
  for (const el of els) {
    if (el.kind === 'product') {
      const p = productOf(el.word)
      const wasFirst = first
      first = false
      if (!p || isBrowser(p.name)) continue
      ;(wasFirst ? lead : rest).push(p.name)
      continue
    }
    first = false
    const at = el.items.findIndex((item) => item.toLowerCase() === 'compatible')
    el.items.forEach((item, i) => {
      const afterCompatible = at >= 0 && i > at
      for (const p of itemProducts(item, afterCompatible)) {
        if (isBrowser(p.name)) continue
        if (afterCompatible) compatible.push(p.name)
        else if (p.versioned) others.push(p.name)
      }
    })
  }
  const seen = new Set<string>()
  const out: string[] = []
  for (const name of [...lead, ...compatible, ...rest, ...others]) {
    const key = name.toLowerCase()
    if (seen.has(key)) continue
    seen.add(key)
    out.push(name)
  }
  return out
}
