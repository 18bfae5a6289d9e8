#!/usr/bin/env node
// robots-txt-guard (npm, Woorank) as a `robots-automaton compare --batch` adapter,
// with its companion parser robots-txt-parse (npm) reading the body.
//
//   robots-automaton compare --cases corpus --batch 'node examples/adapters/robots-txt-guard-batch.mjs'
//
// The batch protocol (see robots-parser-batch.mjs): one JSON request per line
// on stdin, one JSON answer per line on stdout, in any order. robots-txt-guard
// reports no deciding line (compare then checks verdicts only) and judges a
// path: the URL's path and query as WHATWG URL reads them (a path alone is
// read against http://example.com/). robots-txt-parse reads a stream; the
// body is given as one chunk of its UTF-8 text.
import { readFileSync } from 'node:fs'
import { Readable } from 'node:stream'
import { createInterface } from 'node:readline'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const guard = require('robots-txt-guard')
const parse = require('robots-txt-parse')

/** Parsed bodies kept, by robots_path (least recently used dropped first). */
const KEPT = 1000
const guards = new Map()

function bodyText(req) {
  if (typeof req.robots === 'string') return req.robots
  if (typeof req.robots_base64 === 'string') return Buffer.from(req.robots_base64, 'base64').toString('utf8')
  return readFileSync(req.robots_path, 'utf8')
}

async function guardFor(req) {
  const key = req.robots_path
  let g = key !== undefined ? guards.get(key) : undefined
  if (g === undefined) {
    g = parse(Readable.from([bodyText(req)])).then((rules) => guard(rules))
    if (key !== undefined) {
      if (guards.size >= KEPT) guards.delete(guards.keys().next().value)
      guards.set(key, g)
    }
  }
  return g
}

async function answer(req) {
  if (typeof req.agent !== 'string') return { id: req.id, error: 'robots-txt-guard takes one user agent' }
  const u = new URL(req.url, 'http://example.com/')
  const g = await guardFor(req)
  return { id: req.id, allowed: g.isAllowed(req.agent, u.pathname + u.search) }
}

let out = ''
let flushing = false
const flush = () => {
  flushing = false
  if (out) process.stdout.write(out)
  out = ''
}
createInterface({ input: process.stdin, crlfDelay: Infinity }).on('line', (line) => {
  let req
  Promise.resolve()
    .then(() => answer((req = JSON.parse(line))))
    .catch((err) => ({ id: req?.id, error: String(err?.message ?? err) }))
    .then((a) => {
      out += JSON.stringify(a) + '\n'
      if (!flushing) {
        flushing = true
        setImmediate(flush)
      }
    })
})
