/**
 * Interim (1xx) heads and slow heads against the HTTP/1.1 client: every
 * head counts toward the 64 KiB budget and the search for a head's end
 * resumes where it stopped, so a hostile server gets a coded outcome of its
 * own and never stalls the other sites of the same run.
 */
import { EventEmitter } from 'node:events'
import { createServer, type Server, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fetchRobots } from '../../src/index.js'
import { createNodeTransport } from '../../src/node.js'
import { exchange } from '../../src/net/http1.js'

const RULES = 'User-agent: *\nDisallow: /private\n'

/** A raw server on 127.0.0.1 that answers each request with `answer`. */
async function rawServer(answer: (socket: Socket) => void): Promise<{ server: Server; port: number }> {
  const server = createServer((socket) => {
    socket.on('error', () => {})
    let head = ''
    socket.on('data', (d) => {
      if (head.includes('\r\n\r\n')) return
      head += d.toString('latin1')
      if (head.includes('\r\n\r\n')) answer(socket)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, port: (server.address() as AddressInfo).port }
}

/** Writes `piece` again and again, as fast as the socket takes it, until the client leaves. */
function flood(socket: Socket, piece: string): void {
  const block = Buffer.from(piece.repeat(Math.ceil(16384 / piece.length)), 'latin1')
  const more = (): void => {
    while (!socket.destroyed && socket.writable) if (!socket.write(block)) return void socket.once('drain', more)
  }
  more()
}

/** Writes `text` one byte per tick of `ms`, then leaves the socket open. */
function drip(socket: Socket, text: string, ms: number): void {
  let i = 0
  const timer = setInterval(() => {
    if (socket.destroyed || i >= text.length) return clearInterval(timer)
    socket.write(text[i++]!)
  }, ms)
  socket.once('close', () => clearInterval(timer))
}

const servers: Server[] = []
let good = 0
beforeAll(async () => {
  const g = await rawServer((s) => s.end(`HTTP/1.1 200 OK\r\nContent-Length: ${RULES.length}\r\n\r\n${RULES}`))
  servers.push(g.server)
  good = g.port
})
afterAll(() => Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve())))))

describe('regression: a flood of interim 1xx heads was not counted toward the head limit and froze the run', () => {
  for (const interim of ['HTTP/1.1 100 Continue\r\n\r\n', 'HTTP/1.1 102 Processing\n\n', 'HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n']) {
    it(`endless ${JSON.stringify(interim.slice(9, 12))} heads: a parse error for that site at once, the other site's answer as usual`, async () => {
      const bad = await rawServer((s) => flood(s, interim))
      servers.push(bad.server)
      const transport = createNodeTransport()
      try {
        const started = performance.now()
        const [flooded, fine] = await Promise.all([
          fetchRobots(`http://127.0.0.1:${bad.port}/`, { transport, timeoutMs: 8000 }),
          fetchRobots(`http://127.0.0.1:${good}/`, { transport, timeoutMs: 8000 }),
        ])
        expect(flooded).toMatchObject({ outcome: 'unreachable', reason: 'network-error', error: { code: 'ERR_HTTP_PARSE' } })
        expect(flooded.error!.message).toMatch(/1xx/)
        expect(fine).toMatchObject({ outcome: 'ok', status: 200 })
        expect(fine.robots.agent('x').isAllowed('http://127.0.0.1/private')).toBe(false)
        expect(performance.now() - started).toBeLessThan(5000)
      } finally {
        transport.close()
      }
    })
  }

  it('interim heads that fit the budget are still skipped, however many', async () => {
    const s = await rawServer((sock) => sock.end(`${'HTTP/1.1 100 Continue\r\n\r\n'.repeat(2000)}HTTP/1.1 200 OK\r\nContent-Length: ${RULES.length}\r\n\r\n${RULES}`))
    servers.push(s.server)
    const transport = createNodeTransport()
    try {
      const r = await fetchRobots(`http://127.0.0.1:${s.port}/`, { transport, timeoutMs: 8000 })
      expect(r).toMatchObject({ outcome: 'ok', status: 200 })
      expect(r.robots.agent('x').isAllowed('http://127.0.0.1/private')).toBe(false)
    } finally {
      transport.close()
    }
  })
})

describe('regression: a head sent byte by byte was searched again from its start on every byte', () => {
  it('a 60 KiB head fed one byte per data event: read in linear time', async () => {
    // A socket of its own, fed synchronously: no network timing, only the parser's cost per byte.
    const socket = Object.assign(new EventEmitter(), { write() {}, destroy() {}, pause() {}, resume() {} }) as unknown as Socket
    const ex = exchange(socket, undefined, 'GET / HTTP/1.1\r\n\r\n', () => {})
    const text = `HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n${'X-Filler: abcdefghijklmnopqrstuvwxyz\r\n'.repeat(1700)}Content-Length: ${RULES.length}\r\n\r\n${RULES}`
    const bytes = Buffer.from(text, 'latin1')
    expect(bytes.length).toBeGreaterThan(60_000)
    expect(bytes.length).toBeLessThan(64 * 1024)
    const started = process.cpuUsage()
    for (let i = 0; i < bytes.length; i++) socket.emit('data', bytes.subarray(i, i + 1))
    const cpu = process.cpuUsage(started)
    const head = await ex.head
    expect(head.status).toBe(200)
    expect(head.fields.get('x-filler')).toMatch(/^abc/)
    let body = ''
    for await (const c of ex.body) body += Buffer.from(c).toString('latin1')
    expect(body).toBe(RULES)
    // Linear: about a tenth of a second here; searching again from the start on each byte took over ten times that.
    expect((cpu.user + cpu.system) / 1000).toBeLessThan(600)
  })

  it('a dripped head and body are read whole, and a site answering at the same time is not held up', async () => {
    const dripped = await rawServer((s) => drip(s, `HTTP/1.1 103 Early Hints\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: ${RULES.length}\r\n\r\n${RULES}`, 1))
    servers.push(dripped.server)
    const transport = createNodeTransport()
    try {
      const [slow, fine] = await Promise.all([
        fetchRobots(`http://127.0.0.1:${dripped.port}/`, { transport, timeoutMs: 8000 }),
        fetchRobots(`http://127.0.0.1:${good}/`, { transport, timeoutMs: 8000 }),
      ])
      expect(slow).toMatchObject({ outcome: 'ok', status: 200 })
      expect(slow.robots.agent('x').isAllowed('http://127.0.0.1/private')).toBe(false)
      expect(fine).toMatchObject({ outcome: 'ok', status: 200 })
    } finally {
      transport.close()
    }
  })

  it('one head past 64 KiB without its end: a parse error, not a wait for the deadline', async () => {
    const long = await rawServer((s) => flood(s, 'X-Filler: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n'))
    servers.push(long.server)
    const transport = createNodeTransport()
    try {
      const started = performance.now()
      const r = await fetchRobots(`http://127.0.0.1:${long.port}/`, { transport, timeoutMs: 8000 })
      expect(r).toMatchObject({ outcome: 'unreachable', reason: 'network-error', error: { code: 'ERR_HTTP_PARSE' } })
      expect(performance.now() - started).toBeLessThan(5000)
    } finally {
      transport.close()
    }
  })
})

describe('regression: endless trailer fields after a chunked body were read until the deadline', () => {
  it('a trailer section past 64 KiB: a parse error at once; a few trailers are still fine', async () => {
    const endless = await rawServer((s) => {
      s.write(`HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${RULES.length.toString(16)}\r\n${RULES}\r\n0\r\n`)
      flood(s, 'X-Trailer: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n')
    })
    const few = await rawServer((s) => s.end(`HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${RULES.length.toString(16)}\r\n${RULES}\r\n0\r\n${'X-Trailer: a\r\n'.repeat(100)}\r\n`))
    servers.push(endless.server, few.server)
    const transport = createNodeTransport()
    try {
      const started = performance.now()
      const [r, ok] = await Promise.all([
        fetchRobots(`http://127.0.0.1:${endless.port}/`, { transport, timeoutMs: 8000 }),
        fetchRobots(`http://127.0.0.1:${few.port}/`, { transport, timeoutMs: 8000 }),
      ])
      expect(r).toMatchObject({ outcome: 'unreachable', reason: 'network-error', error: { code: 'ERR_HTTP_PARSE' } })
      expect(r.error!.message).toMatch(/trailer/)
      expect(performance.now() - started).toBeLessThan(5000)
      expect(ok).toMatchObject({ outcome: 'ok', status: 200 })
      expect(ok.robots.agent('x').isAllowed('http://127.0.0.1/private')).toBe(false)
    } finally {
      transport.close()
    }
  })
})
