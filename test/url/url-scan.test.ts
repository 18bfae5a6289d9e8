/**
 * The one scan of a URL (src/url/url-scan.ts), over bytes and over strings
 * (two copies of the scan, one data suite): the path start equals the
 * reference's GetPathParamsQuery scan (url/url-path.ts) on every input; the
 * host, port and authority end follow the WHATWG split of an authority (the
 * last `@` wins, `:` ends the host outside brackets); a plain host's bytes are
 * the WHATWG parser's host; the hash is the keyed hash of the host lowercased.
 */
import { describe, expect, it } from 'vitest'
import { pathStartBytes, pathStartString } from '../../src/url/url-path.js'
import { hostHash, secondHash } from '../../src/url/keyed-hash.js'
import { newUrlRecord, PortCode, scanUrl, scanUrlString, UrlField, UrlFlag } from '../../src/url/url-scan.js'
import { prng } from '../support/prng.mjs'
import { ENGINES } from '../support/engines.js'
import { parseRobots, UrlScan } from '../../src/index.js'

const latin1 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'latin1'))

interface Parts {
  host: string | null
  port: number
  authorityEnd: number
  schemeEnd: number
  flags: number
}

/** What an independent regex reading gives for the host, port, authority end and flags. */
function expected(url: string): Parts {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#\\]*)/.exec(url)
  if (m === null) return { host: null, port: PortCode.None, authorityEnd: -1, schemeEnd: -1, flags: 0 }
  const authority = m[2]
  const schemeEnd = m[1].length
  const authorityEnd = schemeEnd + 3 + authority.length
  const at = authority.lastIndexOf('@')
  const hostPort = authority.slice(at + 1)
  let host: string
  let rest: string
  if (hostPort.startsWith('[')) {
    const close = hostPort.indexOf(']')
    if (close < 0) return { host: null, port: PortCode.None, authorityEnd, schemeEnd, flags: 0 }
    host = hostPort.slice(0, close + 1)
    rest = hostPort.slice(close + 1)
  } else {
    const colon = hostPort.indexOf(':')
    host = colon < 0 ? hostPort : hostPort.slice(0, colon)
    rest = colon < 0 ? '' : hostPort.slice(colon)
  }
  if (host === '') return { host: null, port: PortCode.None, authorityEnd, schemeEnd, flags: 0 }
  let port: number = PortCode.None
  if (rest !== '') {
    if (!rest.startsWith(':') || !/^\d*$/.test(rest.slice(1))) port = PortCode.Bad
    else if (rest.length > 1) port = Number(rest.slice(1)) > 65535 ? PortCode.Bad : Number(rest.slice(1))
  }
  const scheme = m[1].toLowerCase()
  let flags = scheme === 'http' ? UrlFlag.Http : scheme === 'https' ? UrlFlag.Https : 0
  const labels = host.toLowerCase().split('.')
  // A name whose last label starts with a letter (no xn-- label), or IPv4 in dotted decimal as the parser writes it.
  const name = /^[a-z0-9._!"$&'()*+,=`{}~-]+$/i.test(host) && /^[a-z]/.test(labels[labels.length - 1]) && !labels.some((l) => l.startsWith('xn--'))
  const quad = labels.length === 4 && labels.every((l) => /^(0|[1-9][0-9]{0,2})$/.test(l) && Number(l) <= 255)
  const plain = name || quad
  if (plain) flags |= UrlFlag.PlainHost
  if (at >= 0) flags |= UrlFlag.UserInfo
  return { host, port, authorityEnd, schemeEnd, flags }
}

/**
 * The first disagreement of the scans of `url` with each other, the path scan and the independent
 * reading (what, and both values), or undefined. Values are compared as `toBe` does (Object.is).
 */
function disagreement(url: string): string | undefined {
  let first: string | undefined
  const same = (what: string, got: unknown, want: unknown): void => {
    if (first === undefined && !Object.is(got, want)) first = `${what} of ${JSON.stringify(url)}: ${String(got)} against ${String(want)}`
  }
  const bytes = latin1(url)
  const viaBytes = newUrlRecord()
  const viaString = newUrlRecord()
  // Bytes in the middle of a buffer: offsets are the buffer's.
  const framed = latin1(`xx${url}yy`)
  const viaFrame = newUrlRecord()
  const found = scanUrl(bytes, 0, bytes.length, viaBytes)
  same('string scan found', scanUrlString(url, viaString), found)
  same('framed scan found', scanUrl(framed, 2, 2 + bytes.length, viaFrame), found)
  same('path start', viaBytes[UrlField.PathStart], pathStartBytes(bytes, 0, bytes.length))
  same('string path start', viaString[UrlField.PathStart], pathStartString(url))
  const want = expected(url)
  same('host found', found, want.host !== null)
  same('scheme end', viaBytes[UrlField.SchemeEnd], want.schemeEnd)
  same('authority end', viaBytes[UrlField.AuthorityEnd], want.authorityEnd)
  if (want.host !== null) {
    same('host', url.slice(viaBytes[UrlField.HostStart], viaBytes[UrlField.HostEnd]), want.host)
    same('port', viaBytes[UrlField.Port], want.port)
    same('flags', viaBytes[UrlField.Flags], want.flags)
    same('host hash', viaBytes[UrlField.HostHash], hostHash(bytes, viaBytes[UrlField.HostStart], viaBytes[UrlField.HostEnd]))
    same('second host hash', viaBytes[UrlField.HostHash2], secondHash(bytes, viaBytes[UrlField.HostStart], viaBytes[UrlField.HostEnd]))
    if (want.flags & UrlFlag.PlainHost && want.port !== PortCode.Bad) {
      // A plain host is the WHATWG parser's host, lowercased.
      let parsed: URL | null = null
      try {
        parsed = new URL(url)
      } catch {
        parsed = null
      }
      if (parsed !== null && (want.flags & (UrlFlag.Http | UrlFlag.Https)) !== 0) same('WHATWG host', parsed.hostname, want.host.toLowerCase())
    }
  }
  // The string copy and the framed bytes agree field by field (offsets shifted by the frame).
  for (const f of [UrlField.Start, UrlField.HostStart, UrlField.HostEnd, UrlField.Port, UrlField.AuthorityEnd, UrlField.SchemeEnd, UrlField.Flags, UrlField.HostHash]) {
    same(`string field ${f}`, viaString[f], viaBytes[f])
    const offset = f === UrlField.Start || f === UrlField.HostStart || f === UrlField.HostEnd || f === UrlField.AuthorityEnd || f === UrlField.SchemeEnd
    const shifted = viaBytes[f] >= 0 && offset ? viaBytes[f] + 2 : viaBytes[f]
    same(`framed field ${f}`, viaFrame[f], shifted)
  }
  return first
}

const CASES = [
  '', '/', '//', '//h/a', '/a/b?c', '?q', ';p', '#f', 'a#b/c',
  'http://h', 'http://h/', 'HTTPS://WWW.Example.COM/A?b', 'http://h/a/b;c?d', 'http://h?x', 'http://h;x/y', 'http://h#/x',
  'http://user:pw@h:81/a', 'http://u;p@h/a', 'http://a@b@c/d', 'http://h:/a', 'http://h:0/a', 'http://h:65535/', 'http://h:65536/', 'http://h:8x/',
  'http://h:00080/', 'http:', 'http:/', 'http:/a', 'http://', 'http:///a', 'http://x:y://z/w', 'a:b/c', 'a://b:c/d', '://x', '://x/y',
  'h/a:/b', 'h#x://y/z', 'http://h\\a/b', 'http://h\\a;b', 'http://h\\#/b', 'http://[::1]/a', 'http://[::1]:8080/a', 'http://[::1/a',
  'http://[::1]x/', 'http://u@[::1]:80/', 'https://xn--bcher-kva.de/', 'https://a.xn--p1ai/', 'https://xn-a.com/', 'https://127.0.0.1/',
  'https://127.1/', 'https://a.b1/', 'https://a.1b/', 'https://example.com./', 'https://a_b.com/', 'https://%41.com/', 'https://h/\u00e9',
  'https://h\u00e9.com/', 'ftp://example.com/a', 'ws://example.com:80/', 'a+b.c-d://h/p', '1http://h/', 'http//h/a', 'https://h?#',
  'https://exa mple.com/', 'https://h/a\u0000b', 'http://:80/', 'http://@/', 'http://@h/',
]

describe('url-scan: cases', () => {
  for (const url of CASES) it(`the byte and string scans of ${JSON.stringify(url)} agree with each other, the path scan and the WHATWG split`, () => expect(disagreement(url)).toBeUndefined())
})

describe('url-scan: random URLs over the bytes that matter', () => {
  it('20,000 random strings: path start, host, port and flags as the independent reading says', () => {
    const r = prng(1919)
    const pieces = ['h', 'H', 'x', 'n', '-', '--', 'xn--', '.', ':', '/', '//', '://', '?', '#', ';', '@', '[', ']', '\\', '1', '8', '%', '_', ' ', 'http', 'https', 'HTTPS', '\u00e9', '\u0000', 'a.com', '::1']
    for (let i = 0; i < 20_000; i++) {
      let url = r() < 0.7 ? ['http://', 'https://', 'HtTp://', 'ftp://', ''][Math.floor(r() * 5)] : ''
      const n = Math.floor(r() * 12)
      for (let k = 0; k < n; k++) url += pieces[Math.floor(r() * pieces.length)]
      // One expect for the lot (the first disagreement named), not a score of expects a URL.
      const wrong = disagreement(url)
      if (wrong !== undefined) expect(wrong).toBeUndefined()
    }
  })
})

describe('url-scan: the matcher judges from the record\'s path start (every engine and tier)', () => {
  const BODY = 'User-agent: *\nDisallow: /a\nAllow: /a/b\nDisallow: /*?q\nDisallow: /;x$\nAllow: /$\nDisallow: /\\\n'
  it('matchScan(scan) gives matchRange\'s verdict and line, for a scan of bytes (in the middle of a buffer) and of a string', () => {
    const r = prng(77)
    const pieces = ['/', 'a', 'b', '?q', ';x', '#', '\\', '@', ':', 'h', '.', 'http://', 'https://', '//']
    const urls = [...CASES]
    for (let i = 0; i < 2000; i++) {
      let u = ''
      for (let k = Math.floor(r() * 8); k > 0; k--) u += pieces[Math.floor(r() * pieces.length)]
      urls.push(u)
    }
    for (const engine of ENGINES) {
      const m = parseRobots(BODY, engine.options).agent('bot')
      const scan = new UrlScan()
      // One expect an engine (the first URL that differs named), not two a URL.
      let wrong: string | undefined
      for (const url of urls) {
        const bytes = latin1(`xx${url}yy`)
        const end = 2 + url.length
        scan.scan(bytes, 2, end)
        const want = m.matchRange(bytes, 2, end)
        const viaBytes = m.matchScan(scan)
        scan.scanString(url)
        const viaString = m.matchScan(scan)
        if (!Object.is(viaBytes, want)) wrong = `${JSON.stringify(url)}: ${viaBytes} against ${want}`
        else if (!Object.is(viaString, want)) wrong = `${JSON.stringify(url)} as a string: ${viaString} against ${want}`
        if (wrong !== undefined) break
      }
      expect(wrong, engine.name).toBeUndefined()
    }
  })
})
