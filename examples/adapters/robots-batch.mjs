#!/usr/bin/env node
// robots (npm, ekalinin's robots.js) as a `robots-automaton compare --batch` adapter.
//
//   robots-automaton compare --cases corpus --batch 'node examples/adapters/robots-batch.mjs'
//
// The batch protocol (batch-protocol.mjs serves it): one JSON request per line
// on stdin, one JSON answer per line on stdout. robots reports no deciding
// line (compare then checks verdicts only). The body is split into lines as
// RobotsParser.read() splits a fetched one and given to parse(); canFetchSync()
// judges a path: the URL's path and query as WHATWG URL reads them (a path
// alone is read against http://example.com/).
import { bodyText, serveBatch } from './batch-protocol.mjs'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const { RobotsParser } = require('robots')

/** Parsers kept, by robots_path (least recently used dropped first). */
const KEPT = 1000
const parsers = new Map()

function parserFor(req) {
  const key = req.robots_path
  let p = key !== undefined ? parsers.get(key) : undefined
  if (p === undefined) {
    p = new RobotsParser(null, {})
    p.parse(bodyText(req).split(/\r\n|\r|\n/))
    if (key !== undefined) {
      if (parsers.size >= KEPT) parsers.delete(parsers.keys().next().value)
      parsers.set(key, p)
    }
  }
  return p
}

function answer(req) {
  if (typeof req.agent !== 'string') return { id: req.id, error: 'robots takes one user agent' }
  const u = new URL(req.url, 'http://example.com/')
  return { id: req.id, allowed: parserFor(req).canFetchSync(req.agent, u.pathname + u.search) }
}

serveBatch(answer)
