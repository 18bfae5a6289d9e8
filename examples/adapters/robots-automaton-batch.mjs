#!/usr/bin/env node
// This library as a `robots-automaton compare --batch` adapter: the reference's
// answers, deciding lines included, so it agrees on every case. A template
// for adapters of other JavaScript libraries (see robots-parser-batch.mjs for
// the protocol), and the harness's own end-to-end check.
//
//   robots-automaton compare --cases unit --batch 'node examples/adapters/robots-automaton-batch.mjs'
import { readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { parseRobots } from 'robots-automaton'

const KEPT = 1000
const parsed = new Map()

function robotsOf(req) {
  if (typeof req.robots === 'string') return parseRobots(req.robots)
  if (typeof req.robots_base64 === 'string') return parseRobots(new Uint8Array(Buffer.from(req.robots_base64, 'base64')))
  let robots = parsed.get(req.robots_path)
  if (robots === undefined) {
    robots = parseRobots(new Uint8Array(readFileSync(req.robots_path)))
    if (parsed.size >= KEPT) parsed.delete(parsed.keys().next().value)
    parsed.set(req.robots_path, robots)
  }
  return robots
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
  try {
    req = JSON.parse(line)
    const robots = robotsOf(req)
    const matcher = Array.isArray(req.agent) ? robots.agents(req.agent) : robots.agent(req.agent)
    const { allowed, rule } = matcher.explain(req.url)
    out += JSON.stringify({ id: req.id, allowed, line: rule?.line ?? 0 }) + '\n'
  } catch (err) {
    out += JSON.stringify({ id: req?.id, error: String(err?.message ?? err) }) + '\n'
  }
  if (!flushing) {
    flushing = true
    setImmediate(flush)
  }
})
