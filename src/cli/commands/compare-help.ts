/** The help of `compare` (`robots-automaton compare --help`); the manual is docs/compare.md. */
import { PROGRAM } from '../common/version.js'

/** Help of `compare`. */
export const COMPARE_HELP = `Usage: ${PROGRAM} compare --cases SET --cmd TEMPLATE [options]
       ${PROGRAM} compare --cases SET --batch COMMAND [options]
       ${PROGRAM} compare --cases SET --module FILE [options]
       ${PROGRAM} compare --cases SET --export FILE.jsonl
       ${PROGRAM} compare --matrix ADAPTERS.json [--cases SET]... [opts]
       ${PROGRAM} compare --diff A.json B.json

Runs another robots.txt implementation on a set of cases and checks its
answers (verdicts, and deciding lines when it gives them) against the
reference's, google/robotstxt's, and RFC 9309's; prints the agreement per
category, the categories that explain the disagreements, each disagreement
with a minimised robots.txt, and timings. The manual: docs/compare.md.

CASE SETS (--cases SET)
  unit                    google/robotstxt's 145 unit-test vectors
  corpus                  generated from real robots.txt files and URLs
  spec-test:PATH          a .textproto file, or those under a folder
  FILE.jsonl              one case per line: {"robots", "agent", "url", ...}

CASE OPTIONS
  --count N               corpus: cases to make (default 10,000); else a sample
  --seed N                seed of generation and sampling (default 1)
  --robots-dir DIR        corpus: your robots.txt files, named by host
  --urls FILE             corpus, with --robots-dir: real URLs, one a line
  --urls-field N          --urls: the Nth field of a TSV (or .csv) line
  --category A,!B         only cases in A (or ...), and none in B
  --multi-agent           also cases whose crawler has several tokens
  --export FILE           write the cases and the reference's answers as JSONL

ADAPTERS (one of, or --export alone)
  --cmd TEMPLATE          a process per case: %robots% (a file), %url% and
                          %user-agent% replaced in the words of TEMPLATE
  --batch COMMAND         one 'sh -c' process: reads {"id", "robots_path",
                          "agent", "url"} lines, writes {"id", "allowed"}
  --module FILE           an ES module: parse(bytes) -> {isAllowed(url, agent)}
  --timeout MS            --batch: no answer at all for MS stops the run;
                          --cmd: a case's limit (default 10000; at most
                          2147483647, about 24 days)
  --allowed-exit N        --cmd: the exit status for allowed (default 0)
  --disallowed-exit N     --cmd: the exit status for disallowed (default 1)
  --allowed-pattern RE    --cmd: allowed when stdout matches RE
  --disallowed-pattern RE --cmd: disallowed when stdout matches RE
  --line-pattern RE       --cmd: the deciding line, RE's first group on stdout
  --concurrency N         --cmd: processes at once (default: the CPUs)
  --batch-robots HOW      --batch: path (default) or inline (the body in JSON)
  --window N              --batch: requests in flight (default 256)

SCORING AND TIMING
  --score lines|verdicts  the headline and the gate: verdicts and lines
                          (default), or verdicts alone; both are reported
  --semantics WHOSE       the gate's answers: reference (the default,
                          google/robotstxt's) or rfc (RFC 9309's); both
                          are scored
  --min-agreement P       exit 0 when P percent of the cases agree (default 100)
  --baseline FILE         known disagreements (a --json report, or case keys
                          or ids, one a line): only new ones fail (exit 3)
  --write-baseline FILE   write this run's disagreements as a baseline
  --repeat N              judge the cases N times: median and spread of cases/s

OUTPUTS (written whatever ends the run, the failure recorded)
  --json FILE             the whole report, every case included
  --html FILE             a self-contained page with a chart
  --csv FILE              every case, one row each, written as the run goes
  --junit FILE            JUnit XML: a suite per category and spec-test file
  --format text|jsonl     stdout: the report, or one JSON object per category
  --show N                disagreements shown in the terminal (default 5)
  --minimise N            disagreements to minimise (default 20, --cmd 5)
  --minimise-calls N      adapter calls per minimisation (default 200)
  -q, --quiet             no progress bar or notes on stderr
  -h, --help              print this help
  -V, --version           print the version

MATRIX AND DIFF
  --matrix FILE           several implementations (a JSON file of adapters)
                          on the same sets, each set's cases made once: a
                          leaderboard; --cases repeatable; the case options,
                          --score, --semantics, --repeat and --timeout apply
                          to every set and implementation
  --markdown FILE         --matrix: the leaderboard as Markdown
  --diff                  compare two --json reports case by case: A.json
                          B.json; exit 3 when a case that agreed disagrees

EXIT STATUS
  0  every case agrees (or --min-agreement is reached, or no disagreement is
     new to --baseline), or --export alone
  1  the harness could not run (a file it cannot read or write, no cases)
  2  usage error
  3  some case disagrees (below --min-agreement; new to --baseline)
  4  the implementation failed (exited, stalled, out of protocol); the
     outputs hold the cases done
  130, 143, 129
     interrupted by SIGINT, SIGTERM or SIGHUP; the outputs hold the cases
     done

EXAMPLES
  # a CI gate on a spec-test checkout, one process per case, JUnit for CI
  ${PROGRAM} compare --cases spec-test:robotstxt-spec-test \\
      --cmd './mytool %robots% %url% %user-agent%' --junit compare.xml

  # 100,000 cases through one adapter process, verdicts only, every case
  ${PROGRAM} compare --cases corpus --count 100000 --score verdicts \\
      --batch 'node batch-adapter.mjs' --json run.json --csv cases.csv

  # a leaderboard of the implementations in adapters.json
  ${PROGRAM} compare --matrix adapters.json --cases unit \\
      --cases spec-test:robotstxt-spec-test --markdown board.md
`
