/** The help of `playground` (`robots-automaton playground --help`); the manual is docs/playground.md. */
import { PROGRAM } from '../common/version.js'

/** The default port of `playground`: RFC 9309's number. */
export const DEFAULT_PORT = 9309

/** Help of `playground`. */
export const PLAYGROUND_HELP = `Usage: ${PROGRAM} playground [--port N]
       ${PROGRAM} playground --out DIR

Serves the robots.txt tester page on http://127.0.0.1:PORT/ and prints that
address on stdout, until Ctrl-C: an editor with the diagnostics at their
lines, a URL list, the verdict and deciding line of each URL, two versions
compared, and the whole case in the page's link. The page judges in the
browser with this library; the server only hands out its two files and
listens on the loopback address alone. With --out, the two files are written
to DIR instead, to open from disk or to put on any static web server.

OPTIONS
  --port N         the port to listen on (default ${DEFAULT_PORT}; 0: any free port)
  -o, --out DIR    write index.html and playground.js into DIR, and exit
  -h, --help       print this help
  -V, --version    print the version

EXIT STATUS
  0  stopped by Ctrl-C (SIGINT) or SIGTERM, or the files written
  1  the port is in use, or DIR cannot be written
  2  usage error

EXAMPLES
  # serve the page on any free port; its address is the only line on stdout
  ${PROGRAM} playground --port 0

  # the page's files in a folder, to open offline or to publish
  ${PROGRAM} playground --out site/
`
