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
  compare --cases SET (--cmd T | --batch C | --module M)
                                    check and time another implementation against
                                    the reference's answers, by category

ROBOTS is a file, '-' for stdin, or an http(s) URL (its /robots.txt is fetched).

Options:
  -h, --help       this help ('${PROGRAM} <command> --help' for a command)
  -V, --version    the version

Exit status: 0 success, 1 runtime failure (unreadable file, lint errors, ...),
2 usage error.
`

/** Help of `check`. */
export const CHECK_HELP = `Usage: ${PROGRAM} check ROBOTS --agent A [--json] [--exit-code] URL...

Prints one line per URL: the verdict, the URL, and the rule that decided it
(its line number and pattern), or 'no matching rule':
  disallowed<TAB>URL<TAB>line 4: Disallow: /private/

Options:
  --agent A      the crawler's product token, e.g. Googlebot (required)
  --json         one JSON object per URL: {"url", "allowed", "rule": {"line", "kind", "pattern"} | null}
  --exit-code    exit status by verdict: 0 when every URL is allowed, 3 when any is
                 disallowed (1 and 2 keep their meaning: failure, usage error)
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

/** Help of `compare`. */
export const COMPARE_HELP = `Usage: ${PROGRAM} compare --cases SET (--cmd TEMPLATE | --batch COMMAND | --module FILE)
                        [--json FILE] [--html FILE] [--min-agreement P] [options]
       ${PROGRAM} compare --cases SET --export FILE.jsonl

Runs another robots.txt implementation on a case set and compares its answers
with the reference's (google/robotstxt's, given by this library), verdicts and,
when the implementation reports them, deciding lines. Prints the agreement per
category, the disagreements (with the reference's deciding rule and a
minimised robots.txt) and timings. Exit status: 0 when every case agrees (or
the agreement reaches --min-agreement), 1 otherwise, 2 for a usage error.

Case sets (--cases):
  unit               google/robotstxt's 145 unit-test vectors (shipped)
  corpus             generated from the bundled corpus/ (or --robots-dir DIR
                     [--urls FILE]): real URLs and URLs derived from each file's
                     rules, several agents per file; seeded (--seed, default 1),
                     --count N cases (default 10,000)
  spec-test:DIR      the .textproto files of a google/robotstxt-spec-test
                     checkout, found recursively under DIR
  FILE.jsonl         your cases, one JSON object per line:
                     {"id"?, "robots" | "robots_base64" | "robots_path", "agent": "A" | ["A", "B"],
                      "url", "allowed"?, "line"?, "categories"?}
  --count N          with a fixed set: a seeded sample of N cases
  --category A,B     only the cases tagged with one of these categories
  --multi-agent      also run cases whose crawler has several tokens (batch and
                     module adapters get "agent" as an array); skipped otherwise
  --export FILE      write the cases (with the reference's answers and their
                     categories) as JSONL; bytes that are not UTF-8 go in robots_base64

Adapters (the implementation under test):
  --cmd TEMPLATE     one process per case, as google/robotstxt-spec-test runs one:
                     %robots% (a file with the body's bytes), %url%, %user-agent%
                     are replaced in the words of TEMPLATE (no shell runs)
    --allowed-exit N / --disallowed-exit N     outcome by exit status (default 0 / 1)
    --allowed-pattern RE / --disallowed-pattern RE
                     outcome by regular expressions on stdout instead
    --line-pattern RE  the deciding line from stdout (first capture group)
    --concurrency N    processes at once (default: the number of CPUs)
  --batch COMMAND    one process (sh -c COMMAND) reading a JSON request per line:
                     {"id", "robots_path" | "robots" | "robots_base64", "agent", "url"}
                     and writing {"id", "allowed", "line"?} or {"id", "error"} per line
    --batch-robots path|inline  the body as a file path (default) or in the request
    --window N         requests in flight (default 256)
  --module FILE      an ES module exporting parse(bytes) -> { isAllowed(url, agent),
                     matchingLine?(url, agent) }, run in this process
  --timeout MS       per case (--cmd) or per answer (--batch); default 10000

Report:
  --json FILE        the whole report as JSON
  --html FILE        a self-contained page: category table, chart, disagreements
  --show N           disagreements shown in the terminal (default 5)
  --minimise N       disagreements minimised (default 20; 0: none)
  --minimise-calls N adapter calls per minimisation at most (default 200)
  --min-agreement P  exit 0 when at least P percent of the cases agree (default 100)
  -q, --quiet        no progress bar or notes on stderr
  -h, --help         this help

Example:
  ${PROGRAM} compare --cases unit --cmd '${PROGRAM} check %robots% --agent=%user-agent% --exit-code -q -- %url%' --disallowed-exit 3
  ${PROGRAM} compare --cases corpus --count 100000 --batch 'node examples/robots-parser-batch.mjs' --html report.html
`
