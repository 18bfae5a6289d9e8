/**
 * `robots-automaton playground` as a server: the page's two files over GET
 * and HEAD on 127.0.0.1 with their types and policy, nothing else (404, 405,
 * another Host 421), SIGINT and SIGTERM stop it with exit 0, a port in use is
 * ERR_LISTEN; and `--out DIR` writes the two files. (The page itself:
 * test/playground/playground-browser.test.ts.)
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync, readlinkSync, symlinkSync } from 'node:fs'
import { request } from 'node:http'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CLI, ensureBuilt, ROOT, run, tempDir } from '../helpers.js'

const tmp = tempDir()

/** A started server: its process, the address it printed, and its exit. */
interface Served {
  child: ChildProcess
  url: string
  exit: Promise<{ status: number | null; stderr: string }>
}

/** Starts `playground ...args` and resolves once it has printed its address (however long a busy machine takes). */
function serve(args: string[]): Promise<Served> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [CLI, 'playground', ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let stderr = ''
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
    const exit = new Promise<{ status: number | null; stderr: string }>((r) => child.on('close', (status) => r({ status, stderr })))
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString()
      if (out.includes('\n')) resolvePromise({ child, url: out.trim(), exit })
    })
    child.on('error', reject)
    void exit.then(({ status, stderr: err }) => reject(new Error(`exited ${status} before printing an address: ${err}`)))
  })
}

/** One request, with the Host header given (default: the server's own). */
function get(url: string, options: { method?: string; path?: string; host?: string } = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const u = new URL(url)
  return new Promise((resolvePromise, reject) => {
    const req = request({ host: u.hostname, port: u.port, method: options.method ?? 'GET', path: options.path ?? '/', headers: { host: options.host ?? u.host } }, (res) => {
      let body = ''
      res.on('data', (c: Buffer) => (body += c.toString()))
      res.on('end', () => resolvePromise({ status: res.statusCode ?? 0, headers: res.headers, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

let server: Served

beforeAll(async () => {
  ensureBuilt()
  server = await serve(['--port', '0'])
})
afterAll(() => {
  server?.child.kill('SIGTERM')
  tmp.cleanup()
})

describe('playground: the server', () => {
  it('prints its loopback address as the only line on stdout', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/)
  })

  it("serves the page's two files with their types, no caching, and the page's policy", async () => {
    const page = await get(server.url)
    expect(page.status).toBe(200)
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(page.body).toBe(readFileSync(join(ROOT, 'dist/playground/index.html'), 'utf8'))
    expect(page.headers['cache-control']).toBe('no-store')
    expect(page.headers['x-content-type-options']).toBe('nosniff')
    expect(page.headers['content-security-policy']).toContain("default-src 'none'; script-src 'self'")
    const same = await get(server.url, { path: '/index.html?x=1' })
    expect(same.body).toBe(page.body)
    const script = await get(server.url, { path: '/playground.js' })
    expect(script.status).toBe(200)
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8')
    expect(script.body).toBe(readFileSync(join(ROOT, 'dist/playground/playground.js'), 'utf8'))
    const head = await get(server.url, { method: 'HEAD', path: '/playground.js' })
    expect(head.status).toBe(200)
    expect(head.body).toBe('')
    expect(Number(head.headers['content-length'])).toBe(Buffer.byteLength(script.body))
    expect((await get(server.url, { host: `localhost:${new URL(server.url).port}` })).status).toBe(200)
  })

  it('nothing else: other paths 404 (no file of the disk), other methods 405, another Host 421 (DNS rebinding)', async () => {
    for (const path of ['/x', '/../package.json', '/%2e%2e/package.json', '/playground/index.html', '/constructor', '/__proto__']) expect((await get(server.url, { path })).status, path).toBe(404)
    expect((await get(server.url, { method: 'POST' })).status).toBe(405)
    expect((await get(server.url, { method: 'PUT', path: '/index.html' })).status).toBe(405)
    expect((await get(server.url, { host: 'evil.example' })).status).toBe(421)
    expect((await get(server.url, { host: `evil.example:${new URL(server.url).port}` })).status).toBe(421)
  })

  it('a 405 named no allowed method (RFC 9110 requires Allow), and a request in absolute form (as a proxy sends it) was a 404: now Allow: GET, HEAD, and the absolute form is served, its authority checked as the Host', async () => {
    const post = await get(server.url, { method: 'POST' })
    expect(post.status).toBe(405)
    expect(post.headers.allow).toBe('GET, HEAD')
    const { host } = new URL(server.url)
    const js = await get(server.url, { path: `http://${host}/playground.js?x` })
    expect(js.status).toBe(200)
    expect(js.body).toBe(readFileSync(join(ROOT, 'dist/playground/playground.js'), 'utf8'))
    expect((await get(server.url, { path: `http://${host}` })).status).toBe(200)
    expect((await get(server.url, { path: `HTTP://localhost:${new URL(server.url).port}/index.html` })).status).toBe(200)
    expect((await get(server.url, { path: `http://${host}/../package.json` })).status).toBe(404)
    // The authority, not the Host header, says which server is asked: another one is refused.
    expect((await get(server.url, { path: 'http://evil.example/' })).status).toBe(421)
    expect((await get(server.url, { path: `http://evil.example:${new URL(server.url).port}/index.html` })).status).toBe(421)
  })

  it('a port in use is ERR_LISTEN (exit 1, one line naming the port)', async () => {
    const port = new URL(server.url).port
    const r = await run(['playground', '--port', port])
    expect(r.status).toBe(1)
    expect(r.stdout.length).toBe(0)
    expect(r.stderr).toBe(`robots-automaton: cannot listen on 127.0.0.1:${port}: port ${port} is in use (pick another with --port; 0: any free port)\n`)
  })

  it.each(['SIGINT', 'SIGTERM'] as const)('%s stops it with exit 0', async (signal) => {
    const s = await serve(['--port', '0'])
    expect((await get(s.url)).status).toBe(200)
    s.child.kill(signal)
    const { status, stderr } = await s.exit
    expect(status).toBe(0)
    expect(stderr).toBe(`robots-automaton: serving the robots.txt tester on ${s.url} (Ctrl-C stops it)\n`)
  })
})

describe('playground --out DIR', () => {
  it('writes index.html and playground.js into DIR (made if missing), as built', async () => {
    const out = tmp.path('site/sub')
    const r = await run(['playground', '--out', out])
    expect(r.status).toBe(0)
    expect(r.stdout.length).toBe(0)
    expect(r.stderr).toBe(`robots-automaton: wrote ${join(out, 'index.html')} and ${join(out, 'playground.js')}\n`)
    for (const f of ['index.html', 'playground.js']) expect(readFileSync(join(out, f))).toEqual(readFileSync(join(ROOT, 'dist/playground', f)))
  })

  it("--out onto a link to nothing said 'not a directory' (mkdir's EEXIST): it now says the link and where it points", async () => {
    symlinkSync('nowhere', tmp.path('dangling'))
    const r = await run(['playground', '-o', tmp.path('dangling')])
    expect(r.status).toBe(1)
    expect(r.stderr).toBe(`robots-automaton: cannot write the page into ${tmp.path('dangling')}: it is a link to nowhere, which does not exist\n`)
    const under = await run(['playground', '-o', join(tmp.path('dangling'), 'sub')])
    expect(under.status).toBe(1)
    expect(under.stderr).toBe(`robots-automaton: cannot write the page into ${tmp.path('dangling')}/sub: ${tmp.path('dangling')} is a link to nowhere, which does not exist\n`)
    expect(readlinkSync(tmp.path('dangling'))).toBe('nowhere')
  })

  it('a DIR that cannot be made is ERR_WRITE (exit 1)', async () => {
    const r = await run(['playground', '-o', join(ROOT, 'package.json', 'x')])
    expect(r.status).toBe(1)
    expect(r.stderr).toMatch(/^robots-automaton: cannot write the page into .*package\.json\/x: /)
  })
})
