// parseRobotsStream (src/stream.ts): abort signal, ownership of the source
// (cancel / return / lock on every path), and string chunks that split a
// surrogate pair (issue 13, items 6 and 7).
import { getEventListeners } from 'node:events'
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { parseRobots, parseRobotsStream } from '../../src/index.js'
import { encodedLengths } from '../support/core-helpers.js'

const enc = new TextEncoder()
const RULES = 'User-agent: *\nDisallow: /private\n'

/** A Web stream that hands out `chunks`, then stalls forever; records cancel() calls. */
function stallingWebStream(chunks: unknown[]) {
  const state = { pulls: 0, cancelled: false, cancelReason: undefined as unknown }
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        state.pulls++
        if (chunks.length > 0) controller.enqueue(chunks.shift() as Uint8Array)
        else return new Promise<void>(() => {}) // never enqueues again
      },
      cancel(reason) {
        state.cancelled = true
        state.cancelReason = reason
      },
    },
    { highWaterMark: 0 },
  )
  return { stream, state }
}

/** An async iterator that hands out `chunks`, then stalls forever; records return() calls. */
function stallingIterable(chunks: unknown[]) {
  const state = { nexts: 0, returned: 0 }
  const iterable: AsyncIterable<Uint8Array> = {
    [Symbol.asyncIterator]() {
      return {
        next() {
          state.nexts++
          if (chunks.length > 0) return Promise.resolve({ done: false, value: chunks.shift() as Uint8Array })
          return new Promise<IteratorResult<Uint8Array>>(() => {})
        },
        return() {
          state.returned++
          return Promise.resolve({ done: true, value: undefined })
        },
      }
    },
  }
  return { iterable, state }
}

const abortListeners = (signal: AbortSignal) => getEventListeners(signal as unknown as EventTarget, 'abort').length

describe('parseRobotsStream cannot be aborted (issue 13 #6): the signal option', () => {
  it('aborting a stalled Web ReadableStream rejects with the reason, cancels it and releases its lock', async () => {
    const { stream, state } = stallingWebStream([enc.encode(RULES)])
    const ac = new AbortController()
    const reason = new Error('enough')
    const p = parseRobotsStream(stream, { signal: ac.signal })
    await new Promise((r) => setTimeout(r, 20))
    expect(stream.locked).toBe(true)
    ac.abort(reason)
    await expect(p).rejects.toBe(reason)
    expect(state.cancelled).toBe(true)
    expect(state.cancelReason).toBe(reason)
    expect(stream.locked).toBe(false)
    expect(abortListeners(ac.signal)).toBe(0)
  })

  it('aborting a stalled async iterator rejects with the reason and calls its return()', async () => {
    const { iterable, state } = stallingIterable([enc.encode(RULES)])
    const ac = new AbortController()
    const p = parseRobotsStream(iterable, { signal: ac.signal })
    await new Promise((r) => setTimeout(r, 20))
    expect(state.nexts).toBe(2)
    ac.abort()
    // Without a reason, the signal's own (an AbortError DOMException), as fetch does.
    await expect(p).rejects.toBe(ac.signal.reason)
    expect((ac.signal.reason as DOMException).name).toBe('AbortError')
    await new Promise((r) => setTimeout(r, 0))
    expect(state.returned).toBe(1)
    expect(abortListeners(ac.signal)).toBe(0)
  })

  it('aborting a stalled Node stream destroys it', async () => {
    const source = new PassThrough()
    source.write(enc.encode('User-agent: *\n'))
    const ac = new AbortController()
    const p = parseRobotsStream(source, { signal: ac.signal })
    await new Promise((r) => setTimeout(r, 20))
    ac.abort(new Error('stop'))
    await expect(p).rejects.toThrow('stop')
    await new Promise((r) => setTimeout(r, 0))
    expect(source.destroyed).toBe(true)
  })

  it('a signal aborted before the call rejects at once and cancels the source without reading it', async () => {
    const reason = new Error('already')
    const web = stallingWebStream([enc.encode(RULES)])
    await expect(parseRobotsStream(web.stream, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason)
    expect(web.state.pulls).toBe(0)
    expect(web.state.cancelled).toBe(true)
    expect(web.stream.locked).toBe(false)

    const iter = stallingIterable([enc.encode(RULES)])
    await expect(parseRobotsStream(iter.iterable, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason)
    expect(iter.state.nexts).toBe(0)
    await new Promise((r) => setTimeout(r, 0))
    expect(iter.state.returned).toBe(1)
  })

  it('a signal that never aborts changes nothing, and leaves no listener behind', async () => {
    const ac = new AbortController()
    const body = enc.encode(RULES.repeat(50))
    const chunks = Array.from({ length: 25 }, (_, i) => body.slice(i * 34, (i + 1) * 34)).concat([body.slice(850)])
    const got = await parseRobotsStream(
      new ReadableStream<Uint8Array>({
        pull(c) {
          const next = chunks.shift()
          if (next) c.enqueue(next)
          else c.close()
        },
      }),
      { signal: ac.signal },
    )
    expect(Buffer.compare(got.toBytes(), parseRobots(body).toBytes())).toBe(0)
    expect(abortListeners(ac.signal)).toBe(0)
    ac.abort() // after the end: nothing to reject
  })

  it('a timeout signal abandons a source that never yields', async () => {
    // The source never yields, so only the signal can end the parse (a hang would fail at vitest's time-out).
    const { stream, state } = stallingWebStream([])
    const signal = AbortSignal.timeout(50)
    await expect(parseRobotsStream(stream, { signal })).rejects.toMatchObject({ name: 'TimeoutError' })
    expect(signal.aborted).toBe(true)
    expect(state.cancelReason).toBe(signal.reason)
    expect(state.cancelled).toBe(true)
    expect(stream.locked).toBe(false)
  })

  it('a Web stream that yields a bad chunk is cancelled (with the error) and unlocked', async () => {
    const { stream, state } = stallingWebStream([enc.encode('User-agent: *\n'), 42])
    const err = await parseRobotsStream(stream).catch((e: unknown) => e)
    expect(err).toMatchObject({ code: 'ERR_INPUT' })
    expect(state.cancelled).toBe(true)
    expect(state.cancelReason).toBe(err)
    expect(stream.locked).toBe(false)
  })

  it('an async iterator that yields a bad chunk is closed with return()', async () => {
    const { iterable, state } = stallingIterable([enc.encode('User-agent: *\n'), { not: 'bytes' }])
    await expect(parseRobotsStream(iterable)).rejects.toMatchObject({ code: 'ERR_INPUT' })
    expect(state.returned).toBe(1)
  })

  it('a Web stream stopped at the limit is cancelled and unlocked, with or without a signal', async () => {
    for (const signal of [undefined, new AbortController().signal]) {
      const block = enc.encode('#'.repeat(65_536))
      const chunks = Array.from({ length: 20 }, () => block)
      const { stream, state } = stallingWebStream(chunks)
      const robots = await parseRobotsStream(stream, signal ? { signal } : {})
      expect(robots.truncated).toBe(true)
      expect(state.cancelled).toBe(true)
      expect(stream.locked).toBe(false)
    }
  })

  it('a Web stream that errors rejects with its error, is not cancelled, and is unlocked', async () => {
    const boom = new Error('source failed')
    let cancelled = false
    let sent = false
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        if (!sent) {
          sent = true
          c.enqueue(enc.encode('User-agent: *\n'))
        } else c.error(boom)
      },
      cancel() {
        cancelled = true
      },
    })
    await expect(parseRobotsStream(stream, { signal: new AbortController().signal })).rejects.toBe(boom)
    expect(cancelled).toBe(false)
    expect(stream.locked).toBe(false)
  })

  it('an async iterator whose next() throws is not closed again', async () => {
    const boom = new Error('next failed')
    let returned = 0
    const iterable: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]: () => ({
        next: () => Promise.reject(boom),
        return: () => {
          returned++
          return Promise.resolve({ done: true, value: undefined })
        },
      }),
    }
    await expect(parseRobotsStream(iterable)).rejects.toBe(boom)
    expect(returned).toBe(0)
  })

  it('bad arguments leave the source untouched: a locked stream, a signal that is not an AbortSignal', async () => {
    const { stream, state } = stallingWebStream([enc.encode(RULES)])
    const other = stream.getReader()
    await expect(parseRobotsStream(stream)).rejects.toMatchObject({ code: 'ERR_INPUT' })
    expect(state.cancelled).toBe(false)
    other.releaseLock()
    for (const bad of [{}, 'abort', 1, { aborted: false }]) {
      await expect(parseRobotsStream(stream, { signal: bad as unknown as AbortSignal })).rejects.toMatchObject({
        code: 'ERR_INPUT',
      })
    }
    expect(stream.locked).toBe(false)
    expect(state.pulls).toBe(0)
    expect(state.cancelled).toBe(false)
    // Still readable by its owner.
    const robots = await parseRobotsStream(stallingWebStream([enc.encode(RULES)]).stream, {
      signal: AbortSignal.timeout(200),
    }).catch((e: unknown) => e)
    expect(robots).toMatchObject({ name: 'TimeoutError' })
  })
})

describe('string chunks that split a surrogate pair change the rule (issue 13 #7)', () => {
  const strings = (chunks: string[]): AsyncIterable<string> =>
    (async function* () {
      yield* chunks
    })()

  it('the reported case: /x\\ud83d then \\ude00 stores /x%F0%9F%98%80', async () => {
    const got = await parseRobotsStream(strings(['User-agent: *\nDisallow: /x\ud83d', '\ude00\n']))
    const m = got.agent('bot')
    expect(m.explain('/x%F0%9F%98%80').rule?.pattern).toBe('/x%F0%9F%98%80')
    expect(m.isAllowed('/x%EF%BF%BD%EF%BF%BD')).toBe(true)
    expect(Buffer.compare(got.toBytes(), parseRobots('User-agent: *\nDisallow: /x\ud83d\ude00\n').toBytes())).toBe(0)
  })

  // Astral characters, lone surrogates (high at the very end too), a BOM, CRLF.
  const bodies = [
    'User-agent: *\nDisallow: /x\ud83d\ude00\nAllow: /\ud83d\ude00/y\ud800\n',
    '\ufeffUser-agent: bot\r\nDisallow: /\ud83c\udf55\ud83c\udf55*$\r\nDisallow: /\udc00lone-low\nAllow: /a\ud83d',
    '\ud83d\ude00\ud83d\ude00\nUser-agent: *\nDisallow: /\u00e9\ud83d\ude00\u4e2d\ud83d',
  ]

  it('every split point gives the rules of the whole string, async iterable and Web stream', async () => {
    for (const body of bodies) {
      const want = parseRobots(body).toBytes()
      for (let i = 0; i <= body.length; i++) {
        const chunks = [body.slice(0, i), body.slice(i)]
        const a = await parseRobotsStream(strings(chunks))
        expect(Buffer.compare(a.toBytes(), want), `iterable split at ${i} of ${JSON.stringify(body)}`).toBe(0)
        const w = await parseRobotsStream(
          new ReadableStream({
            pull(c) {
              const next = chunks.shift()
              if (next === undefined) c.close()
              else c.enqueue(next as unknown as Uint8Array)
            },
          }),
        )
        expect(Buffer.compare(w.toBytes(), want), `web stream split at ${i}`).toBe(0)
      }
    }
  })

  it('every pair of split points, and one code unit per chunk', async () => {
    for (const body of bodies) {
      const want = parseRobots(body).toBytes()
      for (let i = 0; i <= body.length; i++) {
        for (let j = i; j <= body.length; j++) {
          const got = await parseRobotsStream(strings([body.slice(0, i), body.slice(i, j), body.slice(j)]))
          expect(Buffer.compare(got.toBytes(), want), `splits ${i}, ${j}`).toBe(0)
        }
      }
      const units = await parseRobotsStream(strings([...Array(body.length).keys()].map((k) => body[k]!)))
      expect(Buffer.compare(units.toBytes(), want)).toBe(0)
    }
  })

  it('a high surrogate before empty chunks still pairs; before a byte chunk or the end it is U+FFFD', async () => {
    const paired = await parseRobotsStream(strings(['User-agent: *\nDisallow: /a\ud83d', '', '', '\ude00\n']))
    expect(Buffer.compare(paired.toBytes(), parseRobots('User-agent: *\nDisallow: /a\ud83d\ude00\n').toBytes())).toBe(0)

    const mixed = (async function* () {
      yield 'User-agent: *\nDisallow: /a\ud83d'
      yield enc.encode('b\n')
    })()
    const got = await parseRobotsStream(mixed as AsyncIterable<Uint8Array | string>)
    expect(got.agent('bot').explain('/a%EF%BF%BDb').rule?.pattern).toBe('/a%EF%BF%BDb')

    const atEnd = await parseRobotsStream(strings(['User-agent: *\nDisallow: /z\ud83d']))
    expect(atEnd.agent('bot').explain('/z%EF%BF%BD').rule?.pattern).toBe('/z%EF%BF%BD')
  })
})

describe('sources that break the iterator or reader protocol', () => {
  it("an iterator result that is not an object (null, 5), an iterator that is none, a getReader() that gives no reader: ERR_INPUT, not the TypeError of reading them", async () => {
    const iterating = (it: unknown): AsyncIterable<Uint8Array> => ({ [Symbol.asyncIterator]: () => it as AsyncIterator<Uint8Array> })
    let returned = 0
    const sources: [unknown, RegExp][] = [
      [iterating({ next: async () => null, return: async () => (returned++, { done: true, value: undefined }) }), /next\(\) gave null, not an iterator result/],
      [iterating({ next: async () => 5 }), /next\(\) gave 5, not an iterator result/],
      [iterating(null), /\[Symbol\.asyncIterator\]\(\) gave null, not an iterator/],
      [iterating({}), /\[Symbol\.asyncIterator\]\(\) gave \[object Object\], not an iterator/],
      [{ getReader: () => null }, /getReader\(\) gave null, not a reader/],
      [{ getReader: () => ({ read: async () => 'x', cancel: async () => {}, releaseLock() {} }) }, /read\(\) gave "x", not an iterator result/],
    ]
    for (const [source, message] of sources) {
      const err = await parseRobotsStream(source as AsyncIterable<Uint8Array>).catch((e: unknown) => e)
      expect(err, String(message)).toMatchObject({ code: 'ERR_INPUT' })
      expect((err as Error).message).toMatch(message)
    }
    // An iterator left early is closed, as for a bad chunk.
    expect(returned).toBe(1)
  })
})

describe('chunks of another realm', () => {
  it("a Uint8Array of another realm (a vm context's) is read as bytes, not refused as 'not a Uint8Array, got [object Uint8Array]'", async () => {
    const { runInNewContext } = await import('node:vm')
    const body = 'User-agent: *\r\nDisallow: /caf\u00e9\r\nAllow: /x\n'
    const bytes = enc.encode(body)
    const foreign = runInNewContext('(b) => { const u = new Uint8Array(b.length + 4); u.set(b, 2); return u.subarray(2, 2 + b.length) }')(Array.from(bytes)) as Uint8Array
    expect(foreign instanceof Uint8Array).toBe(false)
    async function* split(): AsyncGenerator<Uint8Array> {
      yield foreign.subarray(0, 20)
      yield foreign.subarray(20)
    }
    const r = await parseRobotsStream(split())
    expect(Buffer.from(r.toBytes())).toEqual(Buffer.from(parseRobots(bytes).toBytes()))
    // A view of another kind is still refused.
    const dv = runInNewContext('new DataView(new ArrayBuffer(2))') as DataView
    await expect(parseRobotsStream((async function* () { yield dv })() as unknown as AsyncIterable<Uint8Array>)).rejects.toMatchObject({ code: 'ERR_INPUT' })
  })
})

describe('regression: a string chunk past the limit was encoded whole (a 300 MB chunk: 300 MB of bytes)', () => {
  const chunksOf = (parts: string[]) => (async function* () { yield* parts })()

  it('only what the reader can take is encoded: at most limit + 1 chars of any chunk', async () => {
    const long = 'User-agent: *\nDisallow: /a\n' + 'x'.repeat(3_000_000)
    const seen = await encodedLengths(async () => {
      expect((await parseRobotsStream(chunksOf([long]))).truncated).toBe(true)
      // A second chunk past the limit once the first took part of it.
      expect((await parseRobotsStream(chunksOf(['User-agent: *\n', long]))).truncated).toBe(true)
    })
    expect(Math.max(...seen)).toBeLessThanOrEqual(512_001)
  })

  it('the result equals parseRobots of the bytes wherever the limit falls (inside a 2-, 3- or 4-byte character, a surrogate pair held across chunks, a CRLF)', async () => {
    const limit = 512_000
    let compared = 0
    for (const tail of ['\n', '\r\n', 'é', '日', '😀', '\r', 'x']) {
      for (let shift = -5; shift <= 5; shift++) {
        const head = 'User-agent: *\nDisallow: /a\n'
        const text = head + 'x'.repeat(limit - head.length - 17 + shift) + '\nDisallow: /edge' + tail.repeat(4) + 'Disallow: /after\n'
        const want = parseRobots(enc.encode(text), { limit })
        // Whole, and cut inside the tail (a surrogate pair split between chunks included).
        const cut = text.length - 'Disallow: /after\n'.length - 3
        for (const parts of [[text], [text.slice(0, cut), text.slice(cut)], [head, text.slice(head.length)]]) {
          const got = await parseRobotsStream(chunksOf(parts), { limit })
          expect([got.truncated, got.bytesRead, got.lineCount], `${JSON.stringify(tail)} ${shift} ${parts.length}`).toEqual([want.truncated, want.bytesRead, want.lineCount])
          expect(got.toBytes()).toEqual(want.toBytes())
          compared++
        }
      }
    }
    expect(compared).toBe(7 * 11 * 3)
  })
})
