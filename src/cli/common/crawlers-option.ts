/**
 * `--crawlers A,B+C,@FILE`: several crawlers judged in one pass, each with
 * its own verdict and line (`check`, `filter`, `diff`, `audit`), and
 * `--require all|any`, which combines their verdicts where one answer per
 * line is needed. A crawler answering to several tokens is written
 * `A+B` (the reference's multi-agent rule, as `--agent A --agent B`).
 */
import { closeSync, openSync, readSync } from 'node:fs'
import { isValidProductToken } from '../../index.js'
import { optionValue, optionValues, type OptionSpec, type ParsedArgs } from './args.js'
import { agentWarning } from './agent-option.js'
import { readError, UsageError } from './cli-error.js'
import { hasControlCharacter, refuseControlInAgents } from './control-chars.js'
import { wideRefusal } from '../../tools/wide-text.js'
import { isStdin, refuseStdinTaken, tookStdin } from './stdio.js'

/** `--crawlers LIST`: repeatable; a LIST is crawlers separated by commas, or `@FILE`. */
export const CRAWLERS_OPTION: OptionSpec = { name: 'crawlers', value: true, multiple: true }

/** `--require all|any`: how the crawlers' verdicts combine into a line's one verdict. */
export const REQUIRE_OPTION: OptionSpec = { name: 'require', value: true, choices: ['all', 'any'] }

/** Most crawlers one run judges. */
export const MAX_CRAWLERS = 1000

/** Largest `--crawlers @FILE` read. */
const MAX_FILE_BYTES = 1 << 20

/** One crawler of `--crawlers`: its name as written (`A+B`), and its tokens. */
export interface CrawlerSpec {
  readonly name: string
  readonly tokens: readonly string[]
}

/** How a line's verdicts combine: every crawler must be allowed (`all`), or one is enough (`any`). */
export type Require = 'all' | 'any'

/** `text` without the ASCII blanks around it: any other character (a no-break space) is the token's, as `--agent` takes it. */
const blankTrim = (text: string): string => text.replace(/^[ \t\r\v\f]+|[ \t\r\v\f]+$/g, '')

/** Decodes a line of a list file: UTF-8, or undefined when it is not. */
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/**
 * One crawler as written (`A` or `A+B`), where `where` says where it was
 * found. A control character (a line break, NUL) inside is a usage error: no
 * crawler is named so, and a list pasted into one value (`"$(cat list)"`)
 * would be one crawler that names no group.
 */
function crawlerOf(text: string, where: string): CrawlerSpec {
  const tokens = text.split('+').map(blankTrim)
  if (tokens.some((t) => t === '')) throw new UsageError(`${where}: '${text}' has an empty token (a crawler is a token, or tokens joined by '+')`)
  // Spaces and tabs around a token are trimmed; any other control character, or a tab inside a name, is refused.
  if (text.split('+').some((t) => hasControlCharacter(t.replace(/^[ \t]+|[ \t]+$/g, '')))) {
    throw new UsageError(`${where}: a crawler's name holds a control character (a line break, NUL): crawlers are separated by ',', or one a line in '--crawlers @FILE'`)
  }
  return { name: tokens.join('+'), tokens }
}

/** The first `max` bytes of the file at `path` (all of it when shorter): a device such as /dev/zero is not read without end. */
function readAtMost(path: string, max: number): Buffer {
  const fd = openSync(path, 'r')
  try {
    const bytes = Buffer.alloc(max)
    let n = 0
    for (let got; n < max && (got = readSync(fd, bytes, n, max - n, null)) > 0; ) n += got
    return bytes.subarray(0, n)
  } finally {
    closeSync(fd)
  }
}

/** The crawlers of a `@FILE`: one a line (`A` or `A+B`); blank lines and `#` comments skipped. */
function crawlersOfFile(path: string): CrawlerSpec[] {
  let bytes: Buffer
  // A path to stdin's pipe (`@/dev/stdin`) reads it once: a URL list or robots.txt read from stdin later would be empty.
  const stdin = isStdin(path) && path !== '-'
  refuseStdinTaken(`'--crawlers @${path}'`, path)
  try {
    bytes = readAtMost(path, MAX_FILE_BYTES + 1)
    if (stdin) tookStdin(`'--crawlers @${path}'`)
  } catch (err) {
    throw readError('crawler list', path, err)
  }
  if (bytes.length > MAX_FILE_BYTES) throw new UsageError(`--crawlers @${path}: larger than ${MAX_FILE_BYTES} bytes`)
  // Saved as UTF-16 or UTF-32 (an editor's "Unicode", a PowerShell redirection), its names would be read as other characters: refused, named.
  const wide = wideRefusal(bytes, 'a crawler list')
  if (wide !== undefined) throw new UsageError(`--crawlers @${path}: ${wide}`)
  const out: CrawlerSpec[] = []
  let i = 0
  for (let start = 0; start <= bytes.length; i++) {
    let end = bytes.indexOf(0x0a, start)
    if (end < 0) end = bytes.length
    // A comment may be in any encoding; a crawler's name is UTF-8 or refused, never read as other characters.
    const raw = bytes.subarray(start, end)
    const hash = raw.indexOf(0x23)
    let text: string
    try {
      text = UTF8.decode(hash >= 0 ? raw.subarray(0, hash) : raw)
    } catch {
      throw new UsageError(`--crawlers @${path}, line ${i + 1}: not UTF-8 (a crawler's name is read as UTF-8 text)`)
    }
    start = end + 1
    // A byte order mark opens a file (or a file concatenated to another), not a crawler's name.
    const line = blankTrim(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text)
    if (line === '') continue
    if (line.includes(',')) throw new UsageError(`--crawlers @${path}, line ${i + 1}: one crawler a line ('A', or 'A+B' for one crawler of several tokens), got '${line}'`)
    out.push(crawlerOf(line, `--crawlers @${path}, line ${i + 1}`))
  }
  if (out.length === 0) throw new UsageError(`--crawlers @${path}: no crawler in the file`)
  return out
}

/** `text` with only its ASCII letters lowercased (`K`, the Kelvin sign, stays: the reference does not fold it to `k`). */
const asciiLower = (text: string): string => text.replace(/[A-Z]+/g, (m) => m.toLowerCase())

/**
 * The crawlers of every `--crawlers` value, in order: `A,B+C` or `@FILE`. A
 * crawler named twice, an empty one, or more than MAX_CRAWLERS are usage
 * errors.
 */
export function parseCrawlers(values: readonly string[]): CrawlerSpec[] {
  const out: CrawlerSpec[] = []
  for (const v of values) {
    if (v.startsWith('@')) {
      if (v.length === 1) throw new UsageError(`--crawlers @FILE needs a file name`)
      out.push(...crawlersOfFile(v.slice(1)))
      continue
    }
    for (const part of v.split(',')) {
      if (blankTrim(part) === '') throw new UsageError(`--crawlers '${v}' has an empty crawler (crawlers are separated by ',')`)
      out.push(crawlerOf(blankTrim(part), `--crawlers '${v}'`))
    }
  }
  // Tokens compare case-insensitively in ASCII, as the reference compares them, and a crawler's tokens are a set: GPTBot and gptbot, A+B and B+A are one crawler each.
  const seen = new Map<string, string>()
  for (const c of out) {
    const key = [...new Set(c.tokens.map(asciiLower))].sort().join('+')
    const first = seen.get(key)
    if (first !== undefined) throw new UsageError(first === c.name ? `--crawlers names '${c.name}' twice` : `--crawlers names one crawler twice: '${first}' and '${c.name}' (tokens compare case-insensitively)`)
    seen.set(key, c.name)
  }
  if (out.length > MAX_CRAWLERS) throw new UsageError(`--crawlers names ${out.length} crawlers, at most ${MAX_CRAWLERS}`)
  return out
}

/** Who a run judges for: one crawler (`--agent`, repeatable: its tokens), or several (`--crawlers`). */
export type Judged = { readonly kind: 'agent'; readonly tokens: readonly string[] } | { readonly kind: 'crawlers'; readonly crawlers: readonly CrawlerSpec[]; readonly require: Require }

/**
 * `--agent` or `--crawlers`, exactly one of them (both, or neither, is a
 * usage error: `--agent A --agent B` is one crawler answering to two
 * tokens, `--crawlers A,B` two crawlers, `--crawlers A+B` the former as a
 * column); `--require` only with `--crawlers`.
 */
export function judgedOf(args: ParsedArgs): Judged {
  const agents = optionValues(args, 'agent')
  const lists = optionValues(args, 'crawlers')
  const require = optionValue(args, 'require') as Require | undefined
  if (agents.length > 0 && lists.length > 0) {
    throw new UsageError(`'--agent' and '--crawlers' cannot go together: '--agent A --agent B' is one crawler answering to both tokens, '--crawlers A,B' two crawlers ('--crawlers A+B,C' makes the first one crawler of two tokens)`)
  }
  if (lists.length > 0) return { kind: 'crawlers', crawlers: parseCrawlers(lists), require: require ?? 'all' }
  if (require !== undefined) throw new UsageError(`'--require' applies only with '--crawlers'`)
  if (agents.length === 0) throw new UsageError(`option '--agent' is required (one crawler; or '--crawlers A,B' for several)`)
  refuseControlInAgents(agents)
  return { kind: 'agent', tokens: agents }
}

/** The warnings of the crawlers' tokens that are not product tokens (as for `--agent`). */
export function crawlerWarnings(crawlers: readonly CrawlerSpec[]): string[] {
  const out: string[] = []
  for (const c of crawlers) {
    // Beside a product token, one that names nothing does not leave only the `*` groups: the other token's groups apply.
    const named = c.tokens.some((t) => isValidProductToken(t))
    for (const t of new Set(c.tokens)) {
      if (isValidProductToken(t)) continue
      const w = agentWarning(t, `--crawlers '${c.name}': '${t}'`)!
      out.push(named ? w.replace(/; only '\*' groups apply$/, '') : w)
    }
  }
  return out
}

/** The token lists of the crawlers (what `robots.crawlers()` takes). */
export function crawlerTokens(crawlers: readonly CrawlerSpec[]): (readonly string[])[] {
  return crawlers.map((c) => c.tokens)
}
