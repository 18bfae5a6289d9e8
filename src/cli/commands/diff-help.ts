/** The help of `diff` (`robots-automaton diff --help`); the manual is docs/cli.md#diff. */
import { PROGRAM } from '../common/version.js'
import { INPUT_HELP } from '../filter/line-layout.js'

/** Help of `diff`. */
export const DIFF_HELP = `Usage: ${PROGRAM} diff OLD NEW --agent A [options] [FILE...]

Prints the URLs whose verdict differs between the robots.txt OLD and NEW (each
a file, '-' or an http(s) URL), with the deciding rule on each side. URLs are
read one per line from the FILEs, or stdin, gzip or not.

OPTIONS
  --agent A        the crawler's token, e.g. Googlebot (required; repeatable)
  --format F       lines (default), or jsonl: one JSON object per change
  -q, --quiet      no summary on stderr
  -h, --help       print this help
  -V, --version    print the version

LOGS (as filter reads them)
${INPUT_HELP}

OUTPUT
  now-disallowed<TAB>URL<TAB>line 2: Allow: /a<TAB>line 5: Disallow: /
  now-allowed<TAB>URL<TAB>line 3: Disallow: /tmp<TAB>no matching rule

EXIT STATUS
  0  no verdict changes
  1  failure: a file that cannot be read, ...
  2  usage error
  3  some verdict changes

EXAMPLES
  # the URLs of urls.txt whose verdict for Googlebot an edit would change
  ${PROGRAM} diff robots.txt robots.txt.new --agent Googlebot urls.txt

  # the live robots.txt against the edit, over the requests of an access log
  ${PROGRAM} diff https://www.example.com/ robots.txt.new \\
      --agent Googlebot --log-format combined access.log

  # the changes as JSON lines, for a review tool
  ${PROGRAM} diff robots.txt robots.txt.new --agent Googlebot \\
      --format jsonl urls.txt.gz > changes.jsonl
`
