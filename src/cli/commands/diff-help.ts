/** The help of `diff` (`robots-automaton diff --help`); the manual is docs/diff.md. */
import { PROGRAM } from '../common/version.js'
import { ROBOTS_URL_HELP } from '../common/load-robots.js'
import { INPUT_HELP } from '../filter/line-layout.js'

/** Help of `diff`. */
export const DIFF_HELP = `Usage: ${PROGRAM} diff OLD NEW --agent A [options] [FILE...]
       ${PROGRAM} diff --robots-dir|--bundle OLD --robots-dir|--bundle NEW
                     --agent A [options] [FILE...]

Prints the URLs whose verdict differs between the robots.txt OLD and NEW (each
a file, '-' or an http(s) URL), or per host between two directories or
bundles (as 'filter --robots-dir' and '--bundle' read them; the first given
is OLD), with the deciding rule on each side. URLs are read from the FILEs, or
stdin, gzip or not, as filter reads them; a line without a URL is named on
stderr and not compared.

OPTIONS
  --agent A          the crawler's token, e.g. Googlebot (repeatable: one
                     crawler answering to each token)
  --crawlers LIST    several crawlers, each judged as it would be alone: A,B,C
                     (A+B: one crawler of two tokens) or @FILE; a line per URL
                     and crawler whose verdict changes: CHANGE<TAB>CRAWLER<TAB>
                     URL<TAB>OLD RULE<TAB>NEW RULE; JSON: "crawlers"
  --robots-dir DIR   per host: OLD's or NEW's files DIR/<host> (give two)
  --bundle BUNDLE    per host: OLD's or NEW's bundle (give two)
  --format F         text (default), or jsonl: one JSON object per change
  -q, --quiet        no warnings or summary on stderr
  -h, --help         print this help
  -V, --version      print the version

${ROBOTS_URL_HELP}

LOGS (as filter reads them)
${INPUT_HELP}

OUTPUT
  now-disallowed<TAB>URL<TAB>line 2: Allow: /a<TAB>line 5: Disallow: /
  now-allowed<TAB>URL<TAB>line 3: Disallow: /tmp<TAB>no matching rule
  Control characters in a URL or rule are written \\xHH, a backslash \\\\.

EXIT STATUS
  0  no verdict changes
  1  failure: a file that cannot be read, a URL that cannot be fetched, ...
  2  usage error
  3  some verdict changes
  4  no line of the input held a URL (per host: a URL with a host)

EXAMPLES
  # the URLs of urls.txt whose verdict an edit would change, per crawler
  ${PROGRAM} diff robots.txt robots.txt.new \\
      --crawlers Googlebot,GPTBot urls.txt

  # the live robots.txt against the edit, over the requests of an access log
  ${PROGRAM} diff https://www.example.com/ robots.txt.new \\
      --agent Googlebot --log-format combined access.log

  # what a refreshed bundle changes for a crawl frontier, as JSON lines
  ${PROGRAM} diff --bundle old.bundle --bundle new.bundle \\
      --agent Googlebot --format jsonl frontier.txt.gz > changes.jsonl
`
