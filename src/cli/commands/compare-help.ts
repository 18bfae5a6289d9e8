/** The help of `compare` (`robots-automaton compare --help`); the manual is docs/compare.md. */
import { PROGRAM } from '../common/version.js'

/** Help of `compare`. */
export const COMPARE_HELP = `Usage: ${PROGRAM} compare --cases SET --cmd TEMPLATE [options]
       ${PROGRAM} compare --cases SET --batch COMMAND [options]
       ${PROGRAM} compare --cases SET --module FILE [options]
       ${PROGRAM} compare --cases SET --export FILE.jsonl

Runs another robots.txt implementation on a set of cases and checks its
answers (verdicts, and deciding lines when it gives them) against the
reference's, google/robotstxt's; prints the agreement per category, the
disagreements with a minimised robots.txt, and timings.

CASE SETS (--cases SET)
  unit                    google/robotstxt's 145 unit-test vectors
  corpus                  generated from real robots.txt files and URLs
  spec-test:DIR           the .textproto files of a robotstxt-spec-test checkout
  FILE.jsonl              one case per line: {"robots", "agent", "url", ...}

CASE OPTIONS
  --count N               corpus: cases to make (default 10,000); else a sample
  --seed N                seed of generation and sampling (default 1)
  --robots-dir DIR        corpus: your robots.txt files, named by host
  --urls FILE             corpus, with --robots-dir: real URLs to add
  --category A,B          only the cases in these categories
  --multi-agent           also cases whose crawler has several tokens
  --export FILE           write the cases and the reference's answers as JSONL

ADAPTERS (one of, or --export alone)
  --cmd TEMPLATE          a process per case: %robots% (a file), %url% and
                          %user-agent% replaced in the words of TEMPLATE
  --batch COMMAND         one 'sh -c' process: reads {"id", "robots_path",
                          "agent", "url"} lines, writes {"id", "allowed"}
  --module FILE           an ES module: parse(bytes) -> {isAllowed(url, agent)}
  --timeout MS            per case or answer (default 10000)
  --allowed-exit N        --cmd: the exit status for allowed (default 0)
  --disallowed-exit N     --cmd: the exit status for disallowed (default 1)
  --allowed-pattern RE    --cmd: allowed when stdout matches RE
  --disallowed-pattern RE --cmd: disallowed when stdout matches RE
  --line-pattern RE       --cmd: the deciding line, RE's first group on stdout
  --concurrency N         --cmd: processes at once (default: the CPUs)
  --batch-robots HOW      --batch: path (default) or inline (the body in JSON)
  --window N              --batch: requests in flight (default 256)

REPORT
  --json FILE             the whole report as JSON
  --html FILE             a self-contained page with a chart
  --show N                disagreements shown in the terminal (default 5)
  --minimise N            disagreements to minimise (default 20; 0: none)
  --minimise-calls N      adapter calls per minimisation (default 200)
  --min-agreement P       exit 0 when P percent of the cases agree (default 100)
  -q, --quiet             no progress bar or notes on stderr
  -h, --help              print this help
  -V, --version           print the version

EXIT STATUS
  0  every case agrees (or --min-agreement is reached), or --export alone
  1  some case disagrees, or the implementation could not be run
  2  usage error

EXAMPLES
  # google/robotstxt's unit vectors against a JavaScript library, in process
  ${PROGRAM} compare --cases unit --module ./adapter.mjs

  # 100,000 cases from real files through one long-running adapter process
  ${PROGRAM} compare --cases corpus --count 100000 \\
      --batch 'node batch-adapter.mjs' --html report.html

  # a CI gate on a spec-test checkout, one process per case, 99.5 % to pass
  ${PROGRAM} compare --cases spec-test:robotstxt-spec-test \\
      --cmd './mytool %robots% %url% %user-agent%' --min-agreement 99.5
`
