/**
 * A warm-up of the per-host path of `filter --robots-dir` and `--bundle`:
 * before the first line, a few built-in robots.txt bodies are parsed with
 * the options of `filter`'s entries, their matchers made for the crawler,
 * their problems looked for, and a few URLs judged from byte scans, as the
 * per-line loop judges them. A fresh process otherwise meets the parser's
 * and the matchers' rarer branches only at some later host, after their
 * code was compiled without them, and compiles it again; with every branch
 * seen once, it is compiled once. Nothing it makes is kept: no answer, no
 * count and no output depends on it.
 */
import { parseRobots, UrlScan } from '../../index.js'
import { bodyProblem } from '../common/body-problems.js'
import { FILTER_MATCHER_OPTIONS, type HostCrawlers } from './host-rules.js'

/** The bodies: the parser's fast and general lines (rules, prose, comments, sitemaps, unknown keys, typos, CRLF, CR, non-ASCII, HTML), and sets of every size the matchers tier by. */
export const WARM_BODIES: readonly string[] = [
  '# robots.txt\nUser-agent: *\nDisallow: /admin/\nDisallow: /search?q=\nAllow: /admin/public/\nDisallow: /*.pdf$\nDisallow: /tmp/ # old\nCrawl-delay: 10\n\nUser-agent: Googlebot/2.1 (+http://www.google.com/bot.html)\nUser-agent: bingbot\nDisallow: /private\nDisallow: /admin/\nAllow: /dir/index.html\nAllow: /index.htm\nAllow:\nDisallow: admin.php\nAllow: /\n\nSitemap: https://example.com/sitemap.xml\nSitemap: /sitemap-2.xml\nSitemap: https://xn--bcher-kva.example/s.xml\nSitemap: http://www.example.com:8080/news-sitemap.xml.gz\n',
  '\ufeffuser-agent: googlebot-news\r\nallow: /news/\r\ndisallow: /\r\n\r\nUSER-AGENT: *\r\nDISALLOW: /cgi-bin/\r\nDisallow:\r\nHost: example.com\r\nNoindex: /x/\r\nDisallow /missing-colon\r\nDissallow: /typo\r\n  # indented comment\r\n\tDisallow: /tab\r\nSitemap:https://example.com/s%20m.xml # map\r\n',
  'User-agent: *\rDisallow: /caf\u00e9/\rDisallow: /%e2%82%ac/\rAllow: /a%2Fb\rDisallow: /*?*sort=\rDisallow: /*/print$\rAllow: /$\rDisallow: /!"$\rRequest-rate: 1/5\rVisit-time: 0600-0845',
  '<!DOCTYPE html>\n<html><head><title>Not Found</title></head>\n<body>The page was not found.\n</body></html>\n',
  `User-agent: Googlebot\n${Array.from({ length: 40 }, (_, k) => `${k % 3 === 0 ? 'Allow' : 'Disallow'}: /${['a', 'bb', 'ccc', 'x*y', 'p/*/q', 'z$'][k % 6]}${k}${k % 4 === 0 ? '*' : ''}\n`).join('')}User-agent: *\nDisallow: /\n`,
  `Disallow: /before-any-group\nUser-agent: other\nDisallow: /${'long/'.repeat(40)}\nUser-agent: *\n${Array.from({ length: 12 }, (_, k) => `Disallow: /*${['.php', '.asp', '?id=', '/old/', '.jpg$', 'print'][k % 6]}${k}*\n`).join('')}`,
  'User-agent: a\nUser-agent:\nUser-agent: *bot\nDisallow: /shared/one\nDisallow: /shared/two\nAllow: /shared/three\n\nUser-agent: Mediapartners-Google*\nUser-agent: googlebot image\nDisallow: /shared/one\nDisallow: /shared/two\nAllow: /shared/three\n',
  '',
]

/** URLs judged by each body's matcher: paths, queries, escapes, non-ASCII, ports, user info. */
export const WARM_URLS: readonly string[] = [
  'https://example.com/',
  'http://example.com/index.html',
  'https://www.example.com/admin/public/page.html?x=1',
  'https://example.com/search?q=robots&page=2',
  'https://example.com/docs/file.pdf',
  'https://example.com/news/2026/12/02/story.html#top',
  'https://example.com:8443/private/a/b/c',
  'http://user@example.com/caf%C3%A9/menu',
  'https://example.com/caf\u00e9/menu',
  'https://example.com/%E2%82%AC/price?sort=asc',
  'https://example.com/a/b/print',
  'https://EXAMPLE.com/A/B/C/D/E/F/G/H/I/J/K/L/M/N/O/P/Q/R/S/T/U/V/W/X/Y/Z/index.php?id=42&ref=home',
  'https://example.com/bb12/x/y/p/q/z',
  'https://example.com?q',
  'https://example.com/dir/',
  'https://example.com/dir/index.html',
  'https://xn--bcher-kva.example/index.htm',
]

/** Bytes of input below which the warm-up is skipped: too few lines to pay for it. */
export const WARM_UP_BYTES = 1 << 20

/** Whether inputs of these sizes (undefined: not known, as for a pipe) are worth the warm-up: a short list is judged before it would pay for itself. */
export function worthWarmingUp(sizes: readonly (number | undefined)[]): boolean {
  let total = 0
  for (const n of sizes) {
    if (n === undefined) return true
    total += n
  }
  return total >= WARM_UP_BYTES
}

/** Rounds over the bodies. */
const ROUNDS = 2

/**
 * Runs the warm-up for `who` (one crawler; a crawler set's lines take other
 * code, not warmed here). Safe to call in every thread that judges lines.
 */
export function warmUpHostPath(who: HostCrawlers): void {
  if (!('agent' in who)) return
  const encoder = new TextEncoder()
  // The URLs as lines of one buffer, scanned in place as the line loop scans a block.
  const text = encoder.encode(`${WARM_URLS.join('\n')}\n`)
  const scan = new UrlScan()
  // A function records what it meets only from its first few calls on, once it has a place for it: some are called once a file.
  for (let round = 0; round < ROUNDS; round++) {
    for (const body of WARM_BODIES) warmBody(encoder.encode(body), who.agent, text, scan)
  }
}

/** Parses `body` as `filter`'s entries are, makes its matcher for `agent`, and judges the URL lines of `text` twice. */
function warmBody(body: Uint8Array, agent: readonly string[], text: Uint8Array, scan: UrlScan): void {
  const robots = parseRobots(body, FILTER_MATCHER_OPTIONS)
  const matcher = robots.agents(agent)
  bodyProblem(robots)
  matcher.memoryUsage()
  // Twice: the second pass meets the states the first one built.
  for (let pass = 0; pass < 2; pass++) {
    for (let start = 0; start < text.length; ) {
      const end = text.indexOf(10, start)
      if (scan.scan(text, start, end)) matcher.matchScan(scan)
      start = end + 1
    }
  }
}
