/** The help of `filter` (`robots-automaton filter --help`); the manual is docs/filter.md. */
import { availableParallelism } from 'node:os'
import { DEFAULT_CACHE_MB } from '../filter/host-judge.js'
import { defaultJobs } from '../filter/parallel.js'
import { PROGRAM } from '../common/version.js'
import { ROBOTS_URL_HELP } from '../common/load-robots.js'
import { INPUT_HELP } from '../filter/line-layout.js'

/** Help of `filter`. */
export const FILTER_HELP = `Usage: ${PROGRAM} filter --robots ROBOTS --agent A [options] [FILE...]
       ${PROGRAM} filter --robots-dir DIR --agent A [options] [FILE...]
       ${PROGRAM} filter --bundle BUNDLE --agent A [options] [FILE...]
       ${PROGRAM} filter RULES --crawlers A,B,C [options] [FILE...]

Judges the URL of each line of the FILEs (or stdin; gzip or not) and writes the
allowed lines to stdout, unchanged and in input order; a summary goes to stderr.
A line without a URL (a path or an http(s) URL) is never judged: see --invalid.

RULES (one of --robots, --robots-dir, --bundle)
  --robots ROBOTS    one robots.txt for every URL (a file, '-' or http(s) URL)
  --robots-dir DIR   per host: the file DIR/<host> (the host as URLs give it:
                     lowercase, punycode, no port: xn--bcher-kva.de)
  --bundle BUNDLE    per host: a bundle written by '${PROGRAM} pack'
  --missing V        per host, without a robots.txt: allow (default), disallow
  --cache-mb MB      per host: memory for compiled rules (default ${DEFAULT_CACHE_MB})

CRAWLERS (--agent or --crawlers)
  --agent A          the crawler's token, e.g. Googlebot (repeatable: one
                     crawler answering to each token; '' names the groups
                     whose User-agent reads as empty, with a warning)
  --crawlers LIST    several crawlers in one pass, each judged as it would be
                     alone: A,B,C (A+B: one crawler of two tokens), or @FILE
                     (one a line); repeatable
  --require R        with --crawlers, what --print allowed (disallowed)
                     writes: the lines all (default) or any of them may (may
                     not) fetch; JSON's allowed is all (any) allowed

OPTIONS
  --print WHAT       allowed (default), disallowed, or verdicts: every line as
                     VERDICT<TAB>RULE LINE (0: none)<TAB>LINE (VERDICT invalid:
                     not judged); with --crawlers, a VERDICT column per
                     crawler, then the line
  --format F         text (default), or jsonl: one JSON object per line, with
                     its line number (allowed null: not judged, and why);
                     with --crawlers, "crawlers": each one's verdict and rule
  --invalid WHAT     a line without a URL (or, per host, a host) is not judged:
                     keep it in the output (default), drop it, or fail (exit 4);
                     the first one is named on stderr either way
  --line-buffered    write each line as soon as it is judged (for 'tail -f')
  -j, --jobs N       threads judging lines (default: 1 with 2 CPUs or fewer,
                     where workers do not pay; else the CPUs, at most 4;
                     here ${defaultJobs(availableParallelism())})
  -q, --quiet        no progress bar, warnings or summary on stderr
  -h, --help         print this help
  -V, --version      print the version

${ROBOTS_URL_HELP}

LOGS (the whole line is written; the URL is judged)
${INPUT_HELP}

EXIT STATUS
  0  success
  1  failure: a file that cannot be read, a URL that cannot be fetched, ...
  2  usage error
  4  no line held a URL (per host: with a host), or --invalid fail met one

EXAMPLES
  # every URL's verdict and deciding line, by its host's file in robots/
  ${PROGRAM} filter --robots-dir robots/ --agent Googlebot \\
      --print verdicts urls.txt.gz

  # the lines of an Apache or nginx vhost access log Googlebot may not fetch
  ${PROGRAM} filter --bundle robots.bundle --agent Googlebot \\
      --log-format vhost_combined --print disallowed other_vhosts_access.log

  # the URLs no AI crawler may fetch, one pass for all four
  ${PROGRAM} filter --robots-dir robots/ \\
      --crawlers GPTBot,CCBot,ClaudeBot,Google-Extended \\
      --print disallowed --require all urls.txt.gz
`
