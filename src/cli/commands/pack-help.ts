/** The help of `pack` (`robots-automaton pack --help`); the manual is docs/pack.md. */
import { PROGRAM } from '../common/version.js'

/** Help of `pack`. */
export const PACK_HELP = `Usage: ${PROGRAM} pack (DIR | FILE.jsonl | BUNDLE | -)... -o BUNDLE

Parses many hosts' robots.txt once and writes them into one bundle file, for
'${PROGRAM} filter --bundle BUNDLE' (or RobotsStore.fromBytes in code).
Several inputs are merged into one bundle.

INPUT (one or more)
  DIR          one robots.txt per host, DIR/<host> (as 'filter --robots-dir')
  FILE.jsonl   one JSON object per line (a file or '-', gzip or not):
                 {"origin": "https://example.com", "body": "User-agent: *..."}
                 {"origin": "example.org", "body_base64": "VXNlci1hZ2VudDog..."}
                 {"origin": "example.net", "outcome": "unreachable"}
               or the records of '${PROGRAM} fetch --format jsonl';
               "origin": a site (scheme://host[:port]) or a bare host, for
               every scheme and port; "outcome": unavailable (allow all) or
               unreachable (disallow all)
  BUNDLE       a bundle (of 'fetch' or 'pack'; a file or '-', gzip or not):
               its entries, fetch info kept
A key given more than once: the newest fetch wins (entries without a fetch
time count as oldest), else the one given last.

OPTIONS
  -o, --output BUNDLE   the bundle to write ('-': stdout)
  -q, --quiet           no summary or warnings on stderr
  -h, --help            print this help
  -V, --version         print the version

EXIT STATUS
  0  written
  1  failure: an input that cannot be read, no host to pack, a bad input
     line or bundle, an entry that cannot be read (no bundle is written:
     the output is left as it was), an output that cannot be written
  2  usage error

EXAMPLES
  # one bundle from a directory of robots.txt files named by host
  ${PROGRAM} pack robots/ -o robots.bundle

  # one bundle from a crawler's fetch results, as gzipped JSON lines
  ${PROGRAM} pack fetched.jsonl.gz -o robots.bundle

  # the bundles of several fetch workers merged (the newest fetch wins)
  ${PROGRAM} pack part-1.bundle part-2.bundle -o robots.bundle
`
