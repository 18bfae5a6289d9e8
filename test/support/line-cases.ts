/**
 * One data suite for the line convention of batch input (src/match/lines.ts),
 * run over every implementation of it: `matchLines` on each engine (the
 * automaton's fused loop, the shared functions behind the plain engine) and
 * the CLI's per-block loop (test/cli/units.test.ts).
 *
 * The expected lines come from an oracle written from the convention's text,
 * not from the code: LF ends a line, a last line without LF counts, one CR
 * right before the LF or at the end of the input is not part of the URL.
 */

/** A batch input and its lines: each URL and the index of the LF that ends it (or the input's length). */
export interface LineCase {
  name: string
  input: string
  lines: { url: string; end: number }[]
}

/** The convention, read literally. */
export function expectedLines(input: string): { url: string; end: number }[] {
  const out: { url: string; end: number }[] = []
  let start = 0
  while (start < input.length) {
    let lf = input.indexOf('\n', start)
    if (lf < 0) lf = input.length
    let url = input.slice(start, lf)
    if (url.endsWith('\r')) url = url.slice(0, -1)
    out.push({ url, end: lf })
    start = lf + 1
  }
  return out
}

const INPUTS: [string, string][] = [
  ['empty input', ''],
  ['one empty line', '\n'],
  ['a lone CR', '\r'],
  ['CRLF alone', '\r\n'],
  ['two empty lines', '\n\n'],
  ['a path without LF', '/a'],
  ['a path with LF', '/a\n'],
  ['CRLF lines, the last without', '/a\r\n/b'],
  ['a CR ending the input', '/a\r'],
  ['CR CR LF: one CR stays in the URL', '/a\r\r\n/b'],
  ['a CR inside a line', '/a\rb\n/a\r/b\n'],
  ['empty lines between URLs', '/a\n\n\r\n/b\n'],
  ['full URLs', 'http://h/a\r\nhttps://h:8080/a?x\nhttp://h\r\nhttp://h#x\n'],
  ['scheme-relative, query and fragment starts', '//h/a\r\n?q\r\n;p\n#f\r\n/a#b\n'],
  ['authority edge cases', 'http:\r\nhttp:/\r\nhttp://\r\na:\n://\r\nh/a\r\n'],
  ['NUL and other bytes in a line', '/a\u0000b\n/a\u0000\r\n/a\t\u000b\f\n'],
  ['a path ending in $-anchored rules', '/a\n/a/\n/ab\n/a?\n/a;\n/a\r\n/a \n'],
  ['no LF at the end after an empty line', '\n/a'],
]

/** Every case, with its lines by the oracle. */
export const LINE_CASES: LineCase[] = INPUTS.map(([name, input]) => ({ name, input, lines: expectedLines(input) }))

/**
 * Rules under which a CR, a NUL or a stray byte kept in (or cut from) a URL
 * changes the verdict and the deciding line: `$`-anchored rules on short paths.
 */
export const LINE_RULES = [
  'User-agent: *',
  'Disallow: /',
  'Allow: /a$',
  'Allow: /b$',
  'Allow: /$',
  'Disallow: /a/$',
  'Allow: /*?',
  'Allow: /a;$',
  'Allow: /ab',
].join('\n')
