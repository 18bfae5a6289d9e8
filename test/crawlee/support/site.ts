/**
 * A 32-page site on 127.0.0.1 for crawls with a real Crawlee: every page
 * links to every page, and /robots.txt answers as a test sets it (a status
 * and body, a reset, no answer, redirects, a big file streamed). The server
 * counts what it was asked: robots.txt requests (redirect hops included),
 * their User-Agent headers, and the pages.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

/** The pages of the site, every one linked from every page. */
export const PAGES: readonly string[] = [
  '/',
  '/a|b',
  '/dir/',
  '/dir/index.html',
  '/private',
  ...Array.from({ length: 7 }, (_, i) => `/private/${i + 1}`),
  ...Array.from({ length: 20 }, (_, i) => `/public/${i + 1}`),
]

/** How /robots.txt answers. */
export type RobotsAnswer =
  /** A status, a body, headers; `delayMs` before the answer. */
  | { status: number; body?: string; headers?: Record<string, string>; delayMs?: number }
  /** The connection is reset (destroyed) when the request arrives. */
  | { reset: true }
  /** No answer, ever (until the server closes). */
  | { hang: true }
  /** `/robots.txt` redirects to `/hop/1`, … `/hop/n`, which serves `body`. */
  | { redirects: number; body: string }
  /** 200 with `head`, then `fillerBytes` of comment lines, then `tail`, written in chunks as the client reads them. */
  | { big: { head: string; fillerBytes: number; tail: string } }

export interface Site {
  /** `http://127.0.0.1:port` */
  readonly origin: string
  /** Requests for /robots.txt and for its redirect hops. */
  robotsRequests: number
  /** The User-Agent header of each robots.txt request. */
  readonly robotsUserAgents: string[]
  /** Page paths requested, in order. */
  readonly pages: string[]
  /** Bytes of a big robots.txt written to the socket before the client stopped reading. */
  bigBytesWritten: number
  robots: RobotsAnswer
  /** Page paths fetched, sorted and deduplicated. */
  fetched(): string[]
  reset(): void
  close(): Promise<void>
}

function page(): string {
  const links = PAGES.map((p) => `<a href="${p}">${p}</a>`).join('\n')
  return `<!doctype html><html><head><title>site</title></head><body>\n${links}\n</body></html>\n`
}

export async function startSite(robots: RobotsAnswer): Promise<Site> {
  const sockets = new Set<Socket>()
  const html = page()
  const site: Site = {
    origin: '',
    robotsRequests: 0,
    robotsUserAgents: [],
    pages: [],
    bigBytesWritten: 0,
    robots,
    fetched: () => [...new Set(site.pages)].sort(),
    reset() {
      site.robotsRequests = 0
      site.robotsUserAgents.length = 0
      site.pages.length = 0
      site.bigBytesWritten = 0
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      }),
  }
  const answerRobots = (req: IncomingMessage, res: ServerResponse, path: string): void => {
    site.robotsRequests++
    site.robotsUserAgents.push(req.headers['user-agent'] ?? '')
    const a = site.robots
    if ('reset' in a) {
      req.socket.destroy()
      return
    }
    if ('hang' in a) return
    if ('redirects' in a) {
      const hop = path === '/robots.txt' ? 0 : Number(path.slice('/hop/'.length))
      if (hop < a.redirects) {
        res.writeHead(301, { location: `/hop/${hop + 1}` })
        res.end()
      } else {
        res.writeHead(200, { 'content-type': 'text/plain' })
        res.end(a.body)
      }
      return
    }
    if ('big' in a) {
      res.writeHead(200, { 'content-type': 'text/plain' })
      const line = '# ' + 'x'.repeat(77) + '\n'
      const chunk = line.repeat(Math.ceil(16384 / line.length))
      let left = a.big.fillerBytes
      const write = (data: string): boolean => {
        site.bigBytesWritten += Buffer.byteLength(data)
        return res.write(data)
      }
      const pump = (): void => {
        while (left > 0) {
          const piece = chunk.slice(0, Math.min(chunk.length, left))
          left -= piece.length
          if (!write(piece)) {
            res.once('drain', pump)
            return
          }
        }
        write('\n' + a.big.tail)
        res.end()
      }
      res.on('close', () => res.removeAllListeners('drain'))
      write(a.big.head)
      pump()
      return
    }
    const send = (): void => {
      res.writeHead(a.status, { 'content-type': 'text/plain', ...a.headers })
      res.end(a.body ?? '')
    }
    if (a.delayMs) setTimeout(send, a.delayMs)
    else send()
  }
  const server = createServer((req, res) => {
    const path = req.url ?? '/'
    if (path === '/robots.txt' || path.startsWith('/hop/')) return answerRobots(req, res, path)
    site.pages.push(decodeURI(path))
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    res.end(html)
  })
  server.on('connection', (s: Socket) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  Object.assign(site, { origin: `http://127.0.0.1:${port}` })
  return site
}
