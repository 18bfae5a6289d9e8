/** The help of `audit` (`robots-automaton audit --help`); the manual is docs/audit.md. */
import { PROGRAM } from '../common/version.js'
import { INPUT_HELP } from '../filter/line-layout.js'
import { DEFAULT_CONCURRENCY, DEFAULT_PER_IP, DEFAULT_TIMEOUT_S } from '../fetch/fetch-pool.js'
import { NET_HELP } from '../common/net-options.js'

/** Help of `audit`. */
export const AUDIT_HELP = `Usage: ${PROGRAM} audit SNAPSHOT --crawlers LIST [options]
       ${PROGRAM} audit OLD NEW --crawlers LIST [options]
       ${PROGRAM} audit --fetch [FILE...] --crawlers LIST [options]

For each host of a snapshot and each crawler: whether the crawler may fetch
everything, some paths or nothing, whether a group names it or the '*'
groups decide, and the host's fetch outcome; then, per crawler, the number
and share of hosts in each class. A SNAPSHOT is a bundle ('pack' or 'fetch'
writes one) or a directory of robots.txt files named by host (as
'filter --robots-dir' reads it). With OLD and NEW: the hosts whose
class changed, per crawler. With --fetch: the hosts and URLs of the FILEs
(or stdin), one a line, their robots.txt fetched now.

CRAWLERS
  --crawlers LIST    crawlers separated by ',' (A+B: one crawler answering to
                     two tokens), or @FILE (one a line); repeatable

SNAPSHOTS
  SNAPSHOT           a bundle file or a directory (told apart by what it is)
  --bundle FILE      a bundle, named as such (give two for OLD and NEW)
  --robots-dir DIR   a directory of files DIR/<host> (likewise)

OUTPUT
  --format F         csv (default): a row per host and crawler (host, crawler,
                     access, group, outcome, status, truncated, allowed_path,
                     disallowed_path), the summary table on stderr; jsonl: the
                     same as JSON lines; table (or text): the table alone, on
                     stdout. CSV writes control characters \\xHH, a
                     backslash \\\\, a first = + - @ (a formula) \\x3d...
  -q, --quiet        no warnings, progress or summary on stderr

CLASSES (docs/audit.md has the exact definitions)
  everything         no path is disallowed (outcomes no-file, unavailable too)
  some               some paths are disallowed and some are not
  nothing            no path is allowed ('Disallow: /', an unreachable host)
  unknown            not the site's doing: a file that cannot be read, a
                     fetch not made, a host absent from one snapshot
  outcome            ok, no-file (404, 410), unavailable (other 4xx),
                     unreachable (5xx, network); not the site's: refused
                     (a non-public address), unreadable, error, absent

FETCHING (with --fetch)
  --fetch            fetch the robots.txt of every host and URL of the FILEs
  --save BUNDLE      also write what was fetched, as a bundle (a later OLD);
                     each host fetched goes to BUNDLE.journal meanwhile, so
                     the same command run again after a kill or Ctrl-C
                     fetches only the hosts it lacks
  --journal FILE     keep the journal there (needed to go on without --save)
  --concurrency N    origins in hand at once (default ${DEFAULT_CONCURRENCY}); lowered,
                     with a note, to what the limit on open files allows
  --per-ip N         requests in flight to one address at most (default
                     ${DEFAULT_PER_IP})
  --timeout SECONDS  deadline of each fetch (default ${DEFAULT_TIMEOUT_S}; SECONDS
                     here and below: at least 0.001)
  --give-up-after SECONDS
                     stop when nothing could be fetched that long, only
                     failures of this machine (default 120; such failures
                     are retried, never a host's outcome)
  --user-agent UA    the User-Agent header (default ${PROGRAM}/VERSION)
  --allow-private    fetch from non-public addresses too (refused by
                     default: outcome 'refused', class unknown)
${NET_HELP}
  --scheme S         https (default) or http, for a host without a scheme

LISTS (with --fetch: by default a line is a host or a URL)
${INPUT_HELP}

OPTIONS
  -h, --help         print this help
  -V, --version      print the version

EXIT STATUS
  0  success; with OLD and NEW, no class changed
  1  failure: a snapshot that cannot be read, a --save path that cannot
     be written, a --fetch run where only this machine's failures went on,
     or hosts it could not fetch (rows written, the journal kept)
  2  usage error
  3  with OLD and NEW, some class changed
  4  no host: the snapshot (OLD and NEW both) holds none, or the --fetch
     list names none (or is empty)
  130, 143, 129
     --fetch interrupted by SIGINT, SIGTERM or SIGHUP: nothing audited
     (the journal keeps what was fetched)

EXAMPLES
  # the summary table of a directory of robots.txt files, for a list of crawlers
  ${PROGRAM} audit robots/ --crawlers @ai-crawlers.txt --format table

  # what changed for these crawlers between two bundles, a JSON line each
  ${PROGRAM} audit old.bundle new.bundle \\
      --crawlers GPTBot,CCBot,Googlebot --format jsonl

  # fetch a list of hosts now, a row per host and crawler, and keep the bundle
  ${PROGRAM} audit --fetch hosts.txt --crawlers GPTBot,Google-Extended \\
      --save today.bundle > audit.csv
`
