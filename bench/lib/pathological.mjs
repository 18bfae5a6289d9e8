// Pathological robots.txt files and URLs, generated in code (deterministic:
// the seeded PRNG of test/support/prng.mjs), for bench/worst-case.mjs:
//
//   import { pathologicalFiles, pathologicalUrl } from '../bench/lib/pathological.mjs'
//   for (const f of pathologicalFiles()) { const m = parseRobots(f.body).agent('Googlebot'); m.isAllowed(f.url(8192)) }
//
// No Node built-ins: importable from any runtime.
//
// Every file comes with `url(length, seed)`, a full URL of exactly `length`
// bytes (ASCII) drawn from the file's own alphabet, so that rule positions
// stay live for the whole URL (the worst case: the scan never ends early on a
// terminal state). Each file also carries rules that cannot complete on such
// URLs (a final letter the URLs never contain, or `$`), so no verdict is
// reached before the end of the URL.

import { prng } from '../../test/support/prng.mjs'

export { prng }

function pick(rand, s) {
  return s[Math.floor(rand() * s.length)]
}

function randomString(rand, alphabet, n) {
  let out = ''
  for (let i = 0; i < n; i++) out += pick(rand, alphabet)
  return out
}

const ORIGIN = 'https://example.com'

/**
 * A full URL of exactly `length` bytes: ORIGIN + '/' + `head` (if given) +
 * random characters from `alphabet`.
 */
export function pathologicalUrl(length, { alphabet = 'abcdefgh', head = '', seed = 1 } = {}) {
  const rand = prng(seed)
  const prefix = ORIGIN + '/' + head
  if (length < prefix.length) throw new RangeError(`URL length ${length} is below its prefix length ${prefix.length}`)
  return prefix + randomString(rand, alphabet, length - prefix.length)
}

function file(name, description, lines, urlOptions) {
  const body = lines.join('\n') + '\n'
  return {
    name,
    description,
    body,
    bytes: body.length, // ASCII only
    rules: lines.filter((l) => /^(allow|disallow):/i.test(l)).length,
    urlOptions,
    url: (length, seed = 1) => pathologicalUrl(length, { ...urlOptions, seed }),
  }
}

/**
 * Thousands of `*`-heavy rules: `Disallow: /*a*b*c*d...` variants over the
 * letters a–h, a quarter ending in `$`, a quarter ending in `*z` (z never
 * occurs in the URLs, so these stay live to the end), some Allow rules. The
 * position sets reached on random a–h URLs are many: the DFA keeps building
 * new states (and flushing its cache at the default budget).
 */
export function starHeavy(count = 3000, seed = 11) {
  const rand = prng(seed)
  const lines = ['User-agent: *']
  for (let i = 0; i < count; i++) {
    const k = 4 + Math.floor(rand() * 9) // 4..12 letters
    let p = '/*' + Array.from({ length: k }, () => pick(rand, 'abcdefgh')).join('*')
    const tail = i % 4
    if (tail === 1) p += '$'
    else if (tail === 2) p += '*z'
    else if (tail === 3) p += '*' // a trailing star: same as none, but another position
    lines.push(`${i % 7 === 0 ? 'Allow' : 'Disallow'}: ${p}`)
  }
  return file('star-heavy', `${count} rules like /*a*b*c*d*... (4-12 stars; $, *z endings)`, lines, { alphabet: 'abcdefgh' })
}

/**
 * 20,000 distinct rules (about 420 KB, under the 500 KiB limit): random
 * paths over `abcd/` of 6–18 bytes, one in
 * five with a `*` somewhere, one in ten with a final `$`.
 */
export function distinctRules(count = 20000, seed = 22) {
  const rand = prng(seed)
  const seen = new Set()
  const lines = ['User-agent: Googlebot']
  while (seen.size < count) {
    let p = '/' + randomString(rand, 'abcd/', 5 + Math.floor(rand() * 13))
    const r = rand()
    if (r < 0.2) {
      const at = 1 + Math.floor(rand() * (p.length - 1))
      p = p.slice(0, at) + '*' + p.slice(at)
    }
    if (rand() < 0.1) p += '$'
    if (seen.has(p)) continue
    seen.add(p)
    lines.push(`${rand() < 0.3 ? 'Allow' : 'Disallow'}: ${p}`)
  }
  return file('distinct-20k', `${count} distinct rules over abcd/ (20% with *, 10% with $)`, lines, { alphabet: 'abcd/' })
}

/**
 * Rules sharing a long prefix: `Disallow: /<prefix><suffix i>`, the prefix
 * `prefixLength` random letters, the suffixes distinct; the URLs start with
 * the prefix, so every rule is live across it (one position per rule per
 * byte), then a random tail over the suffix alphabet. 2,000 rules of 200
 * bytes make about 420 KB (under the 500 KiB limit).
 */
export function sharedPrefix(count = 2000, prefixLength = 200, seed = 33) {
  const rand = prng(seed)
  const prefix = randomString(rand, 'abcdefghijklmnopqrstuvwxyz', prefixLength)
  const lines = ['User-agent: *']
  for (let i = 0; i < count; i++) {
    const suffix = i.toString(36) + (i % 3 === 0 ? '*q' : i % 3 === 1 ? '$' : '')
    lines.push(`Disallow: /${prefix}${suffix}`)
  }
  return file('shared-prefix', `${count} rules with a ${prefixLength}-byte shared prefix`, lines, { alphabet: '0123456789abcdefghijklmnopqrstuvwxyz', head: prefix })
}

/**
 * One rule of 16 KiB: `/*` then segments of 3 random letters over `ab`, each
 * segment after a `*`, ending with `b*z` (z never in the URLs). On random a/b
 * URLs the star threads advance through the segments, so the live position
 * set grows with the URL (up to the rule's length).
 */
export function longRule(length = 16 * 1024, seed = 44) {
  const rand = prng(seed)
  let p = '/'
  while (p.length < length - 4) p += '*' + randomString(rand, 'ab', 3)
  p = (p + '*z').slice(0, length)
  if (!p.endsWith('z')) p = p.slice(0, -1) + 'z'
  const lines = ['User-agent: *', `Disallow: ${p}`, 'Allow: /a']
  return file('rule-16KiB', `one ${length}-byte rule: /*aba*bab*... (star every 4 bytes), never completing`, lines, { alphabet: 'ab' })
}

/**
 * About 400 KB of realistic-looking rules (under the 500 KiB limit): several
 * groups, paths of words, query strings, `*` and `$`, percent-escapes.
 */
export function bigFile(targetBytes = 400_000, seed = 55) {
  const rand = prng(seed)
  const words = ['search', 'cart', 'user', 'api', 'static', 'img', 'page', 'tag', 'id', 'sort', 'q', 'print', 'ajax', 'admin', 'login', 'share', 'feed', 'amp', 'lang', 'ref']
  const lines = []
  let size = 0
  let group = 0
  while (size < targetBytes) {
    if (lines.length % 2000 === 0) {
      const ua = ['*', 'Googlebot', 'Bingbot', 'Googlebot-Image'][group++ % 4]
      lines.push(`User-agent: ${ua}`)
    }
    let p = ''
    const segs = 1 + Math.floor(rand() * 4)
    for (let s = 0; s < segs; s++) p += '/' + (rand() < 0.15 ? '*' : '') + pick(rand, words) + (rand() < 0.3 ? Math.floor(rand() * 1000) : '')
    const r = rand()
    if (r < 0.2) p += '?' + pick(rand, words) + '=' + (rand() < 0.5 ? '*' : Math.floor(rand() * 100))
    else if (r < 0.3) p += '*.' + pick(rand, ['php', 'json', 'xml', 'pdf']) + '$'
    else if (r < 0.35) p += '/%E2%9C%93'
    const line = `${rand() < 0.25 ? 'Allow' : 'Disallow'}: ${p}`
    lines.push(line)
    size += line.length + 1
  }
  return file('file-400KB', `~${Math.round(targetBytes / 1000)} KB of mixed rules in several groups`, lines, {
    alphabet: 'abcdefghijklmnopqrstuvwxyz0123456789/?=&.-_',
  })
}

/** Every pathological file, in report order. */
export function pathologicalFiles() {
  return [starHeavy(), distinctRules(), sharedPrefix(), longRule(), bigFile()]
}

/** URL lengths of the worst-case workload. */
export const URL_LENGTHS = [8 * 1024, 64 * 1024]

// ---- Hostile rule sets (issue 13): files that defeat the lazy DFA's cache ----

const SIXTEEN = 'abcdefghijklmnop'

/**
 * The hostile family of issue 13: `rules` lines `Disallow: /*abcd` (4
 * random letters of 16; with `dollar`, `/*abcd$`), about 510 KB for 30,000,
 * and URLs of `urlLength` bytes (118 in the issue) over the same letters.
 * Every URL byte reaches a new DFA state of thousands of positions.
 * With `z`, the issue's own spelling `Disallow:/*abcdz` (no space; a final
 * `z` the URLs never hold): no rule ever matches, so every rule stays live
 * to the end of every URL and every URL is allowed.
 */
export function hostile({ rules = 30000, dollar = false, z = false, urlLength = 118, seed = 66 } = {}) {
  const rand = prng(seed)
  const lines = ['User-agent: *']
  const head = z ? 'Disallow:/*' : 'Disallow: /*'
  const tail = (z ? 'z' : '') + (dollar ? '$' : '')
  for (let i = 0; i < rules; i++) lines.push(`${head}${randomString(rand, SIXTEEN, 4)}${tail}`)
  const name = 'hostile' + (z ? '-z' : '') + (dollar ? '-$' : '')
  const f = file(name, `${rules} rules ${head.slice(0, -2)}/*abcd${tail} (4 letters of 16)`, lines, { alphabet: SIXTEEN })
  return { ...f, urlLength }
}

/**
 * Segments that occur everywhere: `Disallow: /*x*y*z` with x, y, z of one
 * or two letters of `abcd`, every other rule ending in `$`, and URLs over
 * `abcd`: every rule's segments occur in every URL, so the thrash-proof
 * index finds every rule a candidate (the `$` rules then fail on their
 * suffix).
 */
export function everywhere({ rules = 16000, urlLength = 118, seed = 77 } = {}) {
  const rand = prng(seed)
  const seg = () => randomString(rand, 'abcd', 1 + Math.floor(rand() * 2))
  const lines = ['User-agent: *']
  for (let i = 0; i < rules; i++) lines.push(`Disallow: /*${seg()}*${seg()}*${seg()}${i % 2 ? '$' : ''}`)
  const f = file('everywhere', `${rules} rules /*x*y*z (segments of abcd, half with $)`, lines, { alphabet: 'abcd' })
  return { ...f, urlLength }
}

/**
 * Long segments, the worst case of a plain substring search: `Disallow:
 * /*a…ab*a` with 100 to 499 `a`s, and URLs of `urlLength` bytes that are
 * `a`s and a final `b`: each rule's long segment occurs (at the end), is
 * searched for from the start (almost matching at every position), and the
 * rule then fails (no `a` after the `b`).
 */
export function longSegments({ rules = 400, urlLength = 8192 } = {}) {
  const lines = ['User-agent: *']
  for (let i = 0; i < rules; i++) lines.push(`Disallow: /*${'a'.repeat(100 + i)}b*a`)
  const body = lines.join('\n') + '\n'
  return {
    name: 'long-segments',
    description: `${rules} rules /*a{100..${99 + rules}}b*a, URLs of a…ab`,
    body,
    bytes: body.length,
    rules,
    urlLength,
    url: (length) => {
      const prefix = ORIGIN + '/'
      return prefix + 'a'.repeat(length - prefix.length - 1) + 'b'
    },
  }
}

/** The hostile families of bench/worst-case.mjs, in report order. */
export function hostileFiles() {
  return [hostile(), hostile({ z: true }), hostile({ dollar: true, rules: 28000 }), everywhere(), longSegments(), { ...distinctRules(), urlLength: 8192 }]
}
