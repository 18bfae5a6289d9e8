#!/usr/bin/env node
// robots-txt-guard (npm, Woorank) as a `robots-automaton compare --batch` adapter,
// with its companion parser robots-txt-parse (npm) reading the body.
//
//   robots-automaton compare --cases corpus --batch 'node examples/adapters/robots-txt-guard-batch.mjs'
//
// The batch protocol (batch-protocol.mjs serves it): one JSON request per line
// on stdin, one JSON answer per line on stdout, in any order. robots-txt-guard
// reports no deciding line (compare then checks verdicts only) and judges a
// path: the URL's path and query as WHATWG URL reads them (a path alone is
// read against http://example.com/). robots-txt-parse reads a stream; the
// body is given as one chunk of its UTF-8 text.
import { Readable } from 'node:stream'
import { bodyText, serveBatch } from './batch-protocol.mjs'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const guard = require('robots-txt-guard')
const parse = require('robots-txt-parse')

/** Parsed bodies kept, by robots_path (least recently used dropped first). */
const KEPT = 1000
const guards = new Map()

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

serveBatch(answer)
