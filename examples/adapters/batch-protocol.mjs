// The batch protocol of `robots-automaton compare --batch`, for the
// JavaScript adapters of this folder: one JSON request per line on stdin,
//   {"id": 7, "robots_path": "/tmp/…/x.txt" | "robots": "…" | "robots_base64": "…", "agent": "Googlebot", "url": "https://a.com/x"}
// one JSON answer per line on stdout, in any order:
//   {"id": 7, "allowed": false, "line": 3}     or     {"id": 7, "error": "why"}
// Answers are written in blocks (one write per block of input read), never
// held back waiting for more input: the harness keeps a window of requests
// in flight and waits for answers. docs/compare-reference.md has the whole protocol.
import { readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'

/**
 * Serves the protocol on stdin and stdout: `answer(request)` gives the answer
 * object, or a promise of it; a request it throws on (or rejects) gets an
 * error answer with the message.
 */
export function serveBatch(answer) {
  let out = ''
  let flushing = false
  const flush = () => {
    flushing = false
    if (out) process.stdout.write(out)
    out = ''
  }
  const emit = (a) => {
    out += JSON.stringify(a) + '\n'
    if (!flushing) {
      flushing = true
      setImmediate(flush)
    }
  }
  const failed = (req, err) => ({ id: req?.id, error: String(err?.message ?? err) })
  createInterface({ input: process.stdin, crlfDelay: Infinity }).on('line', (line) => {
    let req
    try {
      req = JSON.parse(line)
      const a = answer(req)
      if (a instanceof Promise) a.then(emit, (err) => emit(failed(req, err)))
      else emit(a)
    } catch (err) {
      emit(failed(req, err))
    }
  })
}

/** A request's robots.txt as text: inline, or its bytes (base64 or the file) decoded as UTF-8 (as readFileSync(path, 'utf8')). */
export function bodyText(req) {
  if (typeof req.robots === 'string') return req.robots
  if (typeof req.robots_base64 === 'string') return Buffer.from(req.robots_base64, 'base64').toString('utf8')
  return readFileSync(req.robots_path, 'utf8')
}

/** A request's robots.txt bytes from base64 or its file (null for an inline text body: see bodyText). */
export function bodyBytes(req) {
  if (typeof req.robots === 'string') return null
  if (typeof req.robots_base64 === 'string') return new Uint8Array(Buffer.from(req.robots_base64, 'base64'))
  return new Uint8Array(readFileSync(req.robots_path))
}
