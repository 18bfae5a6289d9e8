/** The help of `lint` (`robots-automaton lint --help`); the manual is docs/lint.md. */
import { PROGRAM } from '../common/version.js'
import { ROBOTS_URL_HELP } from '../common/load-robots.js'

/** Help of `lint`. */
export const LINT_HELP = `Usage: ${PROGRAM} lint [options] ROBOTS...

Prints every diagnostic of each robots.txt (a file, '-', an http(s) URL, or a
directory: its files, recursively) as FILE:LINE: SEVERITY: MESSAGE [CODE],
then on stderr a summary per file (all diagnostics counted) and a total.

OPTIONS
  --format F       text (default), or jsonl: one JSON object per file, its
                   diagnostics and totals
  --json           the same as --format jsonl
  -q, --quiet      no summary on stderr
  -h, --help       print this help
  -V, --version    print the version

${ROBOTS_URL_HELP}

EXIT STATUS
  0  no errors (warnings and infos do not count)
  1  an error in some file, a file that cannot be read, or a URL that
     cannot be fetched (unless --stand-in)
  2  usage error

EXAMPLES
  # the diagnostics of one file, with line numbers
  ${PROGRAM} lint robots.txt

  # every file under robots/, recursively, with a summary of each and a total
  ${PROGRAM} lint robots/

  # one JSON object per file, for a dashboard
  ${PROGRAM} lint --format jsonl robots/ > lint.jsonl
`
