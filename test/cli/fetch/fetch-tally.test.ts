/**
 * `fetch`'s summary line: an ok body that is no robots.txt (binary data,
 * such as gzip sent without its Content-Encoding; an HTML page) is counted
 * there, as `pack` counts files, not kept as an allow-all in silence.
 */
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { parseRobots } from '../../../src/index.js'
import { FetchTally } from '../../../src/cli/fetch/fetch-tally.js'

const info = { outcome: 'ok' as const, fetchedAt: 0, expiresAt: 1, reachableAt: 0 }

describe('regression: fetch kept a gzip body sent without Content-Encoding (binary: allow all) without a word', () => {
  it('the summary counts the ok bodies that are no robots.txt', () => {
    const tally = new FetchTally()
    const ok = { reason: 'success' as const }
    tally.add({ rules: parseRobots(gzipSync('User-agent: *\nDisallow: /\n'.repeat(40))), info }, ok)
    tally.add({ rules: parseRobots('<!DOCTYPE html>\n<html><body>Not here</body></html>\n'), info }, ok)
    tally.add({ rules: parseRobots('User-agent: *\nDisallow: /p\n'), info }, ok)
    expect(tally.summary(1, 'wrote x', undefined)).toMatch(/: 3 ok; 2 ok no robots\.txt; wrote x$/)
    const clean = new FetchTally()
    clean.add({ rules: parseRobots('User-agent: *\nDisallow: /p\n'), info }, ok)
    expect(clean.summary(1, 'wrote x', undefined)).not.toMatch(/no robots/)
  })
})
