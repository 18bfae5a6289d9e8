/** The help of `check` (`robots-automaton check --help`); the manual is docs/check.md. */
import { PROGRAM } from '../common/version.js'
import { ROBOTS_URL_HELP } from '../common/load-robots.js'

/** Help of `check`. */
export const CHECK_HELP = `Usage: ${PROGRAM} check ROBOTS --agent A [options] [URL...]
       ${PROGRAM} check ROBOTS --crawlers A,B,C [options] [URL...]

Prints each URL's verdict and the robots.txt rule that decided it. ROBOTS is
a file, '-' for stdin, or an http(s) URL (its /robots.txt is fetched); the
URLs are read from stdin, one per line, when none is given or where one is '-'.

OPTIONS
  --agent A        the crawler's token, e.g. Googlebot (repeatable: one
                   crawler answering to each token)
  --crawlers LIST  several crawlers, each judged as it would be alone: A,B,C
                   (A+B: one crawler of two tokens) or @FILE (one a line);
                   a line per URL and crawler: VERDICT<TAB>CRAWLER<TAB>URL...
  --require R      with --crawlers, when a URL counts as allowed (the
                   summary, --exit-code, JSON's allowed): all (default), any
  --format F       text (default), or jsonl: one JSON object per URL
  --json           the same as --format jsonl
  --exit-code      exit status 3 when any URL is disallowed
  -q, --quiet      no summary on stderr
  -h, --help       print this help
  -V, --version    print the version

${ROBOTS_URL_HELP}

OUTPUT
  allowed<TAB>/pub<TAB>no matching rule
  disallowed<TAB>/private/x<TAB>line 2: Disallow: /private
  allowed<TAB>/d/<TAB>implied: Allow: /d/$ (from line 3: Allow: /d/index.html)
  Control characters in a URL or rule are written \\xHH, a backslash \\\\.

EXIT STATUS
  0  success; with --exit-code, every URL is allowed
  1  failure: a file that cannot be read, a URL that cannot be fetched, ...
  2  usage error
  3  with --exit-code, some URL is disallowed
  4  with --exit-code, no URL was checked (an empty stdin)

EXAMPLES
  # the verdicts of two paths for Googlebot, with the rules that decided them
  ${PROGRAM} check robots.txt --agent Googlebot /private/x /pub

  # three crawlers at once, the second answering to two tokens
  ${PROGRAM} check robots.txt \\
      --crawlers GPTBot,Googlebot-Image+Googlebot,CCBot /images/logo.png /x

  # in a script: exit status 3 if Googlebot may not fetch a URL of urls.txt
  ${PROGRAM} check robots.txt --agent Googlebot --exit-code < urls.txt
`
