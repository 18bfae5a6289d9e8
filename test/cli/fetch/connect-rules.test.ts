/**
 * `fetch --resolve` and `--connect-to` as curl reads them: parsing (IPv6 in
 * brackets, several addresses, `*`, a leading `+`, empty parts) and where a
 * connection goes (a named host before `*`, the first matching connect-to,
 * resolve applied to its target).
 */
import { describe, expect, it } from 'vitest'
import { ConnectRules, parseConnectTo, parseResolve } from '../../../src/cli/common/connect-rules.js'

describe('--resolve', () => {
  it('parses HOST:PORT:ADDRESS[,ADDRESS...], * and bracketed IPv6, a leading +', () => {
    expect(parseResolve('Example.COM:443:127.0.0.1')).toEqual({ host: 'example.com', port: 443, addresses: ['127.0.0.1'] })
    expect(parseResolve('*:8080:127.0.0.1,[::1]')).toEqual({ host: '*', port: 8080, addresses: ['127.0.0.1', '::1'] })
    expect(parseResolve('[2001:db8::1]:80:[::1]')).toEqual({ host: '2001:db8::1', port: 80, addresses: ['::1'] })
    expect(parseResolve('+a.test:80:10.0.0.1')).toEqual({ host: 'a.test', port: 80, addresses: ['10.0.0.1'] })
  })

  it('anything else is a usage error naming the option', () => {
    for (const bad of ['a.test:80', 'a.test:80:localhost', ':80:127.0.0.1', 'a.test:0:127.0.0.1', 'a.test:99999:127.0.0.1', 'a.test:x:127.0.0.1', 'a b:80:127.0.0.1', 'a.test:80:127.0.0.1:1']) {
      expect(() => parseResolve(bad), bad).toThrow(expect.objectContaining({ code: 'ERR_USAGE', message: expect.stringContaining("'--resolve'") }))
    }
  })
})

describe('regression: a --resolve or --connect-to host written as a URL never reads it (Bücher.de, 0x7f.1) never matched, and the name was looked up', () => {
  it('takes the host the URL parser gives: punycode, lowercase, IPv4 in dotted decimal, IPv6 compressed', () => {
    for (const spelling of ['bücher.de', 'BÜCHER.de', 'b%C3%BCcher.de', 'xn--bcher-kva.de', 'Ｂücher.de']) {
      expect(parseResolve(`${spelling}:80:127.0.0.1`).host, spelling).toBe('xn--bcher-kva.de')
      expect(parseConnectTo(`${spelling}:80:${spelling}:8080`), spelling).toEqual({ host: 'xn--bcher-kva.de', port: 80, toHost: 'xn--bcher-kva.de', toPort: 8080 })
    }
    expect(parseResolve('0x7f.1:80:127.0.0.1').host).toBe('127.0.0.1')
    expect(parseResolve('[0:0::1]:80:127.0.0.1').host).toBe('::1')
    expect(parseResolve('☃.net:80:127.0.0.1').host).toBe('xn--n3h.net')
    // The URL's host (URL.hostname) meets the rule.
    const rules = new ConnectRules([parseResolve('Bücher.DE:80:127.0.0.1')], [])
    expect(rules.target(new URL('http://b%C3%BCcher.de/').hostname, 80)).toEqual({ hosts: ['127.0.0.1'], port: 80, mapped: true })
  })

  it('a host the URL parser refuses is a usage error that says why', () => {
    for (const bad of ['xn--a.com:80:127.0.0.1', '1.2.3.256:80:127.0.0.1', 'a%00b:80:127.0.0.1', 'a/b:80:127.0.0.1', '[::g]:80:127.0.0.1']) {
      expect(() => parseResolve(bad), bad).toThrow(expect.objectContaining({ code: 'ERR_USAGE', message: expect.stringMatching(/'--resolve': .* is not a host/) }))
    }
    expect(() => parseConnectTo('xn--a.com:80::8080')).toThrow(expect.objectContaining({ code: 'ERR_USAGE', message: expect.stringContaining('UTS-46') }))
  })
})

describe('--connect-to', () => {
  it('parses HOST1:PORT1:HOST2:PORT2, any part empty', () => {
    expect(parseConnectTo('a.test:443:127.0.0.1:8443')).toEqual({ host: 'a.test', port: 443, toHost: '127.0.0.1', toPort: 8443 })
    expect(parseConnectTo('::127.0.0.1:8080')).toEqual({ host: '', port: 0, toHost: '127.0.0.1', toPort: 8080 })
    expect(parseConnectTo('[::1]:80:[::1]:')).toEqual({ host: '::1', port: 80, toHost: '::1', toPort: 0 })
    for (const bad of ['a:1:b', 'a:1:b:2:3', 'a:70000:b:1', 'a:1:b c:1']) expect(() => parseConnectTo(bad), bad).toThrow(expect.objectContaining({ code: 'ERR_USAGE' }))
  })
})

describe('where a connection goes', () => {
  it('a named --resolve entry before *, for its port only', () => {
    const rules = new ConnectRules([parseResolve('*:80:127.0.0.2'), parseResolve('a.test:80:127.0.0.1')], [])
    expect(rules.target('a.test', 80)).toEqual({ hosts: ['127.0.0.1'], port: 80, mapped: true })
    expect(rules.target('A.TEST', 80)).toEqual({ hosts: ['127.0.0.1'], port: 80, mapped: true })
    expect(rules.target('b.test', 80)).toEqual({ hosts: ['127.0.0.2'], port: 80, mapped: true })
    expect(rules.target('a.test', 443)).toEqual({ hosts: ['a.test'], port: 443, mapped: false })
    // As curl's, * stands in for names looked up: an address written as such is routed only by a rule that names it.
    expect(rules.target('[::1]', 80)).toEqual({ hosts: ['::1'], port: 80, mapped: false })
    expect(rules.target('127.0.0.1', 80)).toEqual({ hosts: ['127.0.0.1'], port: 80, mapped: false })
    expect(new ConnectRules([parseResolve('127.0.0.1:80:127.0.0.1')], []).target('127.0.0.1', 80)).toEqual({ hosts: ['127.0.0.1'], port: 80, mapped: true })
    expect(new ConnectRules([], []).any).toBe(false)
  })

  it('the first matching --connect-to, then --resolve on its target', () => {
    const rules = new ConnectRules(
      [parseResolve('backend.test:9000:10.1.2.3')],
      [parseConnectTo('a.test:443:backend.test:9000'), parseConnectTo(':443::8443'), parseConnectTo('::127.0.0.1:')],
    )
    expect(rules.target('a.test', 443)).toEqual({ hosts: ['10.1.2.3'], port: 9000, mapped: true })
    expect(rules.target('b.test', 443)).toEqual({ hosts: ['b.test'], port: 8443, mapped: true })
    expect(rules.target('b.test', 80)).toEqual({ hosts: ['127.0.0.1'], port: 80, mapped: true })
  })
})

describe('regression: a name written with its final dot (www.example.com.) missed the rule for it, and was looked up where the user routed it', () => {
  it('a rule and a URL match with or without the final dot, either side', () => {
    for (const [rule, url] of [['a.test', 'http://a.test./'], ['a.test.', 'http://a.test/'], ['A.Test.', 'http://a.TEST./']] as const) {
      const resolve = new ConnectRules([parseResolve(`${rule}:80:127.0.0.1`)], [])
      expect(resolve.target(new URL(url).hostname, 80), `${rule} ${url}`).toEqual({ hosts: ['127.0.0.1'], port: 80, mapped: true })
      const connectTo = new ConnectRules([], [parseConnectTo(`${rule}:80:staging.test.:8080`)])
      expect(connectTo.target(new URL(url).hostname, 80), `${rule} ${url}`).toEqual({ hosts: ['staging.test'], port: 8080, mapped: true })
    }
    // A lone dot is no name: it never becomes "any host".
    expect(parseConnectTo('.:80:127.0.0.1:8080').host).toBe('.')
    expect(new ConnectRules([], [parseConnectTo('.:80:127.0.0.1:8080')]).target('a.test', 80).mapped).toBe(false)
  })
})
