// The address classifier behind the redirect check (src/fetch/address.ts):
// every spelling the WHATWG URL parser normalises, every special-purpose
// range at and just past its edges, names, and public hosts that must pass.
import { describe, expect, it } from 'vitest'
import { classifyHost, classifyIpv4, classifyIpv6, parseIpv6, type HostClass } from '../../src/fetch/address.js'

const v4 = (dotted: string) => dotted.split('.').reduce((n, o) => n * 256 + Number(o), 0)
/** classifyHost on `http://HOST/` parsed by URL (what fetchRobots sees) and on the bare string. */
function both(host: string): HostClass | undefined {
  const viaUrl = classifyHost(new URL(`http://${host}/`))
  expect(classifyHost(host), `string form of ${host}`).toBe(viaUrl)
  return viaUrl
}

describe('IPv4 in every form the URL parser normalises', () => {
  it('loopback spellings', () => {
    for (const h of [
      '127.0.0.1',
      '0x7f000001',
      '0x7F.0.0.1',
      '127.1',
      '127.0.1',
      '2130706433',
      '0177.0.0.1',
      '017700000001',
      '127.0.0.1.',
      '%31%32%37.0.0.1',
      '\uff11\uff12\uff17.\uff10.\uff10.\uff11', // full-width digits
      '127.255.255.254',
      '127.0.0.2',
    ]) {
      expect(both(h), h).toBe('loopback')
    }
  })

  it('0.0.0.0 and "this network"', () => {
    for (const h of ['0.0.0.0', '0', '0x0', '0.1.2.3']) expect(both(h), h).toBe('unspecified')
  })

  it('private, link-local (metadata), CGNAT', () => {
    const cases: [string, HostClass][] = [
      ['10.0.0.1', 'private'],
      ['10.255.255.255', 'private'],
      ['012.1.2.3', 'private'], // octal 012 = 10
      ['172.16.0.0', 'private'],
      ['172.31.255.255', 'private'],
      ['192.168.0.1', 'private'],
      ['0xc0a80001', 'private'],
      ['3232235521', 'private'], // 192.168.0.1
      ['169.254.169.254', 'link-local'],
      ['0xa9fea9fe', 'link-local'],
      ['169.254.0.0', 'link-local'],
      ['100.64.0.0', 'shared'],
      ['100.127.255.255', 'shared'],
    ]
    for (const [h, cls] of cases) expect(both(h), h).toBe(cls)
  })

  it('reserved ranges: documentation, benchmarking, multicast, 240/4, broadcast, 192.0.0/24', () => {
    for (const h of [
      '192.0.0.1',
      '192.0.2.1',
      '198.18.0.1',
      '198.19.255.255',
      '198.51.100.7',
      '203.0.113.9',
      '224.0.0.1',
      '239.255.255.255',
      '240.0.0.1',
      '255.255.255.255',
    ]) {
      expect(both(h), h).toBe('reserved')
    }
  })

  it('public addresses just outside each range are public', () => {
    for (const h of [
      '9.255.255.255',
      '11.0.0.0',
      '100.63.255.255',
      '100.128.0.0',
      '126.255.255.255',
      '128.0.0.0',
      '169.253.255.255',
      '169.255.0.0',
      '172.15.255.255',
      '172.32.0.0',
      '192.0.1.0',
      '192.0.3.0',
      '192.167.255.255',
      '192.169.0.0',
      '198.17.255.255',
      '198.20.0.0',
      '223.255.255.255',
      '1.1.1.1',
      '8.8.8.8',
      '93.184.216.34',
    ]) {
      expect(both(h), h).toBeUndefined()
    }
  })

  it('classifyIpv4 on integers, at the edges of a /12', () => {
    expect(classifyIpv4(v4('172.16.0.0'))).toBe('private')
    expect(classifyIpv4(v4('172.31.255.255'))).toBe('private')
    expect(classifyIpv4(v4('172.32.0.0'))).toBeUndefined()
    expect(classifyIpv4(0xffffffff)).toBe('reserved')
    expect(classifyIpv4(0)).toBe('unspecified')
  })
})

describe('IPv6', () => {
  it('loopback and unspecified in every spelling', () => {
    for (const h of ['[::1]', '[0:0:0:0:0:0:0:1]', '[0000::0001]']) expect(both(h), h).toBe('loopback')
    for (const h of ['[::]', '[0:0:0:0:0:0:0:0]']) expect(both(h), h).toBe('unspecified')
    expect(classifyHost('::1')).toBe('loopback') // without brackets
  })

  it('unique local, link-local, site-local, multicast', () => {
    const cases: [string, HostClass][] = [
      ['[fc00::]', 'private'],
      ['[fd12:3456:789a::1]', 'private'],
      ['[FDFF:ffff::1]', 'private'],
      ['[fec0::1]', 'private'],
      ['[fe80::1]', 'link-local'],
      ['[febf:ffff::1]', 'link-local'],
      ['[ff02::1]', 'reserved'],
    ]
    for (const [h, cls] of cases) expect(both(h), h).toBe(cls)
  })

  it('IPv4-mapped, IPv4-translated, IPv4-compatible, NAT64 and 6to4 take the class of their IPv4 address', () => {
    const cases: [string, HostClass | undefined][] = [
      ['[::ffff:127.0.0.1]', 'loopback'],
      ['[::ffff:7f00:1]', 'loopback'],
      ['[::ffff:169.254.169.254]', 'link-local'],
      ['[::ffff:10.1.2.3]', 'private'],
      ['[::ffff:0.0.0.0]', 'unspecified'],
      ['[::ffff:8.8.8.8]', undefined],
      ['[::ffff:0:127.0.0.1]', 'loopback'],
      ['[::127.0.0.1]', 'loopback'],
      ['[::8.8.8.8]', 'reserved'], // deprecated IPv4-compatible
      ['[64:ff9b::127.0.0.1]', 'loopback'],
      ['[64:ff9b::192.168.1.1]', 'private'],
      ['[64:ff9b::8.8.8.8]', undefined],
      ['[2002:7f00:1::]', 'loopback'],
      ['[2002:a9fe:a9fe::1]', 'link-local'],
      ['[2002:808:808::1]', undefined],
    ]
    for (const [h, cls] of cases) expect(both(h), h).toBe(cls)
  })

  it('documentation, Teredo/IETF assignments, outside 2000::/3; global unicast passes', () => {
    for (const h of ['[2001:db8::1]', '[2001::1]', '[2001:1ff::1]', '[3fff::1]', '[100::1]', '[4000::1]', '[1::1]']) {
      expect(both(h), h).toBe('reserved')
    }
    for (const h of ['[2001:200::1]', '[2001:4860:4860::8888]', '[2606:4700:4700::1111]', '[2a00:1450::1]', '[3ffe::1]']) {
      expect(both(h), h).toBeUndefined()
    }
  })

  it('parseIpv6: compression, dotted tails, and rejects', () => {
    expect(parseIpv6('::')).toEqual([0, 0, 0, 0, 0, 0, 0, 0])
    expect(parseIpv6('1::')).toEqual([1, 0, 0, 0, 0, 0, 0, 0])
    expect(parseIpv6('::ffff:1.2.3.4')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304])
    expect(parseIpv6('1:2:3:4:5:6:1.2.3.4')).toEqual([1, 2, 3, 4, 5, 6, 0x0102, 0x0304])
    expect(parseIpv6('1:2:3:4:5:6:7:8')).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
    for (const bad of ['', '1', '1:2', '1::2::3', '1:2:3:4:5:6:7:8:9', '1:2:3:4:5:6:7::8', 'g::', '12345::', '::1.2.3', '::256.0.0.1']) {
      expect(parseIpv6(bad), bad).toBeUndefined()
    }
    expect(classifyIpv6([0, 0, 0, 0, 0, 0, 0, 1])).toBe('loopback')
  })
})

describe('names', () => {
  it('localhost and *.localhost are loopback, any case, with a trailing dot', () => {
    for (const h of ['localhost', 'LOCALHOST', 'localhost.', 'a.localhost', 'x.y.LocalHost.']) expect(both(h), h).toBe('loopback')
  })

  it('single labels, .local, .home.arpa, .internal are local names', () => {
    for (const h of ['metadata', 'intranet', 'router.', 'printer.local', 'nas.home.arpa', 'metadata.google.internal', 'x.INTERNAL']) {
      expect(both(h), h).toBe('local-name')
    }
  })

  it('public names pass, also ones that merely contain the special words', () => {
    for (const h of [
      'example.com',
      'localhost.example.com',
      'mylocalhost.com',
      'internal.example.com',
      'local.example',
      'example.com.',
      'xn--nxasmq6b.com',
      '127.0.0.1.nip.io',
      '169.254.169.254.example',
    ]) {
      expect(both(h), h).toBeUndefined()
    }
  })

  it('a string that is not a valid host is not classified', () => {
    for (const h of ['', 'a b', '[::1', '1.2.3.4.5', 'http://a b/', 'file:///etc/passwd']) expect(classifyHost(h), h).toBeUndefined()
  })

  it('regression: a URL given as a string (SECURITY.md: classifyHost(urlOrHost)) was read as a host, no host, and answered undefined, public: http://127.0.0.1:8080/x, http://169.254.169.254/latest; it is classified by its host as the URL object is', () => {
    const urls = ['http://127.0.0.1:8080/x', 'https://169.254.169.254/latest/meta-data/', 'HTTP://[::1]/', 'http://x', 'http://user:pw@10.0.0.5:81/?q', 'https://metadata.google.internal/', 'ftp://192.168.0.1/', 'https://example.com/private']
    for (const url of urls) expect(classifyHost(url), url).toBe(classifyHost(new URL(url)))
    expect(urls.map((u) => classifyHost(u))).toEqual(['loopback', 'link-local', 'loopback', 'local-name', 'private', 'local-name', 'private', undefined])
  })
})
