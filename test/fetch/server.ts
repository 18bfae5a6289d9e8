// A tiny HTTP server on 127.0.0.1 for the fetch tests. Random port, handler
// replaceable per test, every request logged, all sockets closed on close().
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void

export interface TestServer {
  /** `http://127.0.0.1:PORT` */
  origin: string
  port: number
  /** Request paths received, in order. */
  requests: string[]
  /** Request headers received, in order. */
  headers: http.IncomingHttpHeaders[]
  /** Current handler; tests set it before each scenario. */
  handler: Handler
  /** Forgets logged requests. */
  reset(): void
  close(): Promise<void>
}

export async function startServer(handler: Handler = (_req, res) => res.end()): Promise<TestServer> {
  const server = http.createServer()
  const t: TestServer = {
    origin: '',
    port: 0,
    requests: [],
    headers: [],
    handler,
    reset() {
      t.requests.length = 0
      t.headers.length = 0
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
  server.on('request', (req, res) => {
    t.requests.push(req.url ?? '')
    t.headers.push(req.headers)
    t.handler(req, res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.port = (server.address() as AddressInfo).port
  t.origin = `http://127.0.0.1:${t.port}`
  return t
}

/** Answers `status` with `body` and extra headers. */
export function reply(status: number, body: string | Uint8Array = '', headers: http.OutgoingHttpHeaders = {}): Handler {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'text/plain', ...headers })
    res.end(body)
  }
}

/** A port on 127.0.0.1 with nothing listening (bound, then released). */
export async function closedPort(): Promise<number> {
  const s = http.createServer()
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))
  const port = (s.address() as AddressInfo).port
  await new Promise<void>((resolve) => s.close(() => resolve()))
  return port
}
