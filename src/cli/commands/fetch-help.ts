/** The help of `fetch` (`robots-automaton fetch --help`); the manual is docs/cli.md#fetch. */
import { PROGRAM } from '../common/version.js'
import { INPUT_HELP } from '../filter/line-layout.js'
import { DEFAULT_CONCURRENCY, DEFAULT_TIMEOUT_S } from '../fetch/fetch-pool.js'

/** Help of `fetch`. */
export const FETCH_HELP = `Usage: ${PROGRAM} fetch [options] [FILE...] -o OUTPUT
       ${PROGRAM} fetch --update BUNDLE [options] [FILE...] -o OUTPUT

Fetches the robots.txt of every distinct origin (scheme, host, port) named in
the FILEs (or stdin; URL lists and logs, gzip or not, read as 'filter' reads
them) with the access method of RFC 9309, and writes them into one bundle for
'${PROGRAM} filter --bundle'. Each entry keeps its outcome, HTTP
status, fetch time, expiry and validators (ETag, Last-Modified). Interrupted
(Ctrl-C, SIGTERM), it writes what it fetched; --update then goes on.

OUTPUT
  -o, --output FILE  the file to write ('-': stdout)
  --format F         bundle (default), or jsonl: one JSON object per origin
                     (outcome, status, bytes, times, error, rules), which
                     '${PROGRAM} pack' reads
  --update BUNDLE    refresh BUNDLE: entries not expired are kept, expired
                     ones fetched again conditionally (304 keeps the rules,
                     unreachable keeps the old ones), the FILEs' new origins
                     added; without FILE, BUNDLE alone ('-' reads stdin)

FETCHING
  --concurrency N    requests in flight (default ${DEFAULT_CONCURRENCY})
  --timeout SECONDS  deadline of each fetch, redirects and body (default ${DEFAULT_TIMEOUT_S})
  --user-agent UA    the User-Agent header (default ${PROGRAM}/VERSION)
  --resolve HOST:PORT:ADDRESS[,ADDRESS...]
                     connect to ADDRESS for HOST:PORT (curl's option; HOST
                     '*' is every host; repeatable)
  --connect-to HOST1:PORT1:HOST2:PORT2
                     connect to HOST2:PORT2 for HOST1:PORT1 (curl's option;
                     an empty part is any host or port, or the request's own)

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

EXIT STATUS
  0 written; 130 or 143 interrupted by SIGINT or SIGTERM (what was fetched
  is written); 4 no line named a host; 1 failure (an input or a bundle that
  cannot be read)

EXAMPLES
  # every host's robots.txt in a URL list, into one bundle for filter
  ${PROGRAM} fetch urls.txt -o robots.bundle

  # from an Apache or nginx vhost access log (host:port in the first column)
  ${PROGRAM} fetch --log-format vhost_combined other_vhosts_access.log \\
      -o robots.bundle

  # a day later: fetch again what expired (an unchanged file answers 304)
  ${PROGRAM} fetch --update robots.bundle urls.txt -o robots.new.bundle
`
