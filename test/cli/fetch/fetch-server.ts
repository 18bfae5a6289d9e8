/**
 * The server of the `fetch` tests: one HTTP server on 127.0.0.1 answering
 * for every host name (each test routes its names there with `--resolve`),
 * counting requests per host and in flight, with a handler per test.
 */
import { spawn } from 'node:child_process'
import http, { type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach } from 'vitest'
import { CLI, ensureBuilt, tempDir } from '../helpers.js'

export interface FetchServer {
  readonly port: number
  /** Requests per host (the Host header without its port). */
  readonly asked: Map<string, number>
  /** Requests received in all. */
  total: number
  /** Requests in flight now, and the most at once. */
  inFlight: number
  peak: number
  /** How the server answers (default: 200 with a small robots.txt naming the host). */
  handler: (host: string, req: IncomingMessage, res: ServerResponse) => void
  reset(): void
  close(): Promise<void>
}

/** A robots.txt that differs per host, so that entries cannot be mixed up unseen. */
export const bodyOf = (host: string): string => `User-agent: *\nDisallow: /private/${host}\nAllow: /\n`

/** Starts the server; `delayMs`: each answer after that long. */
export async function startFetchServer(delayMs = 0): Promise<FetchServer> {
  const server = http.createServer()
  const s: FetchServer = {
    port: 0,
    asked: new Map(),
    total: 0,
    inFlight: 0,
    peak: 0,
    handler: (host, _req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' })
      res.end(bodyOf(host))
    },
    reset() {
      s.asked.clear()
      s.total = 0
      s.peak = 0
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '')
    s.asked.set(host, (s.asked.get(host) ?? 0) + 1)
    s.total++
    s.inFlight++
    s.peak = Math.max(s.peak, s.inFlight)
    res.on('close', () => s.inFlight--)
    if (delayMs > 0) setTimeout(() => s.handler(host, req, res), delayMs)
    else s.handler(host, req, res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  Object.assign(s, { port: (server.address() as AddressInfo).port })
  return s
}

/**
 * A handler with some variety, by the number in the host's name: a 404 for
 * every 17th, a 503 (unreachable) for every 29th, else 200 with `body(i)`;
 * `etag`: each answer carries one naming its host.
 */
export function variedAnswers(body: (i: number) => string, etag = false): FetchServer['handler'] {
  return (host, _req, res) => {
    const i = Number(/\d+/.exec(host)?.[0] ?? 0)
    const status = i % 17 === 0 ? 404 : i % 29 === 0 ? 503 : 200
    res.writeHead(status, { 'content-type': 'text/plain', ...(etag ? { etag: `"${host}"` } : {}) })
    res.end(status === 200 ? body(i) : '')
  }
}

/**
 * The hooks of a test file that fetches from one local server: dist/ built,
 * the server and a temporary folder started before its tests (handed to
 * `set`), the server reset before each test, both closed after them;
 * `delayMs`: each answer after that long, as {@link startFetchServer}.
 */
export function withFetchServer(set: (server: FetchServer, tmp: ReturnType<typeof tempDir>) => void, delayMs = 0): void {
  let server: FetchServer | undefined
  let tmp: ReturnType<typeof tempDir> | undefined
  beforeAll(async () => {
    ensureBuilt()
    tmp = tempDir()
    server = await startFetchServer(delayMs)
    set(server, tmp)
  })
  afterAll(async () => {
    await server?.close()
    tmp?.cleanup()
  })
  beforeEach(() => server?.reset())
}

/**
 * Runs the CLI and kills it with `signal` once `server` has seen `after`
 * requests (no wall-clock timing: however slow the machine); its exit code
 * or signal, and what it wrote.
 */
export function runKilledAfter(
  server: FetchServer,
  argv: string[],
  after: number,
  signal: NodeJS.Signals,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...argv], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c: Buffer) => (stdout += c))
    child.stderr.on('data', (c: Buffer) => (stderr += c))
    let waited = 0
    const poll = setInterval(() => {
      waited += 5
      if (server.total >= after) {
        clearInterval(poll)
        child.kill(signal)
      } else if (waited > 120_000) {
        clearInterval(poll)
        child.kill('SIGKILL')
        reject(new Error(`the run never reached ${after} requests: ${stderr}`))
      }
    }, 5)
    child.on('close', (code, sig) => {
      clearInterval(poll)
      resolve({ code, signal: sig, stdout, stderr })
    })
  })
}
