/**
 * The help of the program as a whole (`robots-automaton --help`). Each
 * command's help lives beside the command: commands/<command>-help.ts.
 */
import { PROGRAM } from './common/version.js'

/** Help of the program as a whole. */
export const MAIN_HELP = `Usage: ${PROGRAM} <command> [options]

Robots Exclusion Protocol (RFC 9309) with the answers of google/robotstxt.

COMMANDS
  check       the verdict and deciding rule for each URL
  fetch       the robots.txt of every host of a URL list or log, into a bundle
  filter      the allowed (or disallowed) lines of a URL list or log
  lint        diagnostics of robots.txt files, with line numbers
  pack        many hosts' robots.txt (or bundles merged) in one bundle
  diff        the URLs whose verdict changes between two robots.txt
  audit       which crawlers may fetch everything, some or nothing, per host
  compare     check and time another implementation against the reference
  playground  serve the robots.txt tester page on 127.0.0.1 (in a browser)

'${PROGRAM} <command> --help' shows a command's options and examples.
ROBOTS is a file, '-' for stdin, or an http(s) URL (its /robots.txt is
fetched; other schemes are a usage error). --agent may be repeated: one
crawler answering to several tokens, with the reference's multi-agent rules;
--crawlers A,B judges several crawlers in one pass, each as it would be alone
(check, filter, diff, audit).
Every stderr line starts with '${PROGRAM}: '.

OPTIONS
  -h, --help       print this help
  -V, --version    print '${PROGRAM} VERSION' (every command takes it too)

ENVIRONMENT
  ROBOTS_AUTOMATON_PROGRESS=1|0   progress bar on or off, whatever the terminal
  NO_COLOR                        a progress bar without escape sequences
  TERM=dumb                       no progress bar

EXIT STATUS
  0  success
  1  runtime failure (a file that cannot be read, lint errors, ...)
  2  usage error
  3  a verdict: check --exit-code found a disallowed URL; diff a change;
     audit OLD NEW a class that changed

The manuals are docs/cli.md and a page per command (docs/check.md,
docs/filter.md, docs/compare.md, ...) in the source repository,
https://github.com/robots-automaton/robots-automaton
`
