/**
 * Access log lines read by their format's structure (src/cli/filter/log-line.ts):
 * a fuzz of lines with hostile user, identity, referrer, agent and request
 * fields, escaped as Apache and nginx escape them, whose judged target is
 * always the request's; lines from a server that does not escape the user
 * field are never judged by a request the user wrote; the format a line
 * fits, for the hint.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseArgs } from '../../../src/cli/common/args.js'
import { INPUT_OPTIONS, lineLayout, type LogFormat } from '../../../src/cli/filter/line-layout.js'
import { FAULT_CODES, LineFault, LineLocator } from '../../../src/cli/filter/line-locator.js'
import { fittingFormat, locateLogLine, LogFit } from '../../../src/cli/filter/log-line.js'

const enc = new TextEncoder()
const dec = new TextDecoder()

/** Apache's ap_escape_logitem: `"` and `\` behind a backslash, control and non-ASCII bytes as \xhh. */
function apache(s: string): string {
  let out = ''
  for (const b of enc.encode(s)) {
    if (b === 0x22) out += '\\"'
    else if (b === 0x5c) out += '\\\\'
    else if (b === 0x0a) out += '\\n'
    else if (b === 0x09) out += '\\t'
    else if (b < 0x20 || b >= 0x7f) out += `\\x${b.toString(16).padStart(2, '0')}`
    else out += String.fromCharCode(b)
  }
  return out
}

/** nginx's default escaping: `"`, `\`, control and non-ASCII bytes as \xHH. */
function nginx(s: string): string {
  let out = ''
  for (const b of enc.encode(s)) {
    if (b === 0x22 || b === 0x5c || b < 0x20 || b >= 0x7f) out += `\\x${b.toString(16).toUpperCase().padStart(2, '0')}`
    else out += String.fromCharCode(b)
  }
  return out
}

const TIME = '[10/Oct/2000:13:55:36 -0700]'

/** Pieces a client can put in a field it controls: blanks, brackets, quotes, backslashes, a whole fake request or time. */
const hostile = fc
  .array(
    fc.constantFrom(' ', '  ', '[', ']', '"', '\\', '\\"', '-', 'a', 'Z', '/', '0', ':', 'é', '\t', '\u0001', TIME, '"GET /public HTTP/1.1"', 'GET /public HTTP/1.1', '" 200 5 "-" "', '] "GET /public HTTP/1.1" 200 5', 'x"y'),
    { minLength: 1, maxLength: 8 },
  )
  .map((parts) => parts.join(''))
  // A field of blanks alone is no field: such a line does not fit (tested below).
  .filter((s) => /[^ \t]/.test(s))

const target = fc
  .array(fc.constantFrom('a', 'b', '/', '?', '=', '%20', '"', ' ', '\\', '[', ']', 'é', ';'), { maxLength: 10 })
  .map((parts) => `/${parts.join('')}`)

interface Built {
  line: string
  format: LogFormat
  /** The target as the log holds it (escaped). */
  logged: string
  /** The target as the client sent it: what is judged. */
  sent: string
  vhost: string
}

const built = fc
  .record({
    format: fc.constantFrom<LogFormat>('common', 'combined', 'vhost_combined'),
    escape: fc.constantFrom(apache, nginx),
    ident: fc.oneof(fc.constant('-'), hostile),
    user: fc.oneof(fc.constant('-'), hostile),
    method: fc.constantFrom('GET', 'HEAD', 'POST', 'M-SEARCH'),
    target,
    version: fc.constantFrom(' HTTP/1.1', ' HTTP/1.0', ''),
    status: fc.constantFrom('200', '404', '408'),
    size: fc.constantFrom('0', '512', '-'),
    referer: fc.oneof(fc.constant('-'), hostile),
    agent: hostile,
    extra: fc.constantFrom('', ' "203.0.113.1"', ' 0.002'),
    vhost: fc.constantFrom('www.example.com:443', 'shop.example.com', '[::1]:80'),
  })
  .map((r): Built => {
    const e = r.escape
    const logged = e(r.target)
    const request = `"${r.method} ${logged}${r.version}"`
    const head = `${r.format === 'vhost_combined' ? `${r.vhost} ` : ''}203.0.113.9 ${e(r.ident)} ${e(r.user)} ${TIME} ${request} ${r.status} ${r.size}`
    const line = r.format === 'common' ? `${head}${r.extra}` : `${head} "${e(r.referer)}" "${e(r.agent)}"${r.extra}`
    return { line, format: r.format, logged, sent: r.target, vhost: r.vhost }
  })

function locate(line: string, format: LogFormat): { fault: string; url: string; host: string | null } {
  const locator = new LineLocator(lineLayout(parseArgs(['--log-format', format, ...(format === 'vhost_combined' ? [] : ['--host', 'example.org'])], INPUT_OPTIONS)), true)
  const b = enc.encode(line)
  const f = locator.locate(b, 0, b.length)
  return { fault: FAULT_CODES[f] || 'none', url: dec.decode(locator.shownUrl(b)), host: f === LineFault.None ? locator.hostText() : null }
}

describe('log lines located by their structure', () => {
  it('hostile user, identity, referrer, agent and request fields (escaped as Apache and nginx do) never move the judged target (seeded)', () => {
    fc.assert(
      fc.property(built, (b) => {
        const got = locate(b.line, b.format)
        expect(got.fault, b.line).toBe('none')
        // The request as the client sent it: the log's escapes undone, the spaces before the version a separator.
        expect(got.url, b.line).toBe(b.sent.replace(/ +$/, ''))
        if (b.format === 'vhost_combined') expect(got.host, b.line).toBe(new URL(`http://${b.vhost}`).hostname)
      }),
      { seed: 27, numRuns: 4000 },
    )
  })

  it("a server that does not escape the user field: a request the user wrote is never the one judged (seeded)", () => {
    const unescaped = fc
      .record({ format: fc.constantFrom<LogFormat>('common', 'combined'), user: hostile, target })
      .map(({ format, user, target: t }) => {
        const line = `203.0.113.9 - ${user} ${TIME} "GET ${apache(t)} HTTP/1.1" 200 5${format === 'common' ? '' : ' "-" "curl/8"'}`
        return { line, format, sent: t }
      })
    fc.assert(
      fc.property(unescaped, (b) => {
        const got = locate(b.line, b.format)
        // Judged by the real request, or not judged: never by /public, the user's.
        if (got.fault === 'none') expect(got.url, b.line).toBe(b.sent.replace(/ +$/, ''))
        else expect(got.fault, b.line).toBe('no-request')
      }),
      { seed: 2727, numRuns: 4000 },
    )
  })

  it('an unescaped user field holding a whole fake line, then more fields: the two ends disagree, the line is not judged', () => {
    const line = `203.0.113.9 - - ${TIME} "GET /public HTTP/1.1" 200 5 "-" "-" x ${TIME} "GET /private HTTP/1.1" 200 5 "-" "curl/8"`
    expect(locate(line, 'combined')).toMatchObject({ fault: 'no-request' })
    // nginx's "main" adds a quoted field after the agent: read from the left alone.
    expect(locate(`203.0.113.9 - - ${TIME} "GET /a HTTP/1.1" 200 5 "-" "curl/8" "198.51.100.1"`, 'combined')).toMatchObject({ fault: 'none', url: '/a' })
  })

  it('the finding: a user field "a b [GET /public HTTP/1.1]" does not pick /public', () => {
    const line = '203.0.113.9 - a b [GET /public HTTP/1.1] [10/Oct/2000:13:55:36 -0700] "GET /private/secret HTTP/1.1" 200 512 "-" "curl/8"'
    for (const format of ['common', 'combined'] as const) expect(locate(line, format)).toMatchObject({ fault: 'none', url: '/private/secret' })
  })

  it('lines that do not fit are not judged, and a "-" request is its own fault', () => {
    const out = new Int32Array(4)
    const at = (line: string, format: LogFormat): LogFit => {
      const b = enc.encode(line)
      return locateLogLine(b, 0, b.length, format, out, 0)
    }
    const good = `203.0.113.9 - - ${TIME} "GET /a HTTP/1.1" 200 5 "-" "-"`
    expect(at(good, 'combined')).toBe(LogFit.Request)
    expect(at(`203.0.113.9 - - ${TIME} "-" 408 0 "-" "-"`, 'combined')).toBe(LogFit.EmptyRequest)
    expect(at(`203.0.113.9 - - ${TIME} "\\x16\\x03\\x01" 400 0 "-" "-"`, 'combined')).toBe(LogFit.NotRequest)
    for (const bad of [
      '',
      'short line',
      `203.0.113.9 ${TIME} "GET /a HTTP/1.1" 200 5 "-" "-"`, // nothing between host and time
      `203.0.113.9 -   ${TIME} "GET /a HTTP/1.1" 200 5 "-" "-"`, // a user name of blanks alone
      `203.0.113.9 - - [yesterday] "GET /a HTTP/1.1" 200 5 "-" "-"`, // not a time
      `203.0.113.9 - - ${TIME} "GET /a HTTP/1.1" 2000 5 "-" "-"`, // not a status
      `203.0.113.9 - - ${TIME} "GET /a HTTP/1.1" 200 5x "-" "-"`, // not a size
      `203.0.113.9 - - ${TIME} "GET /a HTTP/1.1" 200 5`, // combined without referrer and agent
      `203.0.113.9 - - ${TIME} "GET /a HTTP/1.1"x 200 5 "-" "-"`, // a quote that closes nothing
    ]) {
      expect(at(bad, 'combined'), bad).toBe(LogFit.Misfit)
    }
    expect(at(`${good} "more" 1.5`, 'combined')).toBe(LogFit.Request)
    expect(at(good, 'vhost_combined')).toBe(LogFit.Misfit)
  })

  it('regression: an empty request (nginx\'s `"" 400`) was read as no request line and warned about, now it is a request that never arrived, as "-" is', () => {
    const out = new Int32Array(4)
    for (const format of ['common', 'combined', 'vhost_combined'] as const) {
      const head = format === 'vhost_combined' ? 'www.example.com:443 ' : ''
      const tail = format === 'common' ? '' : ' "-" "-"'
      const b = enc.encode(`${head}203.0.113.9 - - ${TIME} "" 400 0${tail}`)
      expect(locateLogLine(b, 0, b.length, format, out, 0), format).toBe(LogFit.EmptyRequest)
      expect(locate(`${head}203.0.113.9 - - ${TIME} "" 400 0${tail}`, format), format).toMatchObject({ fault: 'empty-request' })
    }
    // A request of blanks alone is no request line either, and not one that never arrived.
    const blanks = enc.encode(`203.0.113.9 - - ${TIME} " " 400 0 "-" "-"`)
    expect(locateLogLine(blanks, 0, blanks.length, 'combined', out, 0)).toBe(LogFit.NotRequest)
  })

  it('regression: Apache\'s empty user name, logged as the field "", was taken for the request, and a line with a field after the format\'s was not judged; now it is skipped', () => {
    for (const format of ['common', 'combined', 'vhost_combined'] as const) {
      const head = format === 'vhost_combined' ? 'www.example.com:443 ' : ''
      const tail = format === 'common' ? '' : ' "-" "curl/8"'
      for (const more of ['', ' "198.51.100.1"', ' 1234']) {
        const line = `${head}203.0.113.9 - "" ${TIME} "GET /private/a HTTP/1.1" 200 5${tail}${more}`
        expect(locate(line, format), line).toMatchObject({ fault: 'none', url: '/private/a' })
      }
      // An identity field ending in ']' before it (a client's identd may answer anything) does not stop the skip.
      const ident = `${head}203.0.113.9 a] "" ${TIME} "GET /private/a HTTP/1.1" 200 5${tail} 1`
      expect(locate(ident, format), ident).toMatchObject({ fault: 'none', url: '/private/a' })
      // An empty request after it is still one that never arrived.
      expect(locate(`${head}203.0.113.9 - "" ${TIME} "" 400 0${tail} 1`, format)).toMatchObject({ fault: 'empty-request' })
    }
    // Linear still: many "" fields, after blanks or a ']'.
    const out = new Int32Array(4)
    const t0 = performance.now()
    for (const field of ['"" ', '] "" ', '""  ']) {
      const b = enc.encode(`203.0.113.9 - ${field.repeat(200_000)}${TIME} "GET /a HTTP/1.1" 200 5 "-" "-" x`)
      locateLogLine(b, 0, b.length, 'combined', out, 0)
    }
    expect(performance.now() - t0).toBeLessThan(3000)
  })

  it('reading is linear: a line of a million quotes and backslashes is read at once', () => {
    const out = new Int32Array(4)
    const line = enc.encode(`203.0.113.9 - ${'\\"'.repeat(250_000)}${'"\\'.repeat(250_000)} ${TIME} "GET /a HTTP/1.1" 200 5 "${'\\\\"'.repeat(100_000)}" "-"`)
    for (const format of ['common', 'combined', 'vhost_combined'] as const) locateLogLine(line, 0, line.length, format, out, 0)
    expect(fittingFormat(line, 0, line.length)).toBeUndefined()
  })

  it('regression: a block of lines without a quote (a URL list read with --log-format) was read to its end once per line (2 MB: 49 s); each line is read within itself', () => {
    const lines = 20_000
    const block = enc.encode('/a 1 2\n'.repeat(lines / 2) + '/b [x] - "\n'.repeat(lines / 2))
    const out = new Int32Array(4)
    // Bytes looked at by the typed array searches, which run on past the line to the block's end.
    let looked = 0
    const { indexOf, lastIndexOf } = Uint8Array.prototype
    Uint8Array.prototype.indexOf = function (this: Uint8Array, v: number, from = 0) {
      const r = indexOf.call(this, v, from)
      looked += (r < 0 ? this.length : r + 1) - from
      return r
    }
    Uint8Array.prototype.lastIndexOf = function (this: Uint8Array, v: number, from = this.length - 1) {
      const r = lastIndexOf.call(this, v, from)
      looked += from - (r < 0 ? -1 : r)
      return r
    }
    try {
      for (const format of ['common', 'combined', 'vhost_combined'] as const) {
        for (let pos = 0; pos < block.length; ) {
          const lf = block.indexOf(10, pos)
          expect(locateLogLine(block, pos, lf, format, out, 0)).toBe(LogFit.Misfit)
          fittingFormat(block, pos, lf)
          pos = lf + 1
        }
      }
    } finally {
      Uint8Array.prototype.indexOf = indexOf
      Uint8Array.prototype.lastIndexOf = lastIndexOf
    }
    // The line ends searched here, once per format: nothing more.
    expect(looked).toBeLessThanOrEqual(3 * block.length)
  })

  it('the format a line fits, for the hint', () => {
    const fits = (line: string): LogFormat | undefined => {
      const b = enc.encode(line)
      return fittingFormat(b, 0, b.length)
    }
    expect(fits(`127.0.0.1 - frank ${TIME} "GET /a HTTP/1.0" 200 2326`)).toBe('common')
    expect(fits(`127.0.0.1 - frank ${TIME} "GET /a HTTP/1.0" 200 2326 "-" "Mozilla/4.08"`)).toBe('combined')
    expect(fits(`www.example.com:443 127.0.0.1 - - ${TIME} "GET /a HTTP/1.1" 200 512 "-" "Mozilla/5.0"`)).toBe('vhost_combined')
    expect(fits('https://example.com/a')).toBeUndefined()
  })
})

describe('regression: a logged request whose method is not an upper-case word ("get /a HTTP/1.1") was "not a combined line"', () => {
  /** RFC 9110 tokens of any case, as a method: `get`, `Propfind`, `m-search`, `X.1`, `a!b`. */
  const method = fc.stringMatching(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,12}$/)

  it('the target of METHOD target HTTP/x.y is judged whatever the method, with hostile user, identity, referrer and agent fields (seeded)', () => {
    const lines = fc
      .record({
        format: fc.constantFrom<LogFormat>('common', 'combined', 'vhost_combined'),
        escape: fc.constantFrom(apache, nginx),
        user: fc.oneof(fc.constant('-'), hostile),
        method,
        target,
        version: fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0'),
        agent: hostile,
      })
      .map((r) => {
        const e = r.escape
        const head = `${r.format === 'vhost_combined' ? 'www.example.com:443 ' : ''}203.0.113.9 - ${e(r.user)} ${TIME} "${r.method} ${e(r.target)} ${r.version}" 200 5`
        return { line: r.format === 'common' ? head : `${head} "-" "${e(r.agent)}"`, format: r.format, sent: r.target }
      })
    fc.assert(
      fc.property(lines, (b) => {
        expect(locate(b.line, b.format), b.line).toMatchObject({ fault: 'none', url: b.sent.replace(/ +$/, '') })
      }),
      { seed: 2026, numRuns: 3000 },
    )
  })

  it('a server that does not escape the user field: a lower-case request the user wrote is never the one judged (seeded)', () => {
    const fake = fc.constantFrom('"get /public HTTP/1.1"', 'get /public HTTP/1.1', '] "get /public HTTP/1.1" 200 5', '" 200 5 "-" "')
    const unescaped = fc
      .record({ format: fc.constantFrom<LogFormat>('common', 'combined'), user: fc.array(fc.oneof(hostile, fake), { minLength: 1, maxLength: 3 }), method, target })
      .map(({ format, user, method: m, target: t }) => {
        const line = `203.0.113.9 - ${user.join(' ')} ${TIME} "${m} ${apache(t)} HTTP/1.1" 200 5${format === 'common' ? '' : ' "-" "curl/8"'}`
        return { line, format, sent: t }
      })
    fc.assert(
      fc.property(unescaped, (b) => {
        const got = locate(b.line, b.format)
        if (got.fault === 'none') expect(got.url, b.line).toBe(b.sent.replace(/ +$/, ''))
        else expect(got.fault, b.line).toBe('no-request')
      }),
      { seed: 2727, numRuns: 3000 },
    )
  })

  it('get, Propfind, m-search and WebDAV methods: the target; a non-origin target is not-url; a method that is no token, or a lower-case one without its version, is no request line', () => {
    const line = (request: string): string => `203.0.113.9 - - ${TIME} "${request}" 200 5 "-" "curl/8"`
    for (const [request, url] of [
      ['get /private/a HTTP/1.1', '/private/a'],
      ['Get /a%20b?c=1 HTTP/1.0', '/a%20b?c=1'],
      ['PROPFIND /dav/x HTTP/1.1', '/dav/x'],
      ['propfind /dav/x HTTP/1.1', '/dav/x'],
      ['version-control /x HTTP/1.1', '/x'],
      ['get /a b HTTP/1.1', '/a b'],
      ['get  /a  HTTP/1.1', '/a'],
      ['get http://example.org/a HTTP/1.1', 'http://example.org/a'],
    ]) {
      expect(locate(line(request), 'combined'), request).toMatchObject({ fault: 'none', url })
    }
    // Asterisk-form (OPTIONS, M-SEARCH) and authority-form (CONNECT): no path to judge.
    for (const request of ['OPTIONS * HTTP/1.1', 'M-SEARCH * HTTP/1.1', 'm-search * HTTP/1.1', 'CONNECT example.org:443 HTTP/1.1', 'connect [::1]:443 HTTP/1.1']) {
      expect(locate(line(request), 'combined'), request).toMatchObject({ fault: 'not-url' })
    }
    // A whole request line is needed when the method is not an upper-case word; a method is a token.
    for (const request of ['get /a', 'get /a HTTP/1', 'get /a http/1.1', 'get HTTP/1.1', 'g"t /a HTTP/1.1', 'g\\\\t /a HTTP/1.1', 'GET']) {
      expect(locate(line(request), 'combined'), request).toMatchObject({ fault: 'no-request' })
    }
  })

  it('the words name the method, never "not a combined line"', () => {
    const words = (request: string): string => {
      const locator = new LineLocator(lineLayout(parseArgs(['--log-format', 'combined'], INPUT_OPTIONS)), false)
      const b = enc.encode(`203.0.113.9 - - ${TIME} "${request}" 200 5 "-" "-"`)
      expect(locator.locate(b, 0, b.length)).toBe(LineFault.NoRequest)
      return locator.problem
    }
    expect(words('get /a')).toBe("its request is no HTTP request line: its method 'get' is not an upper-case word, which is read only in a whole 'METHOD target HTTP/x.y'")
    // No method to name: the line's words stay the format's.
    expect(words('\\x16\\x03\\x01')).toBe('')
    expect(words('GET')).toBe('')
  })
})
