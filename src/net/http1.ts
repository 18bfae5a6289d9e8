/**
 * One HTTP/1.1 GET over a socket of its own, as robots.txt needs it: the
 * request written once the socket is connected, the response's head parsed
 * (status line and header fields, 1xx answers skipped), the body framed by
 * `Transfer-Encoding: chunked`, `Content-Length` or the connection's close
 * (RFC 9112 §6.3), and handed over as it arrives, with backpressure. The
 * connection is closed once the body is complete (one request per
 * connection: `Connection: close`).
 *
 * Node's `http` client does the same with far more machinery (an agent,
 * request and response streams): a crawler's cost per origin is mostly
 * this, so it is kept small here. Input is untrusted: the heads, interim
 * 1xx ones included, are limited to {@link MAX_HEAD_BYTES} in all and read
 * in linear time, a chunk-size line to {@link MAX_LINE_BYTES}, the trailer
 * section to {@link MAX_HEAD_BYTES}, and
 * anything malformed fails the response with a coded error
 * (`ERR_HTTP_PARSE`), never a guess.
 */
import type { Socket } from 'node:net'

/** Most bytes of a response's heads (status lines, header fields and empty lines), 1xx ones included. */
export const MAX_HEAD_BYTES = 64 * 1024
/** Longest chunk-size or trailer line, bytes. */
const MAX_LINE_BYTES = 4096
/** Body bytes buffered unread before the socket is paused. */
const HIGH_WATER = 64 * 1024

/** A response's head. */
export interface Http1Head {
  readonly status: number
  /** Header fields by lower-cased name, several of one name joined with `, `. */
  readonly fields: Map<string, string>
}

/** An error of the exchange: a malformed response, or a connection lost. */
function httpError(message: string, code: string): Error {
  return Object.assign(new Error(message), { code })
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/

/** Parses a head's text (without its final empty line): status and fields; throws ERR_HTTP_PARSE. */
function parseHead(text: string): Http1Head {
  const lines = text.split(/\r?\n/)
  const m = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(lines[0]!)
  if (m === null) throw httpError(`not an HTTP/1.x status line: ${JSON.stringify(lines[0]!.slice(0, 80))}`, 'ERR_HTTP_PARSE')
  const status = Number(m[1])
  // obs-fold: a line starting with white space continues the field before it, read as one space (RFC 9112 §5.2, a user agent's duty).
  const logical: string[] = []
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!
    const folded = line.charCodeAt(0) === 32 || line.charCodeAt(0) === 9
    if (folded && logical.length > 0) logical[logical.length - 1] += ` ${line.replace(/^[ \t]+/, '')}`
    else logical.push(line)
  }
  const fields = new Map<string, string>()
  for (const line of logical) {
    const colon = line.indexOf(':')
    // Lines without a name (white space before the first field included) are refused.
    if (colon <= 0) throw httpError(`a malformed header line: ${JSON.stringify(line.slice(0, 80))}`, 'ERR_HTTP_PARSE')
    const name = line.slice(0, colon).toLowerCase()
    if (!TOKEN.test(name)) throw httpError(`a malformed header name: ${JSON.stringify(name.slice(0, 80))}`, 'ERR_HTTP_PARSE')
    const value = line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '')
    // A CR alone or a NUL in a value: RFC 9110 §5.5 has the message refused (other parsers would split the line there).
    if (/[\r\0]/.test(value)) throw httpError(`a header value with a CR or NUL: ${JSON.stringify(line.slice(0, 80))}`, 'ERR_HTTP_PARSE')
    const had = fields.get(name)
    if (had !== undefined && name === 'location') {
      // A redirect names one target: two different ones joined with `, ` would name a URL neither gave.
      if (had !== value && status >= 300 && status < 400) throw httpError('a redirect with two different Location fields', 'ERR_HTTP_PARSE')
      continue
    }
    fields.set(name, had === undefined ? value : `${had}, ${value}`)
  }
  return { status, fields }
}

/** How the body ends. */
const enum Framing {
  None,
  Length,
  Chunked,
  Close,
}

/** What the exchange hands over: the head, then the body as an async iterable. */
export interface Http1Exchange {
  readonly head: Promise<Http1Head>
  /** The body's bytes (none for 204, 304 and an empty length); errors when the connection fails before its end. */
  readonly body: AsyncIterable<Uint8Array>
  /** The `Content-Length` when it framed the body. */
  contentLength(): number | undefined
  /** Stops: the socket is destroyed (a body not wanted, or read up to the limit). */
  cancel(): void
}

/**
 * Sends `request` (the whole request head) on `socket` once `ready` fires
 * (`secureConnect` for TLS; undefined: the socket is connected, at once)
 * and reads the response. `onClose`
 * runs once when the exchange is over: its body complete, failed or
 * cancelled (the socket destroyed), or the socket closed.
 */
export function exchange(socket: Socket, ready: 'secureConnect' | undefined, request: string, onClose: () => void): Http1Exchange {
  // Once: when the exchange is over (the body complete, a failure, a cancel or the socket's close), whichever comes first.
  let over = false
  const end = (): void => {
    if (over) return
    over = true
    onClose()
  }
  let resolveHead!: (h: Http1Head) => void
  let rejectHead!: (e: Error) => void
  const head = new Promise<Http1Head>((resolve, reject) => {
    resolveHead = resolve
    rejectHead = reject
  })
  head.catch(() => {})

  // Parser state.
  let headDone = false
  let pending: Buffer | undefined
  let framing = Framing.Close
  let remaining = 0
  let length: number | undefined
  /** Chunked: reading a size line (true) or chunk data (false); -1 after the data: its CRLF; trailers after the last chunk. */
  let chunkState: 'size' | 'data' | 'crlf' | 'trailers' = 'size'
  let bodyDone = false
  let failure: Error | undefined
  /** Bytes of the trailer section read so far, limited as a head is. */
  let trailerBytes = 0

  // The body's queue, read by one consumer.
  const queue: Uint8Array[] = []
  let queued = 0
  let wake: (() => void) | undefined
  let paused = false
  let closed = false

  const notify = (): void => {
    const w = wake
    wake = undefined
    w?.()
  }
  const push = (chunk: Uint8Array): void => {
    if (chunk.length === 0) return
    queue.push(chunk)
    queued += chunk.length
    if (queued > HIGH_WATER && !paused) {
      paused = true
      socket.pause()
    }
    notify()
  }
  const finishBody = (): void => {
    if (bodyDone) return
    bodyDone = true
    notify()
    // The one request of this connection is answered.
    socket.destroy()
    end()
  }
  const fail = (err: Error): void => {
    if (bodyDone || failure !== undefined) return
    failure = err
    if (!headDone) rejectHead(err)
    notify()
    socket.destroy()
    end()
  }

  const startBody = (h: Http1Head): void => {
    const te = h.fields.get('transfer-encoding')
    const cl = h.fields.get('content-length')
    const codings = te === undefined ? [] : te.split(',').map((c) => c.trim().toLowerCase()).filter((c) => c !== '' && c !== 'identity')
    if (h.status === 204 || h.status === 304 || (h.status >= 100 && h.status < 200)) framing = Framing.None
    else if (codings.length > 0) {
      // Only chunked is undone here: a body under another transfer coding (gzip, chunked) is not the file.
      if (codings.length > 1 || codings[0] !== 'chunked') throw httpError(`a transfer coding not supported: ${JSON.stringify(te!.slice(0, 40))}`, 'ERR_HTTP_PARSE')
      framing = Framing.Chunked
    } else if (cl !== undefined) {
      const parts = cl.split(',').map((p) => p.trim())
      if (!/^0*\d{1,15}$/.test(parts[0]!) || parts.some((p) => p !== parts[0])) throw httpError(`a malformed Content-Length: ${JSON.stringify(cl.slice(0, 40))}`, 'ERR_HTTP_PARSE')
      framing = Framing.Length
      remaining = length = Number(parts[0])
    }
    if (framing === Framing.None) finishBody()
  }

  /** Feeds body bytes `b` (framing known). */
  const feedBody = (b: Buffer): void => {
    if (framing === Framing.Close) return push(b)
    if (framing === Framing.Length) {
      if (b.length >= remaining) {
        push(b.subarray(0, remaining))
        // Bytes past the length that come with it: the length was wrong, and the body read is not the whole file.
        if (b.length > remaining) throw httpError(`body ran past its Content-Length of ${length}`, 'ERR_BODY_LENGTH')
        remaining = 0
        return finishBody()
      }
      remaining -= b.length
      return push(b)
    }
    // Chunked.
    let at = 0
    while (at < b.length && !bodyDone) {
      if (chunkState === 'data') {
        const take = Math.min(remaining, b.length - at)
        push(b.subarray(at, at + take))
        at += take
        remaining -= take
        if (remaining === 0) chunkState = 'crlf'
        continue
      }
      // A line: a chunk size, the CRLF after chunk data, or a trailer.
      const lf = b.indexOf(10, at)
      if (lf < 0) {
        pending = b.subarray(at)
        if (pending.length > MAX_LINE_BYTES) throw httpError('a chunk-size line too long', 'ERR_HTTP_PARSE')
        return
      }
      const start = at
      const line = b.toString('latin1', at, lf).replace(/\r$/, '')
      at = lf + 1
      if (line.length > MAX_LINE_BYTES) throw httpError('a chunk-size line too long', 'ERR_HTTP_PARSE')
      if (chunkState === 'crlf') {
        if (line !== '') throw httpError('chunk data longer than its size', 'ERR_HTTP_PARSE')
        chunkState = 'size'
      } else if (chunkState === 'size') {
        const m = /^0*([0-9A-Fa-f]{1,12})[ \t]*(?:;.*)?$/.exec(line)
        if (m === null) throw httpError(`a malformed chunk size: ${JSON.stringify(line.slice(0, 40))}`, 'ERR_HTTP_PARSE')
        remaining = parseInt(m[1]!, 16)
        chunkState = remaining === 0 ? 'trailers' : 'data'
      } else if (line === '') finishBody()
      else if ((trailerBytes += lf + 1 - start) > MAX_HEAD_BYTES) throw httpError(`trailer fields longer than ${MAX_HEAD_BYTES} bytes`, 'ERR_HTTP_PARSE')
    }
    if (at < b.length && !bodyDone) pending = b.subarray(at)
  }

  // The heads, interim ones included, as they arrive: all of them count toward MAX_HEAD_BYTES, and the search for a
  // head's end resumes where it stopped, so a flood of 1xx heads or a head sent byte by byte costs linear time.
  let heads = Buffer.alloc(0)
  /** Bytes held in `heads`; where the head being read starts; where the search for its end resumes. */
  let headsLen = 0
  let headAt = 0
  let scanned = 0

  /** Appends what of `chunk` fits in the heads' budget; returns the rest. */
  const takeHead = (chunk: Buffer): Buffer => {
    const take = Math.min(chunk.length, MAX_HEAD_BYTES - headsLen)
    if (headsLen + take > heads.length) {
      const grown = Buffer.allocUnsafe(Math.min(MAX_HEAD_BYTES, Math.max(headsLen + take, heads.length * 2, 1024)))
      heads.copy(grown, 0, 0, headsLen)
      heads = grown
    }
    chunk.copy(heads, headsLen, 0, take)
    headsLen += take
    return chunk.subarray(take)
  }

  /** The end of the head being read (the first empty line, its line ends CRLF or LF alike): its index and the bytes of its empty line; -1 while not in. */
  const headEnd = (): [number, number] => {
    for (;;) {
      const lf = heads.subarray(0, headsLen).indexOf(10, scanned)
      if (lf < 0) {
        scanned = headsLen
        return [-1, 0]
      }
      scanned = lf
      if (lf + 1 >= headsLen) return [-1, 0]
      if (heads[lf + 1] === 10) return [lf, 2]
      if (heads[lf + 1] === 13) {
        if (lf + 2 >= headsLen) return [-1, 0]
        if (heads[lf + 2] === 10) return [lf, 3]
      }
      scanned = lf + 1
    }
  }

  const onData = (chunk: Buffer): void => {
    if (bodyDone || failure !== undefined) return
    try {
      let b = chunk
      if (!headDone) {
        const rest = takeHead(chunk)
        for (;;) {
          const [end, skip] = headEnd()
          if (end < 0) {
            if (headsLen >= MAX_HEAD_BYTES) throw httpError(`response heads (1xx ones included) longer than ${MAX_HEAD_BYTES} bytes`, 'ERR_HTTP_PARSE')
            return
          }
          const h = parseHead(heads.toString('latin1', headAt, end > headAt && heads[end - 1] === 13 ? end - 1 : end))
          headAt = scanned = end + skip
          if (h.status >= 100 && h.status < 200) {
            if (h.status === 101) throw httpError('a 101 Switching Protocols answer to a GET', 'ERR_HTTP_PARSE')
            continue // an interim answer: the final one follows
          }
          // The framing first: a head it refuses (a malformed Content-Length) rejects the head, not leaves it pending.
          startBody(h)
          headDone = true
          resolveHead(h)
          break
        }
        // The body's first bytes: those after the head, then what did not fit in the heads' budget.
        b = rest.length === 0 ? heads.subarray(headAt, headsLen) : Buffer.concat([heads.subarray(headAt, headsLen), rest])
        heads = Buffer.alloc(0)
      } else if (pending !== undefined) {
        b = Buffer.concat([pending, chunk])
        pending = undefined
      }
      // An empty length is complete now, unless bytes came with it.
      if (!bodyDone && (b.length > 0 || (framing === Framing.Length && remaining === 0))) feedBody(b)
    } catch (err) {
      fail(err as Error)
    }
  }

  socket.on('data', onData)
  if (ready === undefined) socket.write(request)
  else socket.once(ready, () => socket.write(request))
  socket.on('error', (err) => fail(err))
  socket.once('end', () => {
    if (bodyDone || failure !== undefined) return
    if (!headDone) return fail(httpError('the connection closed before a response', 'ECONNRESET'))
    if (framing === Framing.Close && pending === undefined) return finishBody()
    if (framing === Framing.Length) {
      return fail(httpError(`body ended after ${length! - remaining} bytes, Content-Length is ${length}`, 'ERR_BODY_LENGTH'))
    }
    fail(httpError('the connection closed before the end of a chunked body', 'ERR_BODY_INCOMPLETE'))
  })
  socket.once('close', () => {
    closed = true
    if (!bodyDone && failure === undefined) fail(httpError('the connection closed', 'ECONNRESET'))
    notify()
    end()
  })

  const body: AsyncIterable<Uint8Array> = {
    [Symbol.asyncIterator]() {
      return {
        async next(): Promise<IteratorResult<Uint8Array>> {
          for (;;) {
            const chunk = queue.shift()
            if (chunk !== undefined) {
              queued -= chunk.length
              if (paused && queued <= HIGH_WATER / 2 && !closed) {
                paused = false
                socket.resume()
              }
              return { value: chunk, done: false }
            }
            if (failure !== undefined) throw failure
            if (bodyDone) return { value: undefined, done: true }
            await new Promise<void>((resolve) => (wake = resolve))
          }
        },
        async return(): Promise<IteratorResult<Uint8Array>> {
          // The reader stops early (the limit): the rest is not downloaded.
          if (!bodyDone) {
            bodyDone = true
            socket.destroy()
            end()
          }
          return { value: undefined, done: true }
        },
      }
    },
  }

  return {
    head,
    body,
    contentLength: () => (framing === Framing.Length ? length : undefined),
    cancel() {
      if (!bodyDone) bodyDone = true
      socket.destroy()
      notify()
      end()
    },
  }
}
