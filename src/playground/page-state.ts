/**
 * What the tester page shows, as one value ({@link PageState}), and its form
 * in the page's address: the fragment `#s=<codec>.<base64url>`, so a case can
 * be shared as a link and nothing of it is sent to a server.
 */

/** What a robots.txt fetch gave (RFC 9309 §2.3.1): the file, or a stand-in that has none. */
export type Outcome = 'file' | 'unavailable' | 'unreachable'

/** One robots.txt of the page: its text and how its fetch went. */
export interface RobotsSide {
  text: string
  outcome: Outcome
}

/** Everything the page's answers depend on. */
export interface PageState {
  /** One robots.txt, or two versions compared (`diff`). */
  mode: 'single' | 'diff'
  /** The robots.txt (in diff mode, the old version). */
  a: RobotsSide
  /** The new version, in diff mode. */
  b: RobotsSide
  /** The URLs, one per line. */
  urls: string
  /** The crawler's product tokens, separated by commas (one crawler answering to each, as `check --agent A --agent B`). */
  agents: string
  /**
   * More crawlers, each judged in a column of its own beside the first
   * (`check --crawlers`): separated by commas, `A+B` for one crawler
   * answering to two tokens; empty for the one crawler alone.
   */
  crawlers: string
}

const OUTCOMES: readonly Outcome[] = ['file', 'unavailable', 'unreachable']

/** The page as it opens without a link: a small robots.txt that shows every kind of answer. */
export const SAMPLE: PageState = {
  mode: 'single',
  a: {
    text: [
      'User-agent: *',
      'Disallow: /private/',
      'Allow: /private/press/',
      'Disallow: /*.pdf$',
      '',
      'User-agent: Googlebot',
      'Disallow: /search',
      'Disallow: /shop/',
      'Allow: /shop/index.html',
      'Disalow: /tmp/',
      'Crawl-delay: fast',
      '',
      'Sitemap: https://www.example.com/sitemap.xml',
      '',
    ].join('\n'),
    outcome: 'file',
  },
  b: { text: '', outcome: 'file' },
  urls: [
    'https://www.example.com/',
    'https://www.example.com/search?q=robots',
    'https://www.example.com/shop/',
    'https://www.example.com/shop/cart',
    'https://www.example.com/tmp/report.html',
    'https://www.example.com/private/x.pdf',
  ].join('\n'),
  agents: 'Googlebot',
  crawlers: '',
}

/**
 * `text` without the ASCII blanks around it, as the command line trims a
 * name: any other character (a no-break space pasted from a web page) is
 * the token's, so that it names no group here either.
 */
const blankTrim = (text: string): string => text.replace(/^[ \t\n\r\v\f]+|[ \t\n\r\v\f]+$/g, '')

/**
 * The tokens of the agents field: split at commas, each trimmed of ASCII
 * blanks; none means `*`. A token is taken whole, as the reference takes it
 * (`Foo Bar` is one token, which names no group: the page shows the
 * library's warning).
 */
export function agentTokens(agents: string): string[] {
  const tokens = agents.split(',').map(blankTrim).filter((t) => t !== '')
  return tokens.length ? tokens : ['*']
}

/**
 * The crawlers of the more-crawlers field, as `--crawlers` reads them:
 * separated by commas, a crawler's tokens joined by `+`, each trimmed of
 * ASCII blanks; empty crawlers and tokens dropped.
 */
export function crawlerList(crawlers: string): string[][] {
  const out: string[][] = []
  for (const part of crawlers.split(',')) {
    const tokens = part.split('+').map(blankTrim).filter((t) => t !== '')
    if (tokens.length > 0) out.push(tokens)
  }
  return out
}

/** The URLs of the URL list: one per line, as given (the reference matches a URL as given); empty lines skipped. */
export function urlList(urls: string): string[] {
  const out: string[] = []
  for (const line of urls.split('\n')) {
    const u = line.endsWith('\r') ? line.slice(0, -1) : line
    if (u !== '') out.push(u)
  }
  return out
}

/**
 * The largest link the page writes or opens: a fragment of this many
 * characters. A longer one is refused before anything is decoded.
 */
export const MAX_LINK_CHARS = 1_500_000

/**
 * The most bytes a link's case may take once inflated (its JSON): a link
 * that inflates past it (a small link can inflate a thousandfold) is
 * refused as soon as it does, so a crafted link cannot exhaust the tab's
 * memory. Room for two robots.txt files past the parsing limit and tens of
 * thousands of URLs.
 */
export const MAX_STATE_BYTES = 8 * 1024 * 1024

/** A link the page refuses to open (too long, or a case too large once inflated): its message says which. */
export class LinkRefused extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'LinkRefused'
  }
}

/** Fragment codecs: `1` raw deflate (CompressionStream), `0` none (a browser without it). */
const enum Codec {
  Plain = '0',
  Deflate = '1',
}

function toBase64Url(bytes: Uint8Array): string {
  let s = ''
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const s = atob(text.replace(/-/g, '+').replace(/_/g, '/'))
  const out = new Uint8Array(s.length)
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i)
  return out
}

async function through(bytes: Uint8Array<ArrayBuffer>, stream: CompressionStream | DecompressionStream): Promise<Uint8Array<ArrayBuffer>> {
  const out = new Blob([bytes]).stream().pipeThrough(stream)
  return new Uint8Array(await new Response(out).arrayBuffer())
}

/** The bytes `stream` gives, or a {@link LinkRefused} as soon as they pass `limit` (the stream is cancelled: nothing more is inflated). */
async function readBounded(stream: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const reader = stream.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.length
    if (total > limit) {
      await reader.cancel().catch(() => {})
      throw new LinkRefused(tooLarge())
    }
    chunks.push(value)
  }
  const out = new Uint8Array(total)
  let at = 0
  for (const c of chunks) {
    out.set(c, at)
    at += c.length
  }
  return out
}

function tooLarge(): string {
  return `This link holds a case larger than the tester page opens (${MAX_STATE_BYTES / (1024 * 1024)} MiB once unpacked, or a link of ${MAX_LINK_CHARS.toLocaleString('en-US')} characters): it was not opened.`
}

/** The fragment (with its `#`) that holds `state`; a {@link LinkRefused} for a case larger than a link may hold. */
export async function encodeState(state: PageState): Promise<string> {
  const compact = [state.mode === 'diff' ? 1 : 0, state.a.text, OUTCOMES.indexOf(state.a.outcome), state.b.text, OUTCOMES.indexOf(state.b.outcome), state.urls, state.agents]
  // The more-crawlers field only when used: a link of one crawler reads as before.
  if (state.crawlers !== '') compact.push(state.crawlers)
  const json = new TextEncoder().encode(JSON.stringify(compact))
  if (json.length > MAX_STATE_BYTES) throw new LinkRefused('This case is too large for a link.')
  if (typeof CompressionStream !== 'function') return `#s=${Codec.Plain}.${toBase64Url(json)}`
  return `#s=${Codec.Deflate}.${toBase64Url(await through(json, new CompressionStream('deflate-raw')))}`
}

/** The message of a link that starts as the page's links do but holds no case it can read. */
const DAMAGED = 'This link is damaged (cut short or changed on the way): the case it held could not be read, so it was not opened.'

/** The message of a link in a form this page does not know: a newer version of the page made it. */
const NEWER = 'This link was made by a newer version of the tester page: this one cannot read its case, so it was not opened.'

/** A robots.txt side of a link's case, or undefined when a field has a value the page never writes. */
function side(text: unknown, outcome: unknown): RobotsSide | undefined {
  if (typeof text !== 'string' || typeof outcome !== 'number' || !Number.isInteger(outcome)) return undefined
  const known = OUTCOMES[outcome]
  return known === undefined ? undefined : { text, outcome: known }
}

/** The case a link's JSON holds, checked field by field: a {@link LinkRefused} for any value the page never writes. */
function stateOf(v: unknown): PageState {
  if (!Array.isArray(v)) throw new LinkRefused(DAMAGED)
  // Fields this page does not know would change the answers it gives: the link is not read without them.
  if (v.length > 8) throw new LinkRefused(NEWER)
  const [mode, aText, aOutcome, bText, bOutcome, urls, agents, crawlers = ''] = v as unknown[]
  const a = side(aText, aOutcome)
  const b = side(bText, bOutcome)
  if (v.length < 7 || (mode !== 0 && mode !== 1) || a === undefined || b === undefined || typeof urls !== 'string' || typeof agents !== 'string' || typeof crawlers !== 'string') {
    throw new LinkRefused(DAMAGED)
  }
  return { mode: mode === 1 ? 'diff' : 'single', a, b, urls, agents, crawlers }
}

/**
 * The state a fragment holds, or null when it holds none (no fragment,
 * another page's fragment, one not of the form `s=…`): the page then opens
 * as usual. A fragment of that form that cannot be read is a
 * {@link LinkRefused} whose message the page shows, never a case quietly
 * replaced: one cut short, changed, or with a value the page never writes
 * (damaged), or made by a newer version of the page (a codec or a field it
 * does not know). A link longer than {@link MAX_LINK_CHARS} is refused
 * before it is decoded, and one whose case inflates past
 * {@link MAX_STATE_BYTES} as soon as it does.
 */
export async function decodeState(fragment: string): Promise<PageState | null> {
  if (!/^#?s=/.test(fragment)) return null
  if (fragment.length > MAX_LINK_CHARS + 5) throw new LinkRefused(tooLarge())
  const m = /^#?s=([0-9A-Za-z]+)\.([A-Za-z0-9_-]*)$/.exec(fragment)
  if (m === null) throw new LinkRefused(DAMAGED)
  if (m[1] !== Codec.Plain && m[1] !== Codec.Deflate) throw new LinkRefused(NEWER)
  let v: unknown
  try {
    let bytes = fromBase64Url(m[2])
    if (m[1] === Codec.Deflate) bytes = await readBounded(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw')), MAX_STATE_BYTES)
    else if (bytes.length > MAX_STATE_BYTES) throw new LinkRefused(tooLarge())
    v = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
  } catch (err) {
    if (err instanceof LinkRefused) throw err
    throw new LinkRefused(DAMAGED)
  }
  return stateOf(v)
}
