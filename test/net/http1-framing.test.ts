/**
 * The Node transport's HTTP/1.1 client against responses written byte by
 * byte (a raw server on 127.0.0.1): a head it refuses fails at once as a
 * network error, never waits for the deadline.
 */
import { createServer, type Server, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fetchRobots } from '../../src/index.js'
import { createNodeTransport } from '../../src/node.js'

let server: Server
let port = 0
/** The raw answer the server writes to the next request, then closes (or not). */
let answer: (socket: Socket) => void = (s) => s.end()

beforeAll(async () => {
  server = createServer((socket) => {
    socket.on('error', () => {})
    let head = ''
    socket.on('data', (d) => {
      head += d.toString('latin1')
      if (head.includes('\r\n\r\n')) answer(socket)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const RULES = 'User-agent: *\nDisallow: /private\n'

async function fetchRaw(raw: (socket: Socket) => void, timeoutMs = 20_000) {
  answer = raw
  const transport = createNodeTransport()
  try {
    const started = performance.now()
    const r = await fetchRobots(`http://127.0.0.1:${port}/`, { transport, timeoutMs })
    return { r, ms: performance.now() - started }
  } finally {
    transport.close()
  }
}

describe('regression: a head whose framing is refused hung until the deadline', () => {
  it('two different Content-Length values: a network error at once, not a time-out', async () => {
    // The socket stays open: only the client's own refusal can end the exchange early.
    const { r, ms } = await fetchRaw((s) => s.write(`HTTP/1.1 200 OK\r\nContent-Length: ${RULES.length}\r\nContent-Length: 5\r\n\r\n${RULES}`))
    expect(r.outcome).toBe('unreachable')
    expect(r.reason).toBe('network-error')
    expect(r.error).toMatchObject({ code: 'ERR_HTTP_PARSE' })
    expect(r.error!.message).toMatch(/Content-Length/)
    expect(ms).toBeLessThan(10_000)
  })

  it('a Content-Length that is not a number: the same', async () => {
    const { r, ms } = await fetchRaw((s) => s.write(`HTTP/1.1 200 OK\r\nContent-Length: abc\r\n\r\n${RULES}`))
    expect(r).toMatchObject({ outcome: 'unreachable', reason: 'network-error' })
    expect(r.error).toMatchObject({ code: 'ERR_HTTP_PARSE' })
    expect(ms).toBeLessThan(10_000)
  })

  it('the same Content-Length twice is one length, and an interim 103 before the answer is skipped', async () => {
    const { r } = await fetchRaw((s) => s.end(`HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: ${RULES.length}\r\nContent-Length: ${RULES.length}\r\n\r\n${RULES}`))
    expect(r).toMatchObject({ outcome: 'ok', status: 200 })
    expect(r.robots.agent('x').isAllowed('http://127.0.0.1/private')).toBe(false)
  })
})
