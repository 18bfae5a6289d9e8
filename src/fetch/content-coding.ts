/**
 * Content codings, decoded strictly: a gzip body that ends before its trailer
 * is an error, not a shorter file. Platforms decode `Content-Encoding`
 * leniently (a truncated robots.txt would parse as a shorter, often empty,
 * file that allows everything), so on Node `fetchRobots` has undici hand a
 * gzip body over still encoded ({@link encodedBodyRequest}) and decodes it
 * here ({@link decodeStrictly}). docs/fetching.md says what is left lenient.
 */
import { asBytes, RobotsError } from '../errors.js'

/** The header the undici dispatcher moves `Content-Encoding` to, so that undici leaves the body encoded. */
export const CODING_HEADER = 'x-robots-automaton-content-encoding'

/** The codings decoded here. */
const STRICT_CODINGS = new Set(['gzip', 'x-gzip'])

/** The `Accept-Encoding` sent when the body is decoded here. */
export const STRICT_ACCEPT_ENCODING = 'gzip'

/** `Symbol.for` key under which undici keeps its global dispatcher (stable across undici 5–7). */
const UNDICI_GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1')

interface UndiciDispatcher {
  dispatch(options: unknown, handler: object): boolean
}

/** The codings of a `Content-Encoding` value, lower-cased, in the order applied; `identity` dropped, and `none` (what servers that send it mean). */
export function parseCodings(value: string | null): string[] {
  if (value === null) return []
  return value
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity' && c !== 'none')
}

function hasStrictDecoder(): boolean {
  return typeof DecompressionStream === 'function'
}

/** Whether every coding listed (at least one) is one decoded here. */
function decodableHere(value: string): boolean {
  const codings = parseCodings(value)
  return codings.length > 0 && codings.length <= 5 && codings.every((c) => STRICT_CODINGS.has(c))
}

/** Bytes (a Node Buffer or any Uint8Array) or a string, as a latin1 string. */
function headerText(v: unknown): string | undefined {
  if (typeof v === 'string') return v
  const bytes = asBytes(v)
  if (bytes !== undefined) {
    let s = ''
    for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]!)
    return s
  }
  return undefined
}

/** A header name of the same kind as `like` (undici passes Node Buffers; `Buffer.from` is reached through its constructor). */
function headerLike(like: unknown, text: string): unknown {
  if (typeof like === 'string') return text
  const from = (like as { constructor?: { from?: (s: string, enc: string) => unknown } }).constructor?.from
  return typeof from === 'function' ? from.call((like as { constructor: unknown }).constructor, text, 'latin1') : undefined
}

/** The state of one request through the dispatcher: whether it renamed `Content-Encoding`. */
export interface EncodedBodyState {
  renamed: boolean
}

/** undici 6 handlers: `onHeaders(status, rawHeaders, resume, statusText)`, raw headers as name/value pairs. */
function renameRaw(raw: unknown, state: EncodedBodyState): unknown {
  if (!Array.isArray(raw) || raw.length % 2 !== 0) return raw
  const out: unknown[] = []
  let hasCoding = false
  let codings = ''
  for (let i = 0; i < raw.length; i += 2) {
    const name = headerText(raw[i])?.toLowerCase()
    if (name === undefined) return raw
    if (name === CODING_HEADER) continue // never trust one the server sent
    if (name === 'content-encoding') {
      codings += (codings === '' ? '' : ', ') + (headerText(raw[i + 1]) ?? '')
      hasCoding = true
    }
    out.push(raw[i], raw[i + 1])
  }
  if (!hasCoding || !decodableHere(codings)) return out
  // Every Content-Encoding line gets the new name (there may be several), or
  // none does when a name of that kind cannot be made (undici decodes then).
  const renamed = out.slice()
  for (let i = 0; i < renamed.length; i += 2) {
    if (headerText(renamed[i])?.toLowerCase() !== 'content-encoding') continue
    const name = headerLike(renamed[i], CODING_HEADER)
    if (name === undefined) return out
    renamed[i] = name
  }
  state.renamed = true
  return renamed
}

/** undici 7 handlers: `onResponseStart(controller, status, headers, statusText)`, headers as an object. */
function renameObject(headers: unknown, state: EncodedBodyState): unknown {
  if (typeof headers !== 'object' || headers === null) return headers
  const h = { ...(headers as Record<string, unknown>) }
  delete h[CODING_HEADER]
  const ce = h['content-encoding']
  const text = Array.isArray(ce) ? ce.map(headerText).join(', ') : headerText(ce)
  if (text !== undefined && decodableHere(text)) {
    h[CODING_HEADER] = ce
    delete h['content-encoding']
    state.renamed = true
  }
  return h
}

/** Wraps undici's response handler so that it sees the renamed header. `this` stays the wrapper (the handler keeps state on it). */
function wrapHandler(handler: object, state: EncodedBodyState): object {
  const h = handler as Record<string, unknown>
  const wrapped = Object.create(handler) as Record<string, unknown>
  if (typeof h['onHeaders'] === 'function') {
    const onHeaders = h['onHeaders'] as (...args: unknown[]) => unknown
    wrapped['onHeaders'] = function (this: unknown, status: unknown, raw: unknown, ...rest: unknown[]) {
      return onHeaders.call(this, status, renameRaw(raw, state), ...rest)
    }
  }
  if (typeof h['onResponseStart'] === 'function') {
    const onResponseStart = h['onResponseStart'] as (...args: unknown[]) => unknown
    wrapped['onResponseStart'] = function (this: unknown, controller: unknown, status: unknown, headers: unknown, ...rest: unknown[]) {
      return onResponseStart.call(this, controller, status, renameObject(headers, state), ...rest)
    }
  }
  return wrapped
}

/**
 * `RequestInit` members that make Node's `fetch` (undici) hand over a gzip
 * body still encoded, with the per-request state that says whether it did;
 * undefined where the body cannot be decoded here (no `DecompressionStream`).
 *
 * Why: the platforms' `fetch` decode `Content-Encoding` leniently. Node's
 * (undici) flushes gzip, deflate and br with `Z_SYNC_FLUSH`, as curl and
 * browsers do, so a compressed body cut short inside a response whose HTTP
 * framing is complete (a `Content-Length` that matches the bytes sent, a
 * chunked body with its last chunk, a body delimited by closing the
 * connection) just ends. Nothing in the decoded stream tells.
 *
 * How: undici takes a `dispatcher` in its `RequestInit` (a documented
 * extension). The one given here forwards to undici's global dispatcher (so a
 * proxy agent set with `setGlobalDispatcher` still applies) and renames a
 * response's `Content-Encoding` header to {@link CODING_HEADER} when it lists
 * only codings decoded here (gzip). undici then hands the body over as sent,
 * and {@link decodeStrictly} decodes it. The request asks for `gzip` only
 * (`Accept-Encoding`), so that a server picks the coding checked here.
 * Platforms that ignore the `dispatcher` option (browsers, Deno, Bun) decode
 * as before; the rename then never happens and nothing changes. A server
 * that sends {@link CODING_HEADER} itself is ignored: the header counts only
 * when the dispatcher renamed it, and the dispatcher drops any sent.
 *
 * Left to the platform's lenient decoder: deflate and br (Node's
 * `DecompressionStream` has no br; deflate is rare), and every coding when a
 * `fetch` is passed in `options.fetch`.
 */
export function encodedBodyRequest(): { init: { dispatcher: UndiciDispatcher }; state: EncodedBodyState } | undefined {
  if (!hasStrictDecoder()) return undefined
  const state: EncodedBodyState = { renamed: false }
  const dispatcher: UndiciDispatcher = {
    dispatch(options, handler) {
      const inner = (globalThis as Record<symbol, unknown>)[UNDICI_GLOBAL_DISPATCHER] as UndiciDispatcher | undefined
      if (!inner || typeof inner.dispatch !== 'function') throw new RobotsError('ERR_FETCH', 'undici global dispatcher not found')
      return inner.dispatch(options, wrapHandler(handler, state))
    },
  }
  return { init: { dispatcher }, state }
}

/**
 * Decodes `body`, encoded with `codings` (in the order applied, each one of
 * gzip / x-gzip), with `DecompressionStream`: the stream errors when a coding
 * ends early or is corrupt. An empty body is an empty file (servers send
 * `Content-Encoding` on empty answers). Cancelling the result cancels `body`.
 */
export function decodeStrictly(body: ReadableStream<Uint8Array>, codings: readonly string[]): ReadableStream<Uint8Array> {
  // Set when the encoded body ended normally without a single byte.
  let sawBytes = false
  let emptyEnd = false
  let stream = body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (chunk.length > 0) sawBytes = true
        controller.enqueue(chunk)
      },
      flush() {
        emptyEnd = !sawBytes
      },
    }),
  )
  for (let i = codings.length - 1; i >= 0; i--) {
    stream = stream.pipeThrough(new DecompressionStream('gzip') as unknown as TransformStream<Uint8Array, Uint8Array>)
  }
  const reader = stream.getReader()
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let step: ReadableStreamReadResult<Uint8Array>
        try {
          step = await reader.read()
        } catch (err) {
          if (emptyEnd) return controller.close()
          throw err
        }
        if (step.done) controller.close()
        else controller.enqueue(step.value)
      },
      cancel(reason) {
        return reader.cancel(reason)
      },
    },
    { highWaterMark: 0 },
  )
}
