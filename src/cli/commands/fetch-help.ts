/** The help of `fetch` (`robots-automaton fetch --help`); the manual is docs/fetch.md. */
import { PROGRAM } from '../common/version.js'
import { INPUT_HELP } from '../filter/line-layout.js'
import { DEFAULT_CONCURRENCY, DEFAULT_PER_IP, DEFAULT_TIMEOUT_S } from '../fetch/fetch-pool.js'
import { NET_HELP } from '../common/net-options.js'

/** Help of `fetch`. */
export const FETCH_HELP = `Usage: ${PROGRAM} fetch [options] [FILE...] -o OUTPUT
       ${PROGRAM} fetch --update BUNDLE [options] [FILE...] -o OUTPUT

Fetches the robots.txt of every distinct origin (scheme, host, port) named in
the FILEs (or stdin; URL lists and logs, gzip or not, read as 'filter' reads
them; without an input option, a line may also be a host alone:
'example.com', 'example.com:8080') with the access method of RFC 9309, and
writes them into one bundle for '${PROGRAM} filter --bundle'. Each
entry keeps its outcome, HTTP status, fetch time, expiry and validators
(ETag, Last-Modified).

Every finished origin goes to a journal beside the output (OUTPUT.journal)
as it completes. Killed, interrupted (Ctrl-C, SIGTERM, SIGHUP) or crashed,
the same command run again fetches only the origins the journal lacks; the
output, written once complete, is then what an uninterrupted run writes, and
the journal is removed.

OUTPUT
  -o, --output FILE  the file to write: replaced once complete (a link: its
                     target); a FIFO, a device or '-' (stdout) is streamed
  --format F         bundle (default), or jsonl: one JSON object per origin
                     (outcome, status, bytes, times, error, rules), which
                     '${PROGRAM} pack' reads
  --update BUNDLE    refresh BUNDLE: entries not expired are kept, expired
                     ones fetched again conditionally (304 keeps the rules,
                     unreachable keeps the old ones), the FILEs' new origins
                     added; without FILE, BUNDLE alone ('-' reads stdin)
  --refresh-older-than DURATION
                     with --update: fetch again the entries fetched longer
                     ago than DURATION (30m, 12h, 7d; 0: all), expired or not
  --journal FILE     the journal's path (default OUTPUT.journal; none for a
                     streamed output unless given)

FETCHING
  --concurrency N    origins in hand at once (default ${DEFAULT_CONCURRENCY}); lowered,
                     with a note, to what the limit on open files allows
  --per-ip N         requests in flight to one address at most (default
                     ${DEFAULT_PER_IP}), whatever the number of names on it
  --timeout SECONDS  deadline of each fetch: look-up, redirects, body (default
                     ${DEFAULT_TIMEOUT_S}; SECONDS here and below: at least 0.001)
  --give-up-after SECONDS
                     stop when nothing could be fetched that long, only
                     failures of this machine (default 120)
  --user-agent UA    the User-Agent header (default ${PROGRAM}/VERSION)
  --allow-private    fetch from loopback, private, link-local and other
                     non-public addresses too (refused by default, first
                     request and redirects alike: outcome 'refused')
${NET_HELP}

LOGS
${INPUT_HELP}
  --scheme S         https (default) or http: how a host given without a
                     scheme is fetched (port 80 is http, 443 https); a
                     host column or --host makes entries per host, as
                     'filter' looks them up

OPTIONS
  -q, --quiet        no progress bar, warnings or summary on stderr
  -h, --help         print this help
  -V, --version      print the version

Failures of this machine (too many open files, no memory, no free local
port, a DNS server that cannot be reached) are never written as a site's
outcome: the origin is fetched again after a pause; a run that makes no
progress for minutes stops (exit 1) and keeps its journal. An origin this
machine cannot reach (no route, a firewall) is left out after five tries:
the rest is written, the journal kept for the same command to fetch it
again, exit 1.

EXIT STATUS
  0  written, every origin
  1  failure: an input, a bundle or the output that cannot be read or
     written, no progress possible on this machine, or origins this
     machine could not fetch left out (the rest written)
  2  usage error
  4  no line named a host (with --update too), or the list is empty
  130, 143, 129
     interrupted by SIGINT, SIGTERM or SIGHUP: what was fetched is written,
     and the journal kept

EXAMPLES
  # every host's robots.txt in a URL list (or a host list), into one bundle
  ${PROGRAM} fetch urls.txt -o robots.bundle

  # from an Apache or nginx vhost access log (host:port in the first column)
  ${PROGRAM} fetch --log-format vhost_combined other_vhosts_access.log \\
      -o robots.bundle

  # later: fetch again what expired, or everything older than 6 hours
  ${PROGRAM} fetch --update robots.bundle --refresh-older-than 6h \\
      --log-format vhost_combined other_vhosts_access.log -o robots.bundle
`
