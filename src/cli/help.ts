/** Help texts and the version of the command line. */
import { readFileSync } from 'node:fs'

/** The program name used in messages. */
export const PROGRAM = 'robots-automaton'

/** The package version, read from the package's package.json next to `dist/`. */
export function version(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: unknown }
    return typeof pkg.version === 'string' ? pkg.version : 'unknown'
  } catch {
    return 'unknown'
  }
}

/** Help of the program as a whole. */
export const MAIN_HELP = `Usage: ${PROGRAM} <command> [options]

Robots Exclusion Protocol (RFC 9309) with the answers of google/robotstxt.

Commands:
  check ROBOTS --agent A URL...     verdict and deciding rule for each URL
  filter (--robots ROBOTS | --robots-dir DIR) --agent A [FILE...]
                                    keep the allowed (or disallowed) URLs of a list
  lint ROBOTS                       diagnostics of a robots.txt, with line numbers

ROBOTS is a file, '-' for stdin, or an http(s) URL (its /robots.txt is fetched).

Options:
  -h, --help       this help ('${PROGRAM} <command> --help' for a command)
  -V, --version    the version

Exit status: 0 success, 1 runtime failure (unreadable file, lint errors, ...),
2 usage error.
`

/** Help of `check`. */
export const CHECK_HELP = `Usage: ${PROGRAM} check ROBOTS --agent A [--json] URL...

Prints one line per URL: the verdict, the URL, and the rule that decided it
(its line number and pattern), or 'no matching rule':
  disallowed<TAB>URL<TAB>line 4: Disallow: /private/

Options:
  --agent A      the crawler's product token, e.g. Googlebot (required)
  --json         one JSON object per URL: {"url", "allowed", "rule": {"line", "kind", "pattern"} | null}
  -q, --quiet    no summary on stderr
  -h, --help     this help
`

/** Help of `filter`. */
export const FILTER_HELP = `Usage: ${PROGRAM} filter (--robots ROBOTS | --robots-dir DIR) --agent A
                        [--print allowed|disallowed|verdicts] [--missing allow|disallow] [FILE...]

Reads URLs one per line (LF or CRLF) from the FILEs, or stdin when none or '-';
a FILE ending in .gz is decompressed. Every line is judged as the reference
judges a URL string (an empty line as '/'), and written to stdout in input order.

Options:
  --robots ROBOTS    one robots.txt for every URL (file, '-', or http(s) URL)
  --robots-dir DIR   each URL judged by DIR/<host>: the URL's host, lowercased,
                     without port (files parsed on first use, kept in a bounded cache)
  --agent A          the crawler's product token, e.g. Googlebot (required)
  --print WHAT       allowed (default): the allowed lines, unchanged (line endings kept)
                     disallowed: the other lines, unchanged
                     verdicts: every line as 'allowed<TAB>LINE<TAB>URL' or
                     'disallowed<TAB>LINE<TAB>URL' (LINE: the deciding rule's line, 0 if none)
  --missing V        with --robots-dir: verdict for a host with no file or a line with
                     no host: allow (default, as for an unavailable robots.txt) or disallow
  -q, --quiet        no progress bar or summary on stderr
  -h, --help         this help

The allowed and disallowed outputs together are exactly the input. A summary
(URLs read, allowed, disallowed, invalid, MB/s, URLs/s) goes to stderr at the
end; a progress bar too while reading, when stderr is a terminal.
`

/** Help of `lint`. */
export const LINT_HELP = `Usage: ${PROGRAM} lint [--json] ROBOTS

Prints every diagnostic of the robots.txt as FILE:LINE: SEVERITY: MESSAGE [CODE],
then a summary on stderr. Exits 1 when there is an error.

Options:
  --json         one JSON object: {"source", "diagnostics": [{"line", "code", "severity",
                 "message"}], "errors", "warnings", "infos", "lines", "bytes", "truncated"}
  -q, --quiet    no summary on stderr
  -h, --help     this help
`
