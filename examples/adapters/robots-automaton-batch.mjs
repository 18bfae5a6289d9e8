#!/usr/bin/env node
// This library as a `robots-automaton compare --batch` adapter: the reference's
// answers, deciding lines included, so it agrees on every case. A template
// for adapters of other JavaScript libraries (batch-protocol.mjs serves
// the protocol), and the harness's own end-to-end check.
//
//   robots-automaton compare --cases unit --batch 'node examples/adapters/robots-automaton-batch.mjs'
import { parseRobots } from 'robots-automaton'
import { bodyBytes, serveBatch } from './batch-protocol.mjs'

const KEPT = 1000
const parsed = new Map()

function robotsOf(req) {
  if (typeof req.robots === 'string') return parseRobots(req.robots)
  if (typeof req.robots_base64 === 'string') return parseRobots(bodyBytes(req))
  let robots = parsed.get(req.robots_path)
  if (robots === undefined) {
    robots = parseRobots(bodyBytes(req))
    if (parsed.size >= KEPT) parsed.delete(parsed.keys().next().value)
    parsed.set(req.robots_path, robots)
  }
  return robots
}

serveBatch((req) => {
  const robots = robotsOf(req)
  const matcher = Array.isArray(req.agent) ? robots.agents(req.agent) : robots.agent(req.agent)
  const { allowed, rule } = matcher.explain(req.url)
  return { id: req.id, allowed, line: rule?.line ?? 0 }
})
