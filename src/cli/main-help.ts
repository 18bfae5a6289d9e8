/** Help texts and the version of the command line. */
import { availableParallelism } from 'node:os'
import { DEFAULT_CACHE_MB } from './hosts/host-judge.js'
import { PROGRAM } from './common/version.js'

export { PROGRAM, version, versionLine } from './common/version.js'

/** Help of the program as a whole. */
export const MAIN_HELP = `Usage: ${PROGRAM} <command> [options]

Robots Exclusion Protocol (RFC 9309) with the answers of google/robotstxt.

Commands:
  check ROBOTS --agent A [URL...]   verdict and deciding rule for each URL (stdin when none)
  filter (--robots ROBOTS | --robots-dir DIR | --bundle FILE) --agent A [FILE...]
                                    keep the allowed (or disallowed) URLs of a list or log
  lint ROBOTS...                    diagnostics of robots.txt files (or directories), with line numbers
  pack (DIR | FILE.jsonl) -o FILE   many hosts' robots.txt in one bundle for filter --bundle
  diff OLD NEW --agent A [FILE...]  the URLs whose verdict changes between two robots.txt
  compare --cases SET (--cmd T | --batch C | --module M)
                                    check and time another implementation against
                                    the reference's answers, by category

ROBOTS is a file, '-' for stdin, or an http(s) URL (its /robots.txt is fetched;
other schemes, ftp: or file:, are a usage error). --agent may be repeated: one
crawler answering to several tokens, with the reference's multi-agent rules.
Every stderr line starts with '${PROGRAM}: '.

Options:
  -h, --help       this help ('${PROGRAM} <command> --help' for a command)
  -V, --version    '${PROGRAM} VERSION' (every command takes it too)

Environment:
  ROBOTS_AUTOMATON_PROGRESS=1|0   progress bar on or off, whatever the terminal
  NO_COLOR                        no escape sequences (the progress bar is erased with spaces)
  TERM=dumb                       no progress bar

Exit status: 0 success, 1 runtime failure (unreadable file, lint errors, ...),
2 usage error, 3 a verdict (check --exit-code: a URL disallowed; diff: a verdict
changed).
`

/** Help of `check`. */
export const CHECK_HELP = `Usage: ${PROGRAM} check ROBOTS --agent A [--agent B...] [--json] [--exit-code] [URL...]

Prints one line per URL: the verdict, the URL, and the rule that decided it
(its line number and pattern), or 'no matching rule':
  disallowed<TAB>URL<TAB>line 4: Disallow: /private/
Rules that are not lines of the file are marked implied:
  allowed<TAB>/d/<TAB>implied: Allow: /d/$ (from line 3: Allow: /d/index.html)
  disallowed<TAB>/x<TAB>implied: Disallow: / (robots.txt unreachable)
With no URL, or where a URL is '-', URLs are read from stdin, one per line
(LF or CRLF, gzip or not), and printed as they come.

Options:
  --agent A      the crawler's product token, e.g. Googlebot (required); repeat it
                 for a crawler answering to several tokens (the groups naming any
                 of them apply, merged; '*' only when none does)
  --json         one JSON object per URL: {"url", "allowed", "rule": {"line", "kind",
                 "pattern", "implied"?, "from"?} | null}
  --exit-code    exit status by verdict: 0 when every URL is allowed, 3 when any is
                 disallowed (1 and 2 keep their meaning: failure, usage error)
  -q, --quiet    no summary on stderr
  -h, --help     this help
  -V, --version  the version
`

/** Help of `filter`. */
export const FILTER_HELP = `Usage: ${PROGRAM} filter (--robots ROBOTS | --robots-dir DIR | --bundle FILE) --agent A
                        [--print allowed|disallowed|verdicts] [--format lines|jsonl]
                        [--field N [--host-field M] [--delimiter D]] [--jobs N] [FILE...]

Reads URLs (or log lines) one per line (LF or CRLF) from the FILEs, or stdin
when none or '-'; gzip input (files or stdin) is recognised by its first bytes
and decompressed. Every line is judged as the reference judges a URL string
(an empty line as '/'), and written to stdout in input order.

Rules:
  --robots ROBOTS    one robots.txt for every URL (file, '-', or http(s) URL)
  --robots-dir DIR   each URL judged by DIR/<host>: the URL's host, lowercased,
                     without port. DIR is listed once at the start; only regular
                     files are read (others are skipped with a warning), symbolic
                     links are followed wherever they point
  --bundle FILE      the same from one file written by '${PROGRAM} pack' (a RobotsStore
                     bundle: bare hosts, looked up as --robots-dir looks them up, and
                     origins, looked up first); checked whole before the first line
  --agent A          the crawler's product token, e.g. Googlebot (required);
                     repeatable: one crawler answering to several tokens
  --missing V        with --robots-dir/--bundle: verdict for a host with no robots.txt
                     (or an unreadable one) and for a line with no host:
                     allow (default, as for an unavailable robots.txt) or disallow
  --cache-mb MB      with --robots-dir/--bundle: memory for compiled rules, shared by
                     the jobs (default ${DEFAULT_CACHE_MB}); hosts beyond it are parsed again when they return

Output:
  --print WHAT       allowed (default): the allowed lines, unchanged (line endings kept)
                     disallowed: the other lines, unchanged
                     verdicts: every line as 'allowed<TAB>LINE<TAB>TEXT' or
                     'disallowed<TAB>LINE<TAB>TEXT' (LINE: the deciding rule's line, 0 if none)
  --format jsonl     one JSON object per line instead: {"url", "allowed", "line", "rule":
                     {"kind", "pattern"} | null, "host", "source"}; every line unless
                     --print allowed|disallowed ("source": the robots.txt that decided,
                     null when the host has none)
  --line-buffered    write each line as soon as it is judged (tail -f log | ...);
                     without it, output is written in large blocks, and at the latest
                     about 0.1 s after its input when the input pauses

Logs:
  --field N          the URL is column N (from 1) of the line; the whole line is
                     written out. Columns are separated by runs of spaces and tabs,
  --delimiter D      or by the one byte D ('\\t' for a tab), as cut -d D does
  --host-field M     the host is column M (a host, host:port, or URL), for logs
                     whose URL column is only a path (an access log's vhost)

Speed:
  -j, --jobs N       threads judging blocks of lines: the main thread and N - 1 workers
                     (default: the number of CPUs, here ${availableParallelism()}); the output is
                     the same for every N
  -q, --quiet        no progress bar, warnings or summary on stderr
  -h, --help         this help
  -V, --version      the version

The allowed and disallowed outputs together are exactly the input. A summary
(URLs read, allowed, disallowed, invalid, MB/s, URLs/s; with per-host rules
the distinct hosts with a robots.txt, without one and unreadable) goes to
stderr at the end. While reading, a progress bar (with a percentage and an ETA
when the input size is known) is drawn on stderr when stderr is a terminal and
stdout is not (so that it never mixes with the output), unless TERM=dumb;
it is erased before any warning and at the end. It has no colour; NO_COLOR:
no escape sequence at all. ROBOTS_AUTOMATON_PROGRESS=1 (or 0) forces it on (off).
robots.txt files that are HTML, UTF-16, binary or cut at the parsing limit get
one warning each (at most 10 with per-host rules; the rest are counted).
`

/** Help of `pack`. */
export const PACK_HELP = `Usage: ${PROGRAM} pack (DIR | FILE.jsonl | -) -o BUNDLE

Parses many hosts' robots.txt once into a RobotsStore and writes it to one
bundle file (store.toBytes()), which '${PROGRAM} filter --bundle BUNDLE' reads
without parsing them again (with the answers of '--robots-dir DIR'), and
RobotsStore.fromBytes() loads in code.

Input:
  DIR            one file per host, DIR/<host>, as filter --robots-dir reads it; a file
                 that cannot be read, or whose name is not a host as bundle keys are
                 written (lowercase ASCII, punycode, canonical IP), is skipped with a warning
  FILE.jsonl     one JSON object per line (a file or '-', gzip or not):
                   {"origin": "https://example.com", "body": "User-agent: *..."}
                   {"origin": "example.com", "body_base64": "..."}   (bytes that are not UTF-8)
                   {"origin": "https://example.com:8443", "outcome": "unreachable"}
                 "origin": an origin (that scheme and port only; any URL of the site) or a
                 bare host (every scheme and port), as RobotsStore.set takes keys. "outcome": "unavailable" allows all, "unreachable"
                 disallows all (RFC 9309). A key given twice keeps its last line.

Options:
  -o, --output BUNDLE   the bundle to write ('-': stdout); written whole, then renamed
  -q, --quiet           no summary or warnings on stderr
  -h, --help            this help
  -V, --version         the version
`

/** Help of `diff`. */
export const DIFF_HELP = `Usage: ${PROGRAM} diff OLD NEW --agent A [--format jsonl] [--field N [--delimiter D]] [FILE...]

Reads URLs one per line from the FILEs, or stdin when none or '-' (gzip or not),
and prints those whose verdict differs between the robots.txt OLD and NEW (each
a file, '-' or an http(s) URL), with the deciding rule on each side:
  now-disallowed<TAB>URL<TAB>line 2: Allow: /a<TAB>line 5: Disallow: /
  now-allowed<TAB>URL<TAB>line 3: Disallow: /tmp<TAB>no matching rule

Options:
  --agent A        the crawler's product token, e.g. Googlebot (required); repeatable
  --format jsonl   one JSON object per changed URL: {"url", "change", "old": {"allowed",
                   "line", "rule"}, "new": {...}}
  --field N        the URL is column N of the line (runs of spaces and tabs separate
  --delimiter D    columns, or the one byte D: '\\t' for a tab)
  -q, --quiet      no summary on stderr
  -h, --help       this help
  -V, --version    the version

Exit status: 0 when no verdict changes, 3 when some do, 1 failure, 2 usage error.
`

/** Help of `lint`. */
export const LINT_HELP = `Usage: ${PROGRAM} lint [--json] ROBOTS...

Prints every diagnostic of each robots.txt as FILE:LINE: SEVERITY: MESSAGE [CODE],
then its summary on stderr: the real totals by severity (also past the first
1,000 diagnostics, which are all a file lists), lines counted as wc -l counts
them (LF bytes), bytes; and a total for several files. ROBOTS is a file, '-',
an http(s) URL, or a directory (its regular files, recursively, in name order).
A file that cannot be read is reported and the others are linted. Exits 1 when
there is an error or a file could not be read.

Options:
  --json         one JSON object per file: {"source", "diagnostics": [{"line", "code",
                 "severity", "message"}], "errors", "warnings", "infos", "lines" (null
                 for a URL), "bytes", "truncated"}
  -q, --quiet    no summary on stderr
  -h, --help     this help
  -V, --version  the version
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
  -V, --version      the version

Example:
  ${PROGRAM} compare --cases unit --cmd '${PROGRAM} check %robots% --agent=%user-agent% --exit-code -q -- %url%' --disallowed-exit 3
  ${PROGRAM} compare --cases corpus --count 100000 --batch 'node examples/robots-parser-batch.mjs' --html report.html
`
