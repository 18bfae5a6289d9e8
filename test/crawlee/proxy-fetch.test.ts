/**
 * The crawlee entry's proxy transport (src/crawlee/proxy-fetch.ts), through
 * a forward proxy on 127.0.0.1, under the access method (`fetchRobots`): an
 * http URL in absolute form, an https URL through a CONNECT tunnel (in a
 * child process that trusts a certificate made for the test), credentials,
 * and a proxy's refusal as no answer of the site.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer as createHttpServer, type Server } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseProxyUrl, proxyFetch } from '../../src/crawlee/proxy-fetch.js'
import { fetchRobots, RobotsError } from '../../src/index.js'
import { ROOT } from '../support/build.js'
import { startProxy, type TestProxy } from './support/proxy.js'

const BODY = 'User-agent: *\nDisallow: /private\n'
const seen: { path: string; userAgent?: string; acceptEncoding?: string }[] = []

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(String((server.address() as AddressInfo).port))))
}

const handler = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse): void => {
  seen.push({ path: req.url ?? '', userAgent: req.headers['user-agent'], acceptEncoding: req.headers['accept-encoding'] })
  if (req.url === '/robots.txt') res.writeHead(301, { location: '/real-robots.txt' }).end()
  else res.writeHead(200, { 'content-type': 'text/plain' }).end(BODY)
}

describe('proxyFetch: robots.txt through a forward proxy', () => {
  let site: Server
  let origin: string
  let proxy: TestProxy
  let strict: TestProxy

  beforeAll(async () => {
    site = createHttpServer(handler)
    origin = `http://127.0.0.1:${await listen(site)}`
    proxy = await startProxy()
    strict = await startProxy({ requireAuthorization: `Basic ${Buffer.from('u:p w').toString('base64')}` })
  })
  afterAll(async () => {
    site.close()
    await proxy.close()
    await strict.close()
  })

  it('an http URL goes to the proxy in absolute form, every redirect hop too; the body is asked for uncompressed', async () => {
    seen.length = 0
    proxy.requests.length = 0
    const r = await fetchRobots(`${origin}/x`, { fetch: proxyFetch(proxy.url, 5_000), userAgent: 'MyBot/1.0' })
    expect(r.outcome).toBe('ok')
    expect(r.redirects).toHaveLength(1)
    expect(r.robots.agent('MyBot').isAllowed(`${origin}/private/1`)).toBe(false)
    expect(proxy.requests.map((q) => [q.method, q.target])).toEqual([
      ['GET', `${origin}/robots.txt`],
      ['GET', `${origin}/real-robots.txt`],
    ])
    expect(seen).toEqual([
      { path: '/robots.txt', userAgent: 'MyBot/1.0', acceptEncoding: 'identity' },
      { path: '/real-robots.txt', userAgent: 'MyBot/1.0', acceptEncoding: 'identity' },
    ])
  })

  it("the proxy URL's credentials are sent as Proxy-Authorization (percent-decoded)", async () => {
    strict.requests.length = 0
    const r = await fetchRobots(`${origin}/`, { fetch: proxyFetch(strict.url.replace('http://', 'http://u:p%20w@'), 5_000) })
    expect(r.outcome).toBe('ok')
    expect(strict.requests[0].authorization).toBe(`Basic ${Buffer.from('u:p w').toString('base64')}`)
  })

  it("regression: a proxy's own failure (a 407, a CONNECT refused with 407, a proxy that cannot be reached) was recorded as the site unreachable; it is this side's failure (ERR_LOCAL), the proxy named", async () => {
    const local = async (url: string, proxyUrl: string, message: RegExp): Promise<void> => {
      const err: unknown = await fetchRobots(url, { fetch: proxyFetch(proxyUrl, 5_000) }).then(
        (r) => r,
        (e: unknown) => e,
      )
      expect(err).toBeInstanceOf(RobotsError)
      expect((err as RobotsError).code).toBe('ERR_LOCAL')
      expect((err as Error).message).toMatch(message)
    }
    await local(`${origin}/`, strict.url, /proxy 127\.0\.0\.1:\d+ refused the request: HTTP 407 Proxy Authentication Required/)
    await local('https://127.0.0.1:39999/', strict.url, /proxy 127\.0\.0\.1:\d+ refused CONNECT 127\.0\.0\.1:39999: HTTP 407/)
    await local(`${origin}/`, 'http://127.0.0.1:39999', /proxy 127\.0\.0\.1:39999 could not be reached \(ECONNREFUSED\)/)
    await local('https://127.0.0.1:39999/', 'http://127.0.0.1:39999', /proxy 127\.0\.0\.1:39999 could not be reached \(ECONNREFUSED\)/)
  })

  it('what the proxy says of the site stays the site\'s: a CONNECT refused with 403, a site the proxy cannot reach: unreachable', async () => {
    const refused = await fetchRobots('https://example.test/', { fetch: proxyFetch(proxy.url, 5_000) })
    expect(refused.outcome).toBe('unreachable')
    expect(refused.error?.message).toMatch(/refused CONNECT example\.test:443: HTTP 403/)
    const closed = await fetchRobots('http://127.0.0.1:39999/', { fetch: proxyFetch(proxy.url, 5_000) })
    expect(closed.outcome).toBe('unreachable')
    const tunnelled = await fetchRobots('https://127.0.0.1:39999/', { fetch: proxyFetch(proxy.url, 5_000) })
    expect(tunnelled.outcome).toBe('unreachable')
  })

  it('proxy URLs other than http(s) are refused before any request', () => {
    expect(() => parseProxyUrl('socks5://127.0.0.1:1080')).toThrow(/http: or https:/)
    expect(() => parseProxyUrl('not a url')).toThrow(/not a URL/)
    expect(() => proxyFetch('ftp://127.0.0.1', 1000)).toThrow(expect.objectContaining({ code: 'ERR_INPUT' }))
  })

  it('credentials that are not percent-encoded UTF-8 are ERR_INPUT before any request, the password not repeated (they failed inside the fetch: the site unreachable)', () => {
    for (const bad of ['http://us%er:secret@127.0.0.1:3128', 'http://user:pa%ss@127.0.0.1:3128', 'http://%FF:secret@127.0.0.1:3128']) {
      expect(() => parseProxyUrl(bad), bad).toThrow(expect.objectContaining({ code: 'ERR_INPUT', message: expect.stringMatching(/not percent-encoded UTF-8/) }))
      expect(() => proxyFetch(bad, 1000), bad).toThrow(expect.objectContaining({ code: 'ERR_INPUT' }))
    }
    const message = (proxyUrl: string): string => {
      try {
        parseProxyUrl(proxyUrl)
      } catch (err) {
        return String(err)
      }
      return 'no error'
    }
    expect(message('http://user:pa%ss@127.0.0.1:3128')).toMatch(/not percent-encoded UTF-8/)
    expect(message('http://user:pa%ss@127.0.0.1:3128')).not.toMatch(/pa%ss|user:/)
    expect(message('http://user:hunter2@[not-a-host')).toMatch(/not a URL/)
    expect(message('http://user:hunter2@[not-a-host')).not.toMatch(/hunter2/)
    expect(parseProxyUrl('http://user:p%25ss@127.0.0.1:3128').password).toBe('p%25ss')
  })

  describe('an https URL through a CONNECT tunnel', () => {
    let dir: string
    let https: Server
    let httpsOrigin: string
    let openssl = true
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'robots-proxy-tls-'))
      try {
        execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' })
      } catch {
        openssl = false
        return
      }
      https = createHttpsServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, handler)
      httpsOrigin = `https://127.0.0.1:${await listen(https)}`
      await build({
        stdin: { contents: "export { proxyFetch } from './src/crawlee/proxy-fetch.ts'\nexport { fetchRobots } from './src/index.ts'\n", resolveDir: ROOT, loader: 'ts' },
        bundle: true,
        platform: 'node',
        format: 'esm',
        outfile: join(dir, 'lib.mjs'),
        logLevel: 'warning',
      })
    })
    afterAll(() => {
      https?.close()
      rmSync(dir, { recursive: true, force: true })
    })

    it('CONNECT 127.0.0.1:port, then TLS to the site (the test certificate trusted by the child process)', async (ctx) => {
      if (!openssl) ctx.skip()
      proxy.requests.length = 0
      seen.length = 0
      const script = join(dir, 'run.mjs')
      writeFileSync(
        script,
        `import { fetchRobots, proxyFetch } from './lib.mjs'
const r = await fetchRobots(${JSON.stringify(httpsOrigin + '/x')}, { fetch: proxyFetch(${JSON.stringify(proxy.url)}, 5000), userAgent: 'MyBot/1.0' })
console.log(JSON.stringify({ outcome: r.outcome, hops: r.redirects.length, disallowed: !r.robots.agent('MyBot').isAllowed('/private/1'), error: r.error?.message }))
`,
      )
      const out = await new Promise<string>((resolve, reject) => {
        import('node:child_process').then(({ execFile }) =>
          execFile(process.execPath, [script], { env: { ...process.env, NODE_EXTRA_CA_CERTS: join(dir, 'cert.pem') }, timeout: 30_000 }, (err, stdout) =>
            err ? reject(err) : resolve(stdout),
          ),
        )
      })
      expect(JSON.parse(out)).toEqual({ outcome: 'ok', hops: 1, disallowed: true })
      const port = httpsOrigin.slice(httpsOrigin.lastIndexOf(':') + 1)
      expect(proxy.requests.map((q) => [q.method, q.target])).toEqual([
        ['CONNECT', `127.0.0.1:${port}`],
        ['CONNECT', `127.0.0.1:${port}`],
      ])
      expect(seen.map((s) => s.path)).toEqual(['/robots.txt', '/real-robots.txt'])
    })
  })
})
