/**
 * `--cases corpus`: cases generated from real robots.txt files and URLs,
 * seeded and reproducible (the same files, URL list, `--seed` and `--count`
 * give the same cases). Files come from a folder laid out as `<dir>/<host>`
 * (default: the bundled `corpus/robots`), URLs from a list with one URL per
 * line (default: the bundled `corpus/urls.txt`; optional with `--robots-dir`).
 * What a case holds: {@link corpusCaseStream}.
 */
import type { CaseInput } from '../case.js'
import { CompareError } from '../compare-error.js'
import { caseKey } from '../case.js'
import { nameSome, readRobotsDir, readUrlList, robotsDirNotes, urlListNotes, type RobotsFile } from './corpus-files.js'
import type { Oracle } from '../oracle.js'
import type { BodyAnalysis } from '../analysis.js'
import { Random } from '../random.js'
import { count } from '../format.js'

/** Options of the corpus generator. */
export interface CorpusOptions {
  readonly robotsDir: string
  /** The URL list; without it only derived URLs are used. */
  readonly urlsFile?: string
  /** The field of each line of the URL list that holds the URL (1-based; TSV, or CSV for a .csv file). */
  readonly urlsField?: number
  /** The URL list's bytes, read already (a FIFO). */
  readonly urlsBytes?: Buffer
  readonly count: number
  readonly seed: number
  /** Whether to make multi-agent cases (only for adapters that take them). */
  readonly multiAgent: boolean
  /** Receives the warnings about the folder (what was skipped, files without a directive). */
  readonly onNote?: (line: string) => void
}

/** Tokens used when a file does not name them (the `*` fallback). */
const OTHER_TOKENS = ['Googlebot', 'Bingbot', 'DuckDuckBot', 'Baiduspider', 'YandexBot', 'Applebot', 'ExampleBot']

const FILL = 'abcxyzABC0189-_./~=&?;:@!$,'
const WIDE = ['é', 'ü', 'ß', '日本', 'ж', '€', '😀']

/** Random characters for a `*` or a tail: mostly ASCII, sometimes an escape or a non-ASCII character. */
function fill(rnd: Random, max: number): string {
  const n = rnd.int(max + 1)
  let s = ''
  for (let i = 0; i < n; i++) {
    const r = rnd.next()
    if (r < 0.08) s += rnd.pick(WIDE)
    else if (r < 0.16) s += '%' + rnd.int(256).toString(16).padStart(2, '0')[rnd.chance(0.5) ? 'toUpperCase' : 'toLowerCase']()
    else s += FILL[rnd.int(FILL.length)]
  }
  return s
}

/** A pattern as written, as URL text (its bytes as UTF-8; invalid bytes become U+FFFD). */
function patternText(raw: Buffer): string {
  return raw.toString('utf8')
}

/** A path derived from a pattern: `*` filled, `$` honoured or not, a tail sometimes. */
function derivePath(rnd: Random, pattern: string): string {
  let p = pattern
  const anchored = p.endsWith('$')
  if (anchored) p = p.slice(0, -1)
  p = p.replace(/\*/g, () => fill(rnd, 6))
  if (anchored) {
    if (rnd.chance(0.5)) p += rnd.pick(['x', '/', '?a=1', '.bak', fill(rnd, 4) || 'z'])
  } else if (rnd.chance(0.6)) {
    p += rnd.pick(['', 'x', '/a', '?q=1', '.html', '/index.html', fill(rnd, 6)])
  }
  if (!p.startsWith('/')) p = '/' + p
  return p
}

/** `i` moved back off the second half of a surrogate pair, so that a cut there keeps every character whole. */
function charStart(s: string, i: number): number {
  const c = s.charCodeAt(i)
  return i > 0 && c >= 0xdc00 && c <= 0xdfff && isHighSurrogate(s.charCodeAt(i - 1)) ? i - 1 : i
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff
}

/** The length (1 or 2 UTF-16 units) of the character starting at `i`. */
function charLength(s: string, i: number): number {
  return isHighSurrogate(s.charCodeAt(i)) && i + 1 < s.length ? 2 : 1
}

/** Changes one thing of a path so that it just misses (or just hits) a rule; whole characters only (no lone surrogate). */
function nearMiss(rnd: Random, path: string): string {
  if (path.length <= 1) return path + 'x'
  const i = charStart(path, 1 + rnd.int(path.length - 1))
  switch (rnd.int(3)) {
    case 0:
      return path.slice(0, charStart(path, path.length - 1))
    case 1:
      return path.slice(0, i) + path.slice(i + charLength(path, i))
    default:
      return path.slice(0, i) + rnd.pick(['x', '/', '-', '.']) + path.slice(i)
  }
}

/** Splits an absolute URL or a path into the part before the path and the path (with query and fragment). */
function splitUrl(url: string): { origin: string; path: string } {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*)(.*)$/.exec(url)
  return m ? { origin: m[1], path: m[2] } : { origin: '', path: url }
}

function hex2(b: number, upper: boolean): string {
  const h = b.toString(16).padStart(2, '0')
  return '%' + (upper ? h.toUpperCase() : h)
}

/** A variant of the path with its percent-encoding changed. */
function percentVariant(rnd: Random, path: string): string {
  const escapes = /%[0-9A-Fa-f]{2}/g
  const hasEscapes = escapes.test(path)
  const hasWide = /[^\x00-\x7f]/.test(path)
  const ops: string[] = ['encode-one']
  if (hasEscapes) ops.push('upper', 'lower', 'decode')
  if (hasWide) ops.push('encode-wide')
  const op = rnd.pick(ops)
  const upper = rnd.chance(0.5)
  switch (op) {
    case 'upper':
      return path.replace(/%[0-9A-Fa-f]{2}/g, (m) => m.toUpperCase())
    case 'lower':
      return path.replace(/%[0-9A-Fa-f]{2}/g, (m) => m.toLowerCase())
    case 'decode': {
      // Decode runs of escapes that form valid UTF-8 (or single printable ASCII bytes).
      return path.replace(/(?:%[0-9A-Fa-f]{2})+/g, (m) => {
        try {
          const s = decodeURIComponent(m)
          return /[\x00-\x20\x7f]/.test(s) ? m : s
        } catch {
          return m
        }
      })
    }
    case 'encode-wide':
      return path.replace(/[^\x00-\x7f]+/g, (m) => [...Buffer.from(m, 'utf8')].map((b) => hex2(b, upper)).join(''))
    default: {
      if (path.length <= 1) return path + hex2(0x61 + rnd.int(26), upper)
      const i = charStart(path, 1 + rnd.int(path.length - 1))
      const c = path.slice(i, i + charLength(path, i))
      if (c === '%') return path
      const bytes = [...Buffer.from(c, 'utf8')]
      return path.slice(0, i) + bytes.map((b) => hex2(b, upper)).join('') + path.slice(i + c.length)
    }
  }
}

/** A variant of the path with letter case changed. */
function caseVariant(rnd: Random, path: string): string {
  switch (rnd.int(3)) {
    case 0:
      return path.toUpperCase()
    case 1:
      return path.toLowerCase()
    default: {
      const chars = [...path]
      for (let k = 0; k < 3; k++) {
        const i = rnd.int(chars.length)
        const c = chars[i]
        chars[i] = c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()
      }
      return chars.join('')
    }
  }
}

/** Paths around an `index.html` rule (or index forms of another path). */
function indexForm(rnd: Random, indexPatterns: readonly string[], path: string): string {
  let dir: string
  if (indexPatterns.length > 0) {
    const p = rnd.pick(indexPatterns).replace(/\*/g, 'x').replace(/\$$/, '')
    dir = p.slice(0, p.lastIndexOf('/') + 1)
  } else {
    const q = path.search(/[?#]/)
    const bare = q < 0 ? path : path.slice(0, q)
    dir = bare.slice(0, bare.lastIndexOf('/') + 1) || '/'
  }
  return dir + rnd.pick(['', 'index.html', 'index.htm', 'index.html?x=1', 'index.php', 'index.html/x', 'other.html', 'INDEX.HTML'])
}

/** An odd URL form of host and path. */
function oddForm(rnd: Random, scheme: string, host: string, path: string): string {
  const p = path.startsWith('/') ? path : '/' + path
  const forms = [
    `//${host}${p}`,
    `${scheme}://${host}`,
    `${scheme}://${host}?q=1`,
    `${scheme}://${host};x`,
    `${scheme}://${host}#frag`,
    `${scheme}://${host}${p}#frag`,
    '',
    `${scheme}://user:pass@${host}${p}`,
    `${scheme}://${host}:8080${p}`,
    `?${p.slice(1) || 'q'}`,
    `;${p.slice(1)}`,
    `#${p.slice(1)}`,
    p,
    `${scheme.toUpperCase()}://${host.toUpperCase()}${p}`,
    p.slice(1),
    `ftp://${host}${p}`,
    `${scheme}:${p}`,
  ]
  return rnd.pick(forms)
}

/** Re-cases a token (every letter's case swapped). */
function recase(token: string): string {
  return token.replace(/[A-Za-z]/g, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()))
}

/** The agents a file's cases use, by kind. */
function agentPool(body: BodyAnalysis): { named: string[]; other: string[] } {
  const named: string[] = []
  const seen = new Set<string>()
  for (const a of body.agentLines) {
    if (a.global || a.name === '' || seen.has(a.name.toLowerCase())) continue
    seen.add(a.name.toLowerCase())
    named.push(a.name)
  }
  const other = OTHER_TOKENS.filter((t) => !seen.has(t.toLowerCase()))
  return { named, other: other.length > 0 ? other : ['Zqxbot'] }
}

/** Picks the agent(s) of one case. */
function pickAgents(rnd: Random, pool: { named: string[]; other: string[] }, multiAgent: boolean): string[] {
  const { named, other } = pool
  const kind = rnd.weighted({
    named: named.length > 0 ? 5 : 0,
    recased: named.length > 0 ? 1.5 : 0,
    other: 2,
    version: 1.5,
    multi: multiAgent ? 1 : 0,
  })
  switch (kind) {
    case 'named':
      return [rnd.pick(named)]
    case 'recased':
      return [recase(rnd.pick(named))]
    case 'other':
      return [rnd.pick(other)]
    case 'version': {
      const base = named.length > 0 && rnd.chance(0.7) ? rnd.pick(named) : rnd.pick(other)
      return [rnd.chance(0.5) ? `${base}/2.1` : `${base.slice(0, 2)}42${base.slice(2)}`]
    }
    default: {
      const first = named.length > 0 ? rnd.pick(named) : rnd.pick(other)
      let second = named.length > 1 && rnd.chance(0.5) ? rnd.pick(named) : rnd.pick(other)
      if (second.toLowerCase() === first.toLowerCase()) second = rnd.pick(other)
      return [first, second]
    }
  }
}

/** The corpus cases, all at once (see corpusCaseStream). */
export function corpusCases(options: CorpusOptions, oracle: Oracle): CaseInput[] {
  return [...corpusCaseStream(options, oracle)]
}

/**
 * Generates the corpus cases one at a time, so that a run of any count holds
 * only the files, the URL list and the cases in flight; answers come later
 * from the oracle. The files and the URL list are read before the first case.
 *
 * The count is spread evenly over the files (a seeded sample of files when
 * there are fewer cases than files), and cases come file by file. Per case:
 *
 * - an agent: a name of the file's groups as written, the same re-cased, a
 *   token the file does not name (the `*` fallback), a token with a digit or
 *   a `/version` (cut by the reference: it names no group), or, when the
 *   adapter takes them, several tokens at once;
 * - a URL: one of the host's real URLs; one derived from a rule of the file
 *   (each `*` filled with random characters, a `$` rule with and without a
 *   tail, other rules with a random tail); a near miss of a rule; a variant
 *   of these with percent-encoding changed (hex case, characters encoded or
 *   decoded, non-ASCII raw or encoded), letter case changed, an `index.html`
 *   form, or an odd URL form (`//host/path`, no path, `?`/`;`/`#` first, a
 *   fragment, the empty URL, userinfo, a port, a path only, …).
 */
export function corpusCaseStream(options: CorpusOptions, oracle: Oracle): Iterable<CaseInput> {
  const dir = readRobotsDir(options.robotsDir)
  if (options.onNote) for (const line of robotsDirNotes(options.robotsDir, dir)) options.onNote(line)
  let urls = new Map<string, string[]>()
  if (options.urlsFile !== undefined) {
    const list = readUrlList(options.urlsFile, { field: options.urlsField, bytes: options.urlsBytes })
    const hosts = new Set(dir.files.map((f) => f.host))
    let matched = 0
    let matchedHosts = 0
    for (const [host, found] of list.byHost) {
      if (!hosts.has(host)) continue
      matched += found.length
      matchedHosts++
    }
    if (matched === 0) {
      throw new CompareError(
        'ERR_READ',
        `--urls: none of the ${count(list.urls)} URLs of '${options.urlsFile}' is on a host of --robots-dir '${options.robotsDir}' ` +
          `(its files are named by host: ${nameSome(dir.files.map((f) => f.host))}; the URLs' hosts: ${nameSome([...list.byHost.keys()])})`,
      )
    }
    if (options.onNote) for (const line of urlListNotes(options.urlsFile, list, { urls: matched, hosts: matchedHosts })) options.onNote(line)
    urls = list.byHost
  }
  return generate(options, oracle, dir.files, urls)
}

function* generate(options: CorpusOptions, oracle: Oracle, sources: readonly RobotsFile[], urls: Map<string, string[]>): Generator<CaseInput> {
  const rnd = new Random(options.seed)
  const count = options.count
  const chosen = count < sources.length ? rnd.sample(sources.length, count).map((i) => sources[i]) : sources
  for (let f = 0; f < chosen.length; f++) {
    const source = chosen[f]
    const n = Math.floor(((f + 1) * count) / chosen.length) - Math.floor((f * count) / chosen.length)
    if (n === 0) continue
    const body = oracle.body(source.body)
    const pool = agentPool(body)
    const real = urls.get(source.host) ?? []
    const patterns = body.patterns.map((p) => patternText(p.raw)).filter((p) => p.length > 0)
    const anchored = patterns.filter((p) => p.endsWith('$'))
    const indexPatterns = body.patterns.filter((p) => p.allow && /\/index\.htm[^/]*$/.test(patternText(p.raw))).map((p) => patternText(p.raw))
    const host = source.host
    const seen = new Map<string, number>()
    for (let k = 0; k < n; k++) {
      const agents = pickAgents(rnd, pool, options.multiAgent)
      const scheme = rnd.chance(0.75) ? 'https' : 'http'
      const derived = (): string => {
        if (patterns.length === 0) return '/' + fill(rnd, 8)
        const from = anchored.length > 0 && rnd.chance(0.25) ? anchored : patterns
        return derivePath(rnd, rnd.pick(from))
      }
      const base = (): { origin: string; path: string } => {
        if (real.length > 0 && rnd.chance(0.5)) {
          const u = splitUrl(rnd.pick(real))
          return { origin: u.origin || `${scheme}://${host}`, path: u.path || '/' }
        }
        return { origin: `${scheme}://${host}`, path: derived() }
      }
      const kind = rnd.weighted({
        real: real.length > 0 ? 30 : 0,
        derived: 30,
        near: patterns.length > 0 ? 5 : 0,
        percent: 10,
        case: 6,
        index: 4,
        odd: 10,
      })
      let url: string
      switch (kind) {
        case 'real':
          url = rnd.pick(real)
          break
        case 'derived':
          url = `${scheme}://${host}${derived()}`
          break
        case 'near':
          url = `${scheme}://${host}${nearMiss(rnd, derived())}`
          break
        case 'percent': {
          const b = base()
          url = b.origin + percentVariant(rnd, b.path)
          break
        }
        case 'case': {
          const b = base()
          url = b.origin + caseVariant(rnd, b.path)
          break
        }
        case 'index':
          url = `${scheme}://${host}${indexForm(rnd, indexPatterns, base().path)}`
          break
        default:
          url = oddForm(rnd, scheme, host, base().path)
      }
      // The id names the host and the case's content (its key), so that it is the same in every run that makes the case.
      const key = caseKey(source.body, agents, url)
      const n = (seen.get(key) ?? 0) + 1
      seen.set(key, n)
      yield { id: `corpus:${host}#${key.slice(0, 10)}${n > 1 ? `~${n}` : ''}`, robots: source.body, agents, url, source: source.path, key }
    }
  }
}
