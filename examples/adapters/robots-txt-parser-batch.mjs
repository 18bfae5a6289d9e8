#!/usr/bin/env node
// robots-txt-parser (npm, chrisakroyd) as a `robots-automaton compare --batch` adapter.
//
//   robots-automaton compare --cases corpus --batch 'node examples/adapters/robots-txt-parser-batch.mjs'
//
// The batch protocol (batch-protocol.mjs serves it): one JSON request per line
// on stdin, one JSON answer per line on stdout. robots-txt-parser reports no
// deciding line (compare then checks verdicts only). It is made for one crawler
// (`userAgent`, other options at their defaults), is given the body with
// parseRobots() and judges the URL as given with canCrawlSync().
import { bodyText, serveBatch } from './batch-protocol.mjs'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const robotsParser = require('robots-txt-parser')

/** Parsers kept, by robots_path and agent (least recently used dropped first). */
const KEPT = 1000
const parsers = new Map()

function answer(req) {
  if (typeof req.agent !== 'string') return { id: req.id, error: 'robots-txt-parser takes one user agent' }
  const key = req.robots_path !== undefined ? `${req.robots_path}\n${req.agent}` : undefined
  let robots = key !== undefined ? parsers.get(key) : undefined
  if (robots === undefined) {
    robots = robotsParser({ userAgent: req.agent })
    robots.parseRobots('http://example.com', bodyText(req))
    if (key !== undefined) {
      if (parsers.size >= KEPT) parsers.delete(parsers.keys().next().value)
      parsers.set(key, robots)
    }
  }
  return { id: req.id, allowed: robots.canCrawlSync(req.url) }
}

serveBatch(answer)
