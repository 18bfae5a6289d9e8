#!/usr/bin/env node
// robots-parser (npm) as a `robots-automaton compare --batch` adapter.
//
//   robots-automaton compare --cases corpus --batch 'node examples/adapters/robots-parser-batch.mjs'
//
// The batch protocol's loop: batch-protocol.mjs. robots-parser judges only
// URLs of its robots.txt's origin: a parser is kept per body and origin.
import { readFileSync } from 'node:fs'
import { serveBatch } from './batch-protocol.mjs'
import robotsParser from 'robots-parser'

/** robots-parser's own base for relative URLs. */
const BASE = 'http://robots-relative.samclarke.com/'
/** Parsed robots.txt kept, by body and origin (least recently used dropped first). */
const KEPT = 1000
const parsers = new Map()
const texts = new Map()

/** The body as text (what fs.readFileSync(path, 'utf8') would give). */
function bodyText(req) {
  if (typeof req.robots === 'string') return req.robots
  if (typeof req.robots_base64 === 'string') return Buffer.from(req.robots_base64, 'base64').toString('utf8')
  let text = texts.get(req.robots_path)
  if (text === undefined) {
    text = readFileSync(req.robots_path, 'utf8')
    if (texts.size >= KEPT) texts.delete(texts.keys().next().value)
    texts.set(req.robots_path, text)
  }
  return text
}

function answer(req) {
  if (typeof req.agent !== 'string') return { id: req.id, error: 'robots-parser takes one user agent' }
  const text = bodyText(req)
  const u = new URL(req.url, BASE) // robots-parser judges only URLs of its robots.txt's origin
  const origin = `${u.protocol}//${u.host}`
  const key = `${req.robots_path ?? text}\n${origin}`
  let robots = parsers.get(key)
  if (robots === undefined) {
    robots = robotsParser(`${origin}/robots.txt`, text)
    if (parsers.size >= KEPT) parsers.delete(parsers.keys().next().value)
    parsers.set(key, robots)
  }
  const allowed = robots.isAllowed(req.url, req.agent)
  if (allowed === undefined) return { id: req.id, error: 'robots-parser: the URL is not valid for this robots.txt' }
  const line = robots.getMatchingLineNumber(req.url, req.agent)
  return { id: req.id, allowed, line: line > 0 ? line : 0 }
}

serveBatch(answer)
