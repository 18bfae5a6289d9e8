#!/usr/bin/env node
// A baseline for `robots-automaton compare --batch`: allows every URL without
// reading the robots.txt. What any implementation should beat, and the
// shortest complete adapter of the batch protocol.
//
//   robots-automaton compare --cases unit --batch 'node examples/adapters/allow-all-batch.mjs'
import { createInterface } from 'node:readline'

createInterface({ input: process.stdin, crlfDelay: Infinity }).on('line', (line) => {
  const { id } = JSON.parse(line)
  process.stdout.write(JSON.stringify({ id, allowed: true }) + '\n')
})
