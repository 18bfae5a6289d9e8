// Strict decoding of content codings (src/fetch/content-coding.ts): the
// undici dispatcher wrapper (both handler APIs) and decodeStrictly.
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { CODING_HEADER, decodeStrictly, encodedBodyRequest, parseCodings } from '../../src/fetch/content-coding.js'

const RULES = 'User-agent: *\nDisallow: /\n' + '# robots.txt of a site that allows nothing\n'.repeat(2)
const GZ = gzipSync(RULES)
const CUT = 40
const KEY = Symbol.for('undici.globalDispatcher.1')

/** Runs `fn` with a stand-in for undici's global dispatcher that answers every dispatch with `respond(handler)`. */
function withFakeDispatcher(respond: (handler: Record<string, (...a: unknown[]) => unknown>) => void, fn: () => void) {
  const g = globalThis as Record<symbol, unknown>
  const saved = g[KEY]
  g[KEY] = {
    dispatch(_opts: unknown, handler: Record<string, (...a: unknown[]) => unknown>) {
      respond(handler)
      return true
    },
  }
  try {
    fn()
  } finally {
    g[KEY] = saved
  }
}

describe('the undici dispatcher wrapper', () => {
  const raw = (...pairs: string[]) => pairs.map((p) => Buffer.from(p, 'latin1'))
  const names = (list: unknown[]) => list.filter((_, i) => i % 2 === 0).map((b) => String(b))

  it('onHeaders (undici 6): gzip is renamed, a server-sent internal header dropped, `this` kept', () => {
    const req = encodedBodyRequest()!
    let seen: unknown[] = []
    let self: unknown
    const handler = {
      onHeaders(this: unknown, _status: unknown, headers: unknown[]) {
        seen = headers
        self = this
        ;(this as { body?: string }).body = 'kept on the wrapper'
      },
    }
    withFakeDispatcher(
      (h) => h['onHeaders']!.call(h, 200, raw('Content-Encoding', 'gzip', CODING_HEADER, 'spoof', 'content-length', '40')),
      () => req.init.dispatcher.dispatch({}, handler),
    )
    expect(names(seen)).toEqual([CODING_HEADER, 'content-length'])
    expect(String(seen[1])).toBe('gzip')
    expect(Buffer.isBuffer(seen[0])).toBe(true)
    expect(req.state.renamed).toBe(true)
    expect((self as { body?: string }).body).toBe('kept on the wrapper')
    expect(Object.getPrototypeOf(self)).toBe(handler)
  })

  it('onHeaders: br, deflate, unknown codings and no coding are left to undici', () => {
    for (const ce of ['br', 'gzip, br', 'deflate', 'compress', '']) {
      const req = encodedBodyRequest()!
      let seen: unknown[] = []
      const pairs = ce === '' ? raw('content-type', 'text/plain') : raw('content-encoding', ce)
      withFakeDispatcher(
        (h) => h['onHeaders']!(200, pairs),
        () => req.init.dispatcher.dispatch({}, { onHeaders: (_s: unknown, headers: unknown[]) => void (seen = headers) }),
      )
      expect(names(seen), ce).toEqual([ce === '' ? 'content-type' : 'content-encoding'])
      expect(req.state.renamed, ce).toBe(false)
    }
  })

  it('onResponseStart (undici 7): the headers object is renamed the same way', () => {
    const req = encodedBodyRequest()!
    let seen: Record<string, unknown> = {}
    withFakeDispatcher(
      (h) => h['onResponseStart']!({}, 200, { 'content-encoding': 'gzip', [CODING_HEADER]: 'spoof', etag: 'x' }, 'OK'),
      () =>
        req.init.dispatcher.dispatch({}, {
          onResponseStart: (_c: unknown, _s: unknown, headers: Record<string, unknown>) => void (seen = headers),
        }),
    )
    expect(seen).toEqual({ [CODING_HEADER]: 'gzip', etag: 'x' })
    expect(req.state.renamed).toBe(true)
  })

  it('parseCodings drops identity and empty entries, keeps order', () => {
    expect(parseCodings(null)).toEqual([])
    expect(parseCodings('identity')).toEqual([])
    expect(parseCodings(' GZIP , br,')).toEqual(['gzip', 'br'])
  })

})

describe('decodeStrictly', () => {
  it('a cut stream errors, a network error is not taken for an empty body, cancel reaches the source', async () => {
    const read = async (s: ReadableStream<Uint8Array>) => {
      let n = 0
      const r = s.getReader()
      for (;;) {
        const { done, value } = await r.read()
        if (done) return n
        n += value.length
      }
    }
    const from = (...chunks: Uint8Array[]) => new Blob(chunks as BlobPart[]).stream()
    expect(await read(decodeStrictly(from(GZ), ['gzip']))).toBe(RULES.length)
    await expect(read(decodeStrictly(from(GZ.subarray(0, CUT)), ['gzip']))).rejects.toMatchObject({ code: 'Z_BUF_ERROR' })
    expect(await read(decodeStrictly(from(), ['gzip']))).toBe(0)
    const boom = new Error('socket')
    const failing = new ReadableStream<Uint8Array>({ pull: (c) => c.error(boom) })
    await expect(read(decodeStrictly(failing, ['gzip']))).rejects.toBe(boom)
    let cancelled = false
    const endless = new ReadableStream<Uint8Array>({
      pull: (c) => c.enqueue(GZ.subarray(0, 10)),
      cancel: () => {
        cancelled = true
      },
    })
    const decoded = decodeStrictly(endless, ['gzip'])
    await decoded.cancel(new Error('stop'))
    // Cancelling travels back through the pipes asynchronously.
    for (let i = 0; i < 50 && !cancelled; i++) await new Promise((r) => setTimeout(r, 10))
    expect(cancelled).toBe(true)
  })
})
