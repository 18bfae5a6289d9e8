/**
 * robots.txt bodies that are not what they claim: an HTML page, a UTF-16
 * or UTF-32 file, binary data, or a file cut at the parsing limit. The reference reads
 * them as it reads any body (usually finding no rule, so everything is
 * allowed); `check` and `filter` say so on stderr, once per file, instead of
 * allowing everything in silence. How each is told: {@link bodyProblem};
 * whether the warning may say "URLs allowed": {@link allowsEverything}.
 */
import type { Diagnostic, Robots } from '../../index.js'
import { count } from './numbers.js'
import { BODY_KIND_WORDS, bodyKindCode } from './body-kind.js'
import type { LoadedRobots } from './load-robots.js'

/** A problem of a whole body, most telling first. */
export type BodyProblem = 'html' | 'utf16' | 'binary' | 'truncated'

/** Every problem, in the order they are told and counted. */
export const BODY_PROBLEMS: readonly BodyProblem[] = ['html', 'utf16', 'binary', 'truncated']

/** Names in the summary: `2 HTML, 1 binary`. */
export const PROBLEM_WORDS: Record<BodyProblem, string> = { html: 'HTML', utf16: 'UTF-16/32', binary: 'binary', truncated: 'truncated' }

/**
 * The body's most telling problem, or undefined for an ordinary robots.txt.
 * The problems come from the library's diagnostics: `html-body`,
 * `utf16-body` (where the library reports it) and `truncated`; "binary" is a
 * body where most lines hold control characters or invalid UTF-8 (the
 * `control-character` and `invalid-utf8` diagnostics; when the list is cut
 * at its cap, the share among the lines it covers). `wide`: what the body's
 * first bytes look like when they are UTF-16 or UTF-32 text (`wideWords`
 * in tools/wide-text.ts), which makes a binary-looking body `utf16`.
 */
export function bodyProblem(robots: Pick<Robots, 'diagnostics' | 'lineCount'>, wide?: string): BodyProblem | undefined {
  const diagnostics: readonly Diagnostic[] = robots.diagnostics
  if (diagnostics.length === 0) return undefined
  let html = false
  let utf16 = false
  let truncated = false
  let odd = 0
  let lastLine = 0
  let previousOdd = -1
  for (const d of diagnostics) {
    const code = d.code as string
    if (code === 'html-body') html = true
    else if (code === 'utf16-body') utf16 = true
    else if (code === 'truncated') truncated = true
    else if (code === 'control-character' || code === 'invalid-utf8') {
      // One count per line, whichever of the two it has.
      if (d.line !== previousOdd) odd++
      previousOdd = d.line
    }
    if (code !== 'truncated' && code !== 'too-many-diagnostics' && d.line > lastLine) lastLine = d.line
  }
  if (html) return 'html'
  if (utf16) return 'utf16'
  const cut = diagnostics.some((d) => d.code === 'too-many-diagnostics')
  const lines = cut ? lastLine : robots.lineCount
  if (odd > 0 && odd * 2 >= lines) return wide === undefined ? 'binary' : 'utf16'
  if (truncated) return 'truncated'
  return undefined
}

/**
 * Whether every crawler (each its tokens) may fetch every path under
 * `robots` (`robots.access`, exact): only then may a body's warning say
 * "URLs allowed". An HTML page, a UTF-16 or a binary body can still hold
 * lines the reference reads as rules (a `<pre>` of rules, ASCII lines after
 * a UTF-16 byte order mark).
 */
export function allowsEverything(robots: Pick<Robots, 'crawlers'>, crawlers: readonly (readonly string[])[]): boolean {
  return robots.crawlers(crawlers).access().every((a) => a.access === 'everything')
}

/**
 * The warning for `name`'s problem (one line, without the `warning: `
 * prefix's program name). `allowsAll`: {@link allowsEverything} for the
 * crawlers judged, which decides what it says of the verdicts; undefined
 * where no crawler is judged (`pack`), which says none. `wide`: the
 * encoding a `utf16` body looks like, as {@link bodyProblem} took it.
 */
export function bodyWarning(name: string, problem: BodyProblem, robots: Pick<Robots, 'bytesRead'>, allowsAll: boolean | undefined, wide?: string): string {
  const read =
    allowsAll === undefined
      ? 'kept as the reference reads it'
      : allowsAll
        ? 'judged as the reference reads it, which finds no rule that disallows a URL: URLs allowed'
        : 'judged as the reference reads it, which finds rules in it that disallow URLs'
  switch (problem) {
    case 'html':
      return `warning: '${name}' looks like an HTML page, not a robots.txt [html-body]; ${read}`
    case 'utf16':
      if (allowsAll === true) return `warning: '${name}' is ${wide ?? 'UTF-16'}, which the reference cannot read [utf16-body]; no rule in it disallows a URL: URLs allowed`
      return `warning: '${name}' starts as ${wide ?? 'UTF-16'} [utf16-body], which the reference reads as UTF-8 bytes; ${read}`
    case 'binary':
      return `warning: '${name}' looks like binary data, not a robots.txt (most lines hold control characters or invalid UTF-8); ${read}`
    case 'truncated':
      return `warning: '${name}' is larger than the parsing limit; only its first ${count(robots.bytesRead)} bytes are read [truncated]`
  }
}

/**
 * The warning on a loaded ROBOTS (`check`, `filter --robots`, `diff`):
 * JSON or XML named as what it is ({@link BodyKind}), else its
 * {@link bodyProblem}'s; undefined for an ordinary robots.txt.
 */
export function loadedBodyWarning(loaded: LoadedRobots, crawlers: readonly (readonly string[])[]): string | undefined {
  const { robots, name, kind, wide } = loaded
  if (kind !== undefined) {
    const read = allowsEverything(robots, crawlers)
      ? 'judged as the reference reads it, which finds no rule that disallows a URL: URLs allowed'
      : 'judged as the reference reads it, which finds rules in it that disallow URLs'
    return `warning: '${name}' is ${BODY_KIND_WORDS[kind]}, not a robots.txt [${bodyKindCode(kind)}]; ${read}`
  }
  const problem = bodyProblem(robots, wide)
  return problem === undefined ? undefined : bodyWarning(name, problem, robots, allowsEverything(robots, crawlers), wide)
}
