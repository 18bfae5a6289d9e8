/**
 * The Node transport's HTTP/1.1 client against responses written byte by
 * byte (a raw server on 127.0.0.1): a head it refuses fails at once as a
 * network error, never waits for the deadline.
 */
import { createServer, type Server, type Socket } from 'node:net'
import { deflateRawSync, deflateSync, gzipSync } from 'node:zlib'
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

const ok200 = (fields: string, body: string | Buffer) => (s: Socket) =>
  s.end(Buffer.concat([Buffer.from(`HTTP/1.1 200 OK\r\n${fields}\r\n`, 'latin1'), Buffer.from(body)]))
const gz = gzipSync(RULES)

describe('regression: a body under a transfer coding other than chunked was parsed as the file', () => {
  it('gzip, chunked and gzip alone: a network error, never the gzip bytes parsed as rules', async () => {
    const chunked = Buffer.concat([Buffer.from(`${gz.length.toString(16)}\r\n`), gz, Buffer.from('\r\n0\r\n\r\n')])
    for (const [te, body] of [['gzip, chunked', chunked], ['gzip', gz], ['chunked, gzip', gz]] as const) {
      const { r } = await fetchRaw(ok200(`Transfer-Encoding: ${te}\r\n`, body))
      expect(r, te).toMatchObject({ outcome: 'unreachable', reason: 'network-error', error: { code: 'ERR_HTTP_PARSE' } })
      expect(r.error!.message).toMatch(/transfer coding/)
    }
  })

  it('chunked (any case, identity listed too) still frames the body; identity alone is no coding', async () => {
    const chunked = `${RULES.length.toString(16)}\r\n${RULES}\r\n0\r\n\r\n`
    for (const [te, body] of [['Chunked', chunked], ['identity, chunked', chunked], ['identity', RULES]] as const) {
      const { r } = await fetchRaw(ok200(`Transfer-Encoding: ${te}\r\n`, body))
      expect(r, te).toMatchObject({ outcome: 'ok', status: 200 })
      expect(r.robots.agent('x').isAllowed('http://127.0.0.1/private')).toBe(false)
    }
  })
})

describe('regression: a body in a content coding not decoded (zstd, compress, more than five) was parsed as the file', () => {
  it('its first byte is incomplete-body (decoding, ERR_CONTENT_CODING), never rules', async () => {
    for (const ce of ['zstd', 'compress', 'gzip, zstd', 'gzip,gzip,gzip,gzip,gzip,gzip']) {
      const { r } = await fetchRaw(ok200(`Content-Encoding: ${ce}\r\nContent-Length: ${gz.length}\r\n`, gz))
      expect(r, ce).toMatchObject({ outcome: 'unreachable', reason: 'incomplete-body', error: { kind: 'decoding', code: 'ERR_CONTENT_CODING' } })
    }
  })

  it('without a byte it is an empty file, as with gzip; identity is no coding', async () => {
    const { r: empty } = await fetchRaw(ok200('Content-Encoding: zstd\r\nContent-Length: 0\r\n', ''))
    expect(empty).toMatchObject({ outcome: 'ok' })
    expect(empty.robots.bytesRead).toBe(0)
    const { r: one } = await fetchRaw(ok200('Content-Encoding: zstd\r\nContent-Length: 1\r\n', '\n'))
    expect(one).toMatchObject({ outcome: 'unreachable', reason: 'incomplete-body' })
    const { r: identity } = await fetchRaw(ok200(`Content-Encoding: identity\r\nContent-Length: ${RULES.length}\r\n`, RULES))
    expect(identity).toMatchObject({ outcome: 'ok' })
    expect(identity.robots.agent('x').isAllowed('http://127.0.0.1/private')).toBe(false)
  })
})

describe('regression: bytes past Content-Length were dropped and the cut body parsed as complete', () => {
  it('a body one byte or more past its length, sent with it: incomplete-body, not the first Content-Length bytes', async () => {
    for (const cut of [RULES.length - 1, 20, 0]) {
      const { r } = await fetchRaw(ok200(`Content-Length: ${cut}\r\n`, RULES))
      expect(r, String(cut)).toMatchObject({ outcome: 'unreachable', reason: 'incomplete-body', error: { kind: 'length', code: 'ERR_BODY_LENGTH' } })
      expect(r.error!.message).toMatch(/ran past/)
    }
  })

  it('a body of exactly its length is whole', async () => {
    const { r } = await fetchRaw(ok200(`Content-Length: ${RULES.length}\r\n`, RULES))
    expect(r).toMatchObject({ outcome: 'ok' })
    expect(r.robots.bytesRead).toBe(RULES.length)
  })
})

describe('regression: a header value with a CR alone or a NUL was accepted', () => {
  it('refused (RFC 9110 §5.5), so a field hidden behind a bare CR cannot frame the body', async () => {
    for (const field of ['X-A: a\rContent-Length: 3', 'X-A: a\0b', 'ETag: "a\rb"']) {
      const { r } = await fetchRaw(ok200(`${field}\r\nContent-Length: ${RULES.length}\r\n`, RULES))
      expect(r, JSON.stringify(field)).toMatchObject({ outcome: 'unreachable', reason: 'network-error', error: { code: 'ERR_HTTP_PARSE' } })
    }
  })

  it('CR LF line ends, LF alone, and CR LF before a last LF all end a head', async () => {
    for (const [eol, last] of [['\r\n', '\r\n'], ['\n', '\n'], ['\r\n', '\n'], ['\n', '\r\n']] as const) {
      // The socket stays open: only the head's end, recognised, answers before the deadline.
      const { r } = await fetchRaw((s) => s.write(`HTTP/1.1 200 OK${eol}Content-Length: ${RULES.length}${eol}${last}${RULES}`), 5000)
      expect(r, JSON.stringify([eol, last])).toMatchObject({ outcome: 'ok' })
      expect(r.robots.agent('x').isAllowed('http://127.0.0.1/private')).toBe(false)
    }
  })
})

describe('regression: two different Location fields of a redirect were joined into one URL and followed', () => {
  it('a network error, not a request for "/a, /b"', async () => {
    const { r } = await fetchRaw((s) => s.end('HTTP/1.1 301 Moved\r\nLocation: /a\r\nLocation: /b\r\nContent-Length: 0\r\n\r\n'))
    expect(r).toMatchObject({ outcome: 'unreachable', reason: 'network-error', error: { code: 'ERR_HTTP_PARSE' } })
    expect(r.redirects).toEqual([])
  })

  it('the same Location twice is one; two on a 200 do not matter', async () => {
    let n = 0
    const { r } = await fetchRaw((s) =>
      n++ === 0 ? s.end('HTTP/1.1 301 Moved\r\nLocation: /a\r\nLocation: /a\r\nContent-Length: 0\r\n\r\n') : ok200(`Content-Length: ${RULES.length}\r\n`, RULES)(s),
    )
    expect(r).toMatchObject({ outcome: 'ok', finalUrl: `http://127.0.0.1:${port}/a` })
    const { r: r200 } = await fetchRaw(ok200(`Location: /a\r\nLocation: /b\r\nContent-Length: ${RULES.length}\r\n`, RULES))
    expect(r200).toMatchObject({ outcome: 'ok' })
  })
})

describe('regression: a chunk size or Content-Length with many leading zeros was refused', () => {
  it('leading zeros do not count against the digits allowed; a size past them still does', async () => {
    const hex = RULES.length.toString(16)
    const { r: chunked } = await fetchRaw(ok200('Transfer-Encoding: chunked\r\n', `${'0'.repeat(20)}${hex}\r\n${RULES}\r\n${'0'.repeat(20)}\r\n\r\n`))
    expect(chunked).toMatchObject({ outcome: 'ok' })
    expect(chunked.robots.bytesRead).toBe(RULES.length)
    const { r: length } = await fetchRaw(ok200(`Content-Length: ${'0'.repeat(20)}${RULES.length}\r\n`, RULES))
    expect(length).toMatchObject({ outcome: 'ok' })
    const { r: huge } = await fetchRaw(ok200('Transfer-Encoding: chunked\r\n', `1${'0'.repeat(12)}\r\n${RULES}\r\n0\r\n\r\n`))
    expect(huge).toMatchObject({ outcome: 'unreachable', error: { code: 'ERR_HTTP_PARSE' } })
    const { r: list } = await fetchRaw(ok200('Transfer-Encoding: , chunked,\r\n', `${hex}\r\n${RULES}\r\n0\r\n\r\n`))
    expect(list).toMatchObject({ outcome: 'ok' })
  })
})

describe('a response cut at every byte', () => {
  it('Content-Length and chunked, closed after each byte: never ok, never allow-all; whole: ok', async () => {
    const hex = (n: number) => n.toString(16)
    const responses = [
      `HTTP/1.1 200 OK\r\nContent-Length: ${RULES.length}\r\n\r\n${RULES}`,
      `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${hex(5)};a=b\r\n${RULES.slice(0, 5)}\r\n${hex(RULES.length - 5)}\r\n${RULES.slice(5)}\r\n0\r\nX-T: 1\r\n\r\n`,
    ]
    for (const full of responses) {
      for (let cut = 0; cut < full.length; cut++) {
        const { r } = await fetchRaw((s) => s.end(full.slice(0, cut)))
        expect(r.outcome, `${JSON.stringify(full.slice(0, cut))}`).toBe('unreachable')
      }
      const { r } = await fetchRaw((s) => s.end(full))
      expect(r.outcome).toBe('ok')
      expect(r.robots.agent('x').isAllowed('http://127.0.0.1/private')).toBe(false)
    }
  })
})

describe('regression: a gzip body read up to the limit left its connection open (and its slot of the address held) while the server stalled', () => {
  it('the connection closes when reading stops: the one slot of the address is free again at once', async () => {
    const bomb = gzipSync(Buffer.alloc(2 * 1024 * 1024, 0x61))
    // More than the limit decoded, then silence: no last chunk, no close.
    answer = (s) => s.write(Buffer.concat([Buffer.from(`HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n${bomb.length.toString(16)}\r\n`), bomb]))
    const transport = createNodeTransport({ perAddress: 1 })
    try {
      const r = await fetchRobots(`http://127.0.0.1:${port}/`, { transport, timeoutMs: 20_000 })
      expect(r).toMatchObject({ outcome: 'ok' })
      expect(r.robots.truncated).toBe(true)
      const lease = transport.tryLease('127.0.0.1')
      expect(lease).toBeDefined()
      lease!.release()
    } finally {
      transport.close()
    }
  })
})

describe('regression: a header folded over two lines (obs-fold) made the whole answer a network error', () => {
  it('a continuation line is part of the field before it, read as one space (RFC 9112 §5.2)', async () => {
    const { r } = await fetchRaw(ok200(`Cache-Control: public,\r\n\tmax-age=3600\r\nContent-Length:\r\n ${RULES.length}\r\n`, RULES))
    expect(r).toMatchObject({ outcome: 'ok', headers: { 'cache-control': 'public, max-age=3600', 'content-length': String(RULES.length) } })
    expect(r.robots.agent('x').isAllowed('http://127.0.0.1/private')).toBe(false)
  })

  it('white space before the first field, or a CR ending a value, is still refused', async () => {
    for (const fields of [` X-A: b\r\nContent-Length: ${RULES.length}\r\n`, `X-A: b\r\r\nContent-Length: ${RULES.length}\r\n`]) {
      const { r } = await fetchRaw(ok200(fields, RULES))
      expect(r, JSON.stringify(fields)).toMatchObject({ outcome: 'unreachable', reason: 'network-error', error: { code: 'ERR_HTTP_PARSE' } })
    }
  })
})

describe('regression: deflate sent raw (no zlib header), which browsers, curl and undici read, was unreachable (disallow all)', () => {
  it('raw and zlib-wrapped deflate are the file (under gzip, zlib-wrapped); either cut short is incomplete-body', async () => {
    const raw = deflateRawSync(RULES)
    const wrapped = deflateSync(RULES)
    for (const [ce, body] of [['deflate', raw], ['deflate', wrapped], ['deflate, gzip', gzipSync(wrapped)]] as const) {
      const { r } = await fetchRaw(ok200(`Content-Encoding: ${ce}\r\nContent-Length: ${body.length}\r\n`, body))
      expect(r, ce).toMatchObject({ outcome: 'ok' })
      expect(r.robots.agent('x').isAllowed('http://127.0.0.1/private'), ce).toBe(false)
    }
    for (const body of [raw, wrapped]) {
      const cut = body.subarray(0, body.length - 3)
      const { r } = await fetchRaw(ok200(`Content-Encoding: deflate\r\nContent-Length: ${cut.length}\r\n`, cut))
      expect(r).toMatchObject({ outcome: 'unreachable', reason: 'incomplete-body', error: { kind: 'decoding' } })
    }
  })
})
