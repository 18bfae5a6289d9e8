/**
 * A forward proxy on 127.0.0.1 for the tests: absolute-form requests
 * (`GET http://host/path`) are forwarded, `CONNECT host:port` is tunnelled;
 * only to 127.0.0.1. It records each request with its Proxy-Authorization.
 */
import { createServer, request as httpRequest } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'

export interface ProxyRecord {
  method: string
  /** The absolute URL, or `host:port` for CONNECT. */
  target: string
  authorization: string | undefined
}

export interface TestProxy {
  /** `http://127.0.0.1:port` */
  readonly url: string
  readonly requests: ProxyRecord[]
  close(): Promise<void>
}

/** `requireAuthorization`: the Proxy-Authorization value without which the proxy answers 407. */
export async function startProxy(options: { requireAuthorization?: string } = {}): Promise<TestProxy> {
  const sockets = new Set<Socket>()
  const requests: ProxyRecord[] = []
  const refuses = (authorization: string | undefined): boolean =>
    options.requireAuthorization !== undefined && authorization !== options.requireAuthorization
  const server = createServer((req, res) => {
    const target = req.url ?? ''
    requests.push({ method: req.method ?? '', target, authorization: req.headers['proxy-authorization'] })
    if (refuses(req.headers['proxy-authorization'])) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"' }).end('User-agent: *\nDisallow: /\n')
      return
    }
    let url: URL
    try {
      url = new URL(target)
    } catch {
      res.writeHead(400).end('absolute-form only')
      return
    }
    if (url.hostname !== '127.0.0.1') {
      res.writeHead(403).end('loopback only')
      return
    }
    const headers = { ...req.headers }
    delete headers['proxy-authorization']
    const upstream = httpRequest({ host: '127.0.0.1', port: url.port, path: url.pathname + url.search, method: req.method, headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers)
      up.pipe(res)
    })
    upstream.on('error', () => res.destroy())
    req.pipe(upstream)
  })
  server.on('connect', (req, client: Socket, head: Buffer) => {
    const target = req.url ?? ''
    requests.push({ method: 'CONNECT', target, authorization: req.headers['proxy-authorization'] })
    if (refuses(req.headers['proxy-authorization'])) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\n\r\n')
      return
    }
    const [host, port] = [target.slice(0, target.lastIndexOf(':')), Number(target.slice(target.lastIndexOf(':') + 1))]
    if (host !== '127.0.0.1') {
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n')
      return
    }
    const upstream = connect(port, host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      if (head.length) upstream.write(head)
      upstream.pipe(client)
      client.pipe(upstream)
    })
    sockets.add(upstream)
    upstream.on('error', () => client.destroy())
    client.on('error', () => upstream.destroy())
  })
  server.on('connection', (s: Socket) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      }),
  }
}
