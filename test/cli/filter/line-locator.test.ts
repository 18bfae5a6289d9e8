/**
 * The one reading of an input line (src/cli/filter/line-locator.ts) that
 * filter, diff and fetch share: the URL (whole line, a column, a request
 * line's target), its host (its own, a host column, --host) or why the line
 * has none, on real Apache and nginx log lines; and the options that set it
 * up (line-layout.ts).
 */
import { describe, expect, it } from 'vitest'
import { parseArgs } from '../../../src/cli/common/args.js'
import { INPUT_OPTIONS, lineLayout, WHOLE_LINES, type LineLayout } from '../../../src/cli/filter/line-layout.js'
import { FAULT_CODES, HostSource, LineFault, LineLocator } from '../../../src/cli/filter/line-locator.js'
import { UsageError } from '../../../src/cli/common/cli-error.js'
import { faultNote, faultSample } from '../../../src/cli/filter/line-faults.js'
import { hostHash } from '../../../src/url/keyed-hash.js'
import { UrlField, PortCode } from '../../../src/url/url-scan.js'
import { scanHashed } from '../../../src/url/scan-access.js'

const enc = new TextEncoder()

/** Real log lines, one per format (Apache's documentation examples, a Debian vhost log, nginx's default). */
const COMMON = '127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326'
const COMBINED = '127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326 "http://www.example.com/start.html" "Mozilla/4.08 [en] (Win98; I ;Nav)"'
const VHOST = 'www.Example.com:443 203.0.113.9 - - [10/Oct/2026:13:55:36 +0000] "GET /private/x?y=1 HTTP/1.1" 200 512 "-" "Mozilla/5.0 (X11; Linux x86_64)"'
const NGINX = '192.168.1.186 - - [06/Aug/2018:09:57:51 +0800] "GET /Public/Css/plugins/morris/morris-0.4.3.min.css HTTP/1.1" 200 442 "http://www.example.com/index.php/Login/index.html" "Mozilla/5.0 (Windows NT 6.1; Win64; x64; rv:61.0) Gecko/20100101 Firefox/61.0"'
const NGINX_TLS = '203.0.113.5 - - [06/Aug/2018:09:57:51 +0800] "\\x16\\x03\\x01\\x00\\xF4\\x01\\x00\\x00\\xF0\\x03\\x03" 400 157 "-" "-"'
const NGINX_DASH = '203.0.113.5 - - [06/Aug/2018:09:57:51 +0800] "-" 400 0 "-" "-"'
const PROXY = '10.0.0.1 - - [06/Aug/2018:09:57:51 +0800] "GET http://Example.org:8080/a?b HTTP/1.1" 200 1 "-" "curl/8.5.0"'
const CONNECT = '10.0.0.1 - - [06/Aug/2018:09:57:51 +0800] "CONNECT example.com:443 HTTP/1.1" 200 0 "-" "curl/8.5.0"'

function layout(...argv: string[]): LineLayout {
  return lineLayout(parseArgs(argv, INPUT_OPTIONS))
}

interface Located {
  fault: string
  url: string
  host: string | null
  source: HostSource
  port?: number
}

function locate(line: string, l: LineLayout, needHost = true, locator = new LineLocator(l, needHost)): Located {
  const b = enc.encode(line)
  const fault = locator.locate(b, 0, b.length)
  const out: Located = { fault: FAULT_CODES[fault] || 'none', url: Buffer.from(locator.shownUrl(b)).toString(), host: locator.hostText(), source: locator.hostSource }
  if (locator.hostSource !== HostSource.None) {
    const h = locator.host
    out.port = h.port
    expect(h.hostHash).toBe(hostHash(locator.hostBytes, h.hostStart, h.hostEnd))
  }
  return out
}

describe('line-locator: URL lists', () => {
  it('a whole line is the URL; paths and http(s) URLs with a host count, anything else says why not', () => {
    expect(locate('https://Example.COM:8443/a', WHOLE_LINES)).toEqual({ fault: 'none', url: 'https://Example.COM:8443/a', host: 'example.com', source: HostSource.Url, port: 8443 })
    expect(locate('/a/b', WHOLE_LINES, false)).toMatchObject({ fault: 'none', url: '/a/b', host: null })
    expect(locate('/a/b', WHOLE_LINES)).toMatchObject({ fault: 'no-host', url: '/a/b' })
    expect(locate('', WHOLE_LINES)).toMatchObject({ fault: 'empty' })
    expect(locate('example.com/a', WHOLE_LINES)).toMatchObject({ fault: 'not-url' })
    expect(locate('ftp://example.com/a', WHOLE_LINES)).toMatchObject({ fault: 'not-url' })
    expect(locate('http:///a', WHOLE_LINES)).toMatchObject({ fault: 'not-url' })
    expect(locate(COMBINED, WHOLE_LINES)).toMatchObject({ fault: 'not-url' })
  })

  it('regression: a URL whose host lies in the path the reference matches (http://u;p@host/x) is bad-host per host, not judged by that host', () => {
    for (const url of ['http://a;b@example.com/x', 'http://;@example.com/x', 'http://example.com;x/x']) {
      expect(locate(url, WHOLE_LINES), url).toMatchObject({ fault: 'bad-host' })
      expect(locate(url, WHOLE_LINES, false), url).toMatchObject({ fault: 'none' })
    }
    expect(locate('http://a@example.com/x;y', WHOLE_LINES)).toMatchObject({ fault: 'none', host: 'example.com' })
  })

  it('--host names the host of paths; a URL keeps its own', () => {
    const l = layout('--host', 'https://www.example.com:8443')
    expect(locate('/a', l)).toEqual({ fault: 'none', url: '/a', host: 'www.example.com', source: HostSource.Option, port: 8443 })
    expect(locate('https://other.test/a', l)).toMatchObject({ host: 'other.test', source: HostSource.Url })
    expect(locate('/a', layout('--host', 'Example.com'))).toMatchObject({ host: 'example.com', port: PortCode.None })
  })
})

describe('line-locator: access logs', () => {
  it('--log-format common and combined take the request line; the host from --host, or none', () => {
    // A combined line is a common one with more fields; a common line lacks combined's referrer and agent.
    expect(locate(COMMON, layout('--log-format', 'common'))).toMatchObject({ fault: 'no-host', url: '/apache_pb.gif' })
    expect(locate(COMMON, layout('--log-format', 'combined'))).toMatchObject({ fault: 'no-request' })
    for (const format of ['common', 'combined']) {
      expect(locate(COMBINED, layout('--log-format', format))).toMatchObject({ fault: 'no-host', url: '/apache_pb.gif' })
      expect(locate(COMBINED, layout('--log-format', format), false)).toMatchObject({ fault: 'none', url: '/apache_pb.gif', host: null })
      expect(locate(NGINX, layout('--log-format', format, '--host', 'www.example.com'))).toMatchObject({
        fault: 'none',
        url: '/Public/Css/plugins/morris/morris-0.4.3.min.css',
        host: 'www.example.com',
      })
    }
  })

  it('--log-format vhost_combined takes the host from the first column', () => {
    expect(locate(VHOST, layout('--log-format', 'vhost_combined'))).toEqual({ fault: 'none', url: '/private/x?y=1', host: 'www.example.com', source: HostSource.Column, port: 443 })
  })

  it('a proxy log\'s absolute URL keeps its own host', () => {
    expect(locate(PROXY, layout('--log-format', 'combined'))).toMatchObject({ fault: 'none', url: 'http://Example.org:8080/a?b', host: 'example.org', port: 8080, source: HostSource.Url })
  })

  it('lines that hold no request: a TLS handshake, "-", CONNECT, a short line, a URL list line', () => {
    const l = layout('--log-format', 'combined')
    expect(locate(NGINX_TLS, l)).toMatchObject({ fault: 'no-request' })
    expect(locate(NGINX_DASH, l)).toMatchObject({ fault: 'empty-request' })
    expect(locate(CONNECT, l)).toMatchObject({ fault: 'not-url', url: 'example.com:443' })
    expect(locate('127.0.0.1 - -', l)).toMatchObject({ fault: 'no-request' })
    expect(locate('https://example.com/a', l)).toMatchObject({ fault: 'no-request' })
    // A vhost line read as combined: the virtual host is read as the client, and its paths have no host.
    expect(locate(VHOST, l)).toMatchObject({ fault: 'no-host', url: '/private/x?y=1' })
  })

  it('--field N on a quoted request line takes its target; on another column, the column', () => {
    expect(locate(COMBINED, layout('--field', '5'), false)).toMatchObject({ fault: 'none', url: '/apache_pb.gif' })
    expect(locate(COMBINED, layout('--field', '8'))).toMatchObject({ fault: 'none', url: 'http://www.example.com/start.html', host: 'www.example.com' })
    expect(locate(COMBINED, layout('--field', '9'))).toMatchObject({ fault: 'not-url', url: 'Mozilla/4.08 [en] (Win98; I ;Nav)' })
    expect(locate(COMBINED, layout('--field', '12'))).toMatchObject({ fault: 'no-field' })
    expect(locate(VHOST, layout('--field', '6', '--host-field', '1'))).toMatchObject({ fault: 'none', url: '/private/x?y=1', host: 'www.example.com' })
    expect(locate('a,/p,', layout('--field', '2', '--host-field', '3', '--delimiter', ','))).toMatchObject({ fault: 'no-host', url: '/p' })
    expect(locate('a,/p,b.test:81', layout('--field', '2', '--host-field', '3', '--delimiter', ','))).toMatchObject({ fault: 'none', host: 'b.test', port: 81 })
    // A log's placeholder is no host; a date in the host column is no host the URL parser takes.
    for (const column of ['-', '"-"']) {
      expect(locate(`/p ${column}`, layout('--field', '1', '--host-field', '2')), column).toMatchObject({ fault: 'no-host' })
    }
    for (const column of ['[10/Oct/2026:13:55:36', '+0000]', '10/Oct/2026', 'a%20b', 'xn--a.test']) {
      expect(locate(`/p ${column}`, layout('--field', '1', '--host-field', '2')), column).toMatchObject({ fault: 'bad-host' })
    }
    expect(locate('/p Bücher.de', layout('--field', '1', '--host-field', '2'))).toMatchObject({ fault: 'none', host: 'xn--bcher-kva.de' })
    expect(locate('/p 203.0.113.9', layout('--field', '1', '--host-field', '2'))).toMatchObject({ fault: 'none', host: '203.0.113.9' })
    expect(locate('/p my_host.local', layout('--field', '1', '--host-field', '2'))).toMatchObject({ fault: 'none', host: 'my_host.local' })
  })
})

describe('regression: quoted columns judged as escaped; a host column of another scheme taken as its host', () => {
  it("--field N on a quoted column (a referer) reads it as sent, the server's escapes undone; a --delimiter column (CSV) as written", () => {
    const line = '127.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "GET /a\\x22b HTTP/1.0" 200 1 "http://www.example.com/a\\"b\\\\c\\xc3\\xa9" "x"'
    expect(locate(line, layout('--field', '5'), false)).toMatchObject({ fault: 'none', url: '/a"b' })
    expect(locate(line, layout('--log-format', 'combined'), false)).toMatchObject({ fault: 'none', url: '/a"b' })
    expect(locate(line, layout('--field', '8'))).toMatchObject({ fault: 'none', url: 'http://www.example.com/a"b\\cé', host: 'www.example.com' })
    expect(locate('x,"/a\\"b"', layout('--field', '2', '--delimiter', ','), false)).toMatchObject({ fault: 'none', url: '/a\\"b' })
    // A bracketed column is no quoted one.
    expect(locate('[/a\\x22]', layout('--field', '1'), false)).toMatchObject({ fault: 'none', url: '/a\\x22' })
  })

  it('a host column that is a URL of another scheme (ftp://example.com) is bad-host, never example.com', () => {
    for (const column of ['ftp://example.com', 'wss://example.com:443/', 'file://example.com']) {
      expect(locate(`/p ${column}`, layout('--field', '1', '--host-field', '2')), column).toMatchObject({ fault: 'bad-host' })
    }
    expect(locate('/p https://example.com', layout('--field', '1', '--host-field', '2'))).toMatchObject({ fault: 'none', host: 'example.com' })
  })
})

describe('regression: a CSV column\'s "" judged as two quotes', () => {
  it('--delimiter: the URL and host columns are read as CSV reads them, each "" inside quotes one quote; a backslash is a byte', () => {
    const csv = layout('--field', '2', '--delimiter', ',')
    expect(locate('1,"/p""x",2', csv, false)).toMatchObject({ fault: 'none', url: '/p"x' })
    expect(locate('1,"GET /p""x HTTP/1.1",2', csv, false)).toMatchObject({ fault: 'none', url: '/p"x' })
    expect(locate('1,"/q\\",2', csv, false)).toMatchObject({ fault: 'none', url: '/q\\' })
    expect(locate('"a""b.example",/p', layout('--field', '2', '--host-field', '1', '--delimiter', ','))).toMatchObject({ fault: 'none', host: 'a"b.example' })
  })
})

describe('regression: a request line picked with --field read its target //a/b as the host a', () => {
  it('a quoted request line\'s target //private/x is the path //private/x, with --field as with --log-format; a URL list line //a/b stays the reference\'s reading', () => {
    const line = '127.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "GET //private/x HTTP/1.1" 200 5 "-" "curl/8"'
    for (const l of [layout('--log-format', 'combined'), layout('--field', '5')]) {
      const locator = new LineLocator(l, false)
      expect(locate(line, l, false, locator)).toMatchObject({ fault: 'none', url: '//private/x' })
      expect(locator.target).toBe(true)
      // What is judged: the path whole, as the reference reads http://h//private/x.
      expect(Buffer.from(locator.judgedUrl(enc.encode(line))).toString()).toBe('http://h//private/x')
    }
    const list = new LineLocator(WHOLE_LINES, false)
    expect(locate('//private/x', WHOLE_LINES, false, list)).toMatchObject({ fault: 'none', url: '//private/x' })
    expect([list.target, Buffer.from(list.judgedUrl(enc.encode('//private/x'))).toString()]).toEqual([false, '//private/x'])
  })
})

describe('regression: a log host column written escaped', () => {
  it("a log's host column written with the server's escapes (b\\xc3\\xbccher.de) is the host bücher.de, not bad-host; a --delimiter column as written", () => {
    const vhost = (host: string) => `${host} 203.0.113.9 - - [10/Oct/2026:13:55:36 +0000] "GET /private HTTP/1.1" 200 5 "-" "curl/8"`
    for (const column of ['b\\xc3\\xbccher.de', 'B\\xC3\\x9Ccher.DE:443', 'xn--bcher-kva.de']) {
      expect(locate(vhost(column), layout('--log-format', 'vhost_combined')), column).toMatchObject({ fault: 'none', url: '/private', host: 'xn--bcher-kva.de', source: HostSource.Column })
      expect(locate(`/private ${column}`, layout('--field', '1', '--host-field', '2')), column).toMatchObject({ fault: 'none', host: 'xn--bcher-kva.de', source: HostSource.Column })
      // Without needHost (diff's sides read the host as given): the same host.
      expect(locate(vhost(column), layout('--log-format', 'vhost_combined'), false), column).toMatchObject({ fault: 'none', host: 'xn--bcher-kva.de' })
    }
    // An escape that makes no host stays refused, saying why.
    expect(locate(vhost('a\\x2fb.com'), layout('--log-format', 'vhost_combined'))).toMatchObject({ fault: 'bad-host' })
    expect(locate(vhost('a\\x00b.com'), layout('--log-format', 'vhost_combined'))).toMatchObject({ fault: 'bad-host' })
    // A --delimiter column is CSV's, not a server's: its backslash is a byte of it.
    expect(locate('/private\tb\\xc3\\xbccher.de', layout('--field', '1', '--host-field', '2', '--delimiter', '\\t'))).toMatchObject({ fault: 'bad-host' })
  })
})

describe('line-locator: consecutive lines of one site', () => {
  it('a URL that starts with the previous authority reuses its scan, moved; anything else is scanned', () => {
    const locator = new LineLocator(WHOLE_LINES, true)
    const block = enc.encode('https://a.test/x\nhttps://a.test/yy\nhttps://a.test?q\nhttps://a.testx/\n/p\nhttps://a.test/z\nhttps://a.test;b/c\n')
    const seen: [string, boolean, string | null, number][] = []
    for (let pos = 0; pos < block.length; ) {
      const lf = block.indexOf(10, pos)
      const fault = locator.locate(block, pos, lf)
      const h = locator.url
      seen.push([Buffer.from(block.subarray(pos, lf)).toString(), locator.sameHost, fault === LineFault.None ? locator.hostText() : null, scanHashed(h)![UrlField.PathStart]])
      // The moved record is the one a fresh scan gives.
      if (fault === LineFault.None) {
        const fresh = new LineLocator(WHOLE_LINES, true)
        fresh.locate(block, pos, lf)
        expect([...scanHashed(locator.url)!], seen[seen.length - 1][0]).toEqual([...scanHashed(fresh.url)!])
      }
      pos = lf + 1
    }
    expect(seen.map(([url, same, host]) => [url, same, host])).toEqual([
      ['https://a.test/x', false, 'a.test'],
      ['https://a.test/yy', true, 'a.test'],
      ['https://a.test?q', false, 'a.test'],
      ['https://a.testx/', false, 'a.testx'],
      ['/p', false, null],
      ['https://a.test/z', false, 'a.test'],
      // bad-host: its path starts at the ';' inside the host
      ['https://a.test;b/c', false, null],
    ])
  })

  it('--host: the same host from line to line, after a line with a host of its own too', () => {
    const locator = new LineLocator(layout('--host', 'h.test'), true)
    const same = (line: string): boolean => {
      const b = enc.encode(line)
      locator.locate(b, 0, b.length)
      return locator.sameHost
    }
    expect([same('/a'), same('/b'), same('https://x.test/'), same('/c'), same('/d')]).toEqual([false, true, false, false, true])
  })
})

describe('line-layout: the input options', () => {
  it('refuses options that contradict each other', () => {
    expect(() => layout('--log-format', 'combined', '--field', '3')).toThrow(UsageError)
    expect(() => layout('--log-format', 'combined', '--delimiter', ',')).toThrow(UsageError)
    expect(() => layout('--host-field', '2')).toThrow(/needs '--field'/)
    expect(() => layout('--delimiter', ',')).toThrow(/needs '--field'/)
    expect(() => layout('--log-format', 'vhost_combined', '--host', 'a.test')).toThrow(/without a host column/)
    expect(() => layout('--field', '1', '--host-field', '2', '--host', 'a.test')).toThrow(/without a host column/)
    expect(() => layout('--host', 'a b')).toThrow(/must be a host/)
    expect(() => layout('--host', ':80')).toThrow(/must be a host/)
    expect(() => layout('--host', '-')).toThrow(/must be a host/)
    expect(() => layout('--field', '0')).toThrow(/integer from 1/)
    expect(() => layout('--log-format', 'json')).toThrow(/must be one of common, combined, vhost_combined/)
  })

  it('regression: --host ftp://example.com was taken as the host example.com; --host takes a host or an http(s) origin, nothing more', () => {
    for (const bad of ['ftp://example.com', 'wss://example.com:443', 'file://example.com']) expect(() => layout('--host', bad), bad).toThrow(/must be a host.*: robots\.txt rules are for http and https origins/)
    for (const bad of ['https://example.com/private', 'https://example.com?q', 'https://example.com#f', 'https://example.com//', 'https://example.com\\']) {
      expect(() => layout('--host', bad), bad).toThrow(/: an origin has no path, query or fragment/)
    }
    for (const good of ['example.com', 'example.com:8080', '[::1]', '[::1]:80', 'https://example.com', 'HTTP://Example.com:8080/', 'https://[::1]:8443', 'bücher.de', 'user@example.com']) {
      expect(layout('--host', good).hostName, good).toBe(good)
    }
  })

  it('a log format is its columns', () => {
    expect(layout('--log-format', 'vhost_combined')).toMatchObject({ url: 6, host: 1, request: true, logFormat: 'vhost_combined' })
    expect(layout('--log-format', 'common', '--host', 'a.test')).toMatchObject({ url: 5, host: 0, request: true, hostName: 'a.test' })
    expect(layout()).toEqual(WHOLE_LINES)
  })
})

describe('regression: an input whose lines end with CR alone was judged as one URL', () => {
  it('a line holding a CR that ends no line is cr, never judged; lines around it and CRLF lines are read as before', () => {
    const locator = new LineLocator(WHOLE_LINES, false)
    const b = enc.encode('http://a.example/a\rhttp://a.example/x\r/a\n/b\nhttp://a.example/c')
    expect(FAULT_CODES[locator.locate(b, 0, 40)]).toBe('cr')
    expect(locator.locate(b, 41, 43)).toBe(LineFault.None)
    expect(locator.locate(b, 44, b.length)).toBe(LineFault.None)
    // A CR past the line's end (a CRLF's) is not the line's.
    const crlf = enc.encode('/a\r\n/b\r\n')
    expect(locator.locate(crlf, 0, 2)).toBe(LineFault.None)
    expect(locator.locate(crlf, 4, 6)).toBe(LineFault.None)
    // The same bytes refilled and read again (a reused buffer): searched again, not read from the last search.
    const reused = enc.encode('/a\n/b\n/c\n')
    const again = new LineLocator(WHOLE_LINES, false)
    for (const start of [0, 3, 6]) expect(again.locate(reused, start, start + 2)).toBe(LineFault.None)
    reused.set(enc.encode('/a\r/b\n'), 0)
    expect(FAULT_CODES[again.locate(reused, 0, 5)]).toBe('cr')
    // A log line too, whatever the layout.
    const log = enc.encode(`${COMBINED}\r${COMBINED}`)
    expect(FAULT_CODES[new LineLocator(layout('--log-format', 'combined'), false).locate(log, 0, log.length)]).toBe('cr')
  })
})

describe("regression: the input options' messages contradicted each other ('--host-field' needs '--field' or '--log-format', which refuses '--host-field')", () => {
  /** The usage error of `argv`, or '' when lineLayout takes it. */
  const refusal = (...argv: string[]): string => {
    try {
      layout(...argv)
      return ''
    } catch (err) {
      if (!(err instanceof UsageError)) throw err
      return err.message
    }
  }

  it('--host-field without --field names --field alone; --log-format with it says the format sets the columns', () => {
    expect(refusal('--host-field', '2')).toBe("'--host-field' needs '--field' (the URL column)")
    expect(refusal('--host-field', '2', '--delimiter', ',')).toBe("'--host-field' needs '--field' (the URL column)")
    for (const format of ['common', 'combined', 'vhost_combined']) {
      expect(refusal('--log-format', format, '--host-field', '2')).toMatch(/^'--log-format' sets the columns: give it without/)
    }
    expect(refusal('--field', '1', '--host-field', '2')).toBe('')
  })

  it('a path without a host: the hint names only options the given ones go with', () => {
    const hintOf = (line: string, argv: string[]): string => {
      const l = layout(...argv)
      const locator = new LineLocator(l, true)
      const b = enc.encode(line)
      const fault = locator.locate(b, 0, b.length)
      expect(fault, argv.join(' ')).toBe(LineFault.NoHost)
      return faultNote(faultSample(fault, 'in', 1, b, 0, b.length, locator), l, 'kept')
    }
    const path = '203.0.113.9 - - [10/Oct/2026:13:55:36 +0000] "GET /p HTTP/1.1" 200 5 "-" "-"'
    const combined = hintOf(path, ['--log-format', 'combined'])
    expect(combined).toMatch(/give the host: --host HOST, or --log-format vhost_combined for a log that writes it first; kept$/)
    expect(combined).not.toMatch(/--host-field/)
    expect(refusal('--log-format', 'combined', '--host', 'a.test')).toBe('')
    // vhost_combined's host column is "-": --host would be refused beside it.
    const vhost = hintOf(`- ${path}`, ['--log-format', 'vhost_combined'])
    expect(vhost).toMatch(/its virtual host column \(the first\) is "-" or empty: no host names it; kept$/)
    expect(vhost).not.toMatch(/--host\b|--host-field/)
    expect(hintOf('/p -', ['--field', '1', '--host-field', '2'])).toMatch(/its host column \(2\) is "-", empty or missing: check --host-field; kept$/)
    expect(hintOf('/p', ['--field', '1'])).toMatch(/give the host: --host HOST or --host-field M; kept$/)
    expect(refusal('--field', '1', '--host-field', '2')).toBe('')
    const whole = hintOf('/p', [])
    expect(whole).toMatch(/give the host: --host HOST, --field N with --host-field M, or --log-format vhost_combined; kept$/)
  })
})
