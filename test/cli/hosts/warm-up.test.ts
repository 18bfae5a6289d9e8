/**
 * The warm-up of `filter`'s per-host path (cli/hosts/warm-up.ts): its
 * built-in bodies must reach the branches the first hosts of a list seldom
 * take (else the code compiled for them is thrown away and compiled again
 * at some later host), and it must change no answer.
 */
import { describe, expect, it } from 'vitest'
import { parseRobots, UrlScan } from '../../../src/index.js'
import { bodyProblem } from '../../../src/cli/common/body-problems.js'
import { FILTER_MATCHER_OPTIONS } from '../../../src/cli/hosts/host-rules.js'
import { warmUpHostPath, worthWarmingUp, WARM_BODIES, WARM_UP_BYTES, WARM_URLS } from '../../../src/cli/hosts/warm-up.js'

const encoder = new TextEncoder()
const parsed = WARM_BODIES.map((b) => parseRobots(encoder.encode(b), FILTER_MATCHER_OPTIONS))
const codes = parsed.flatMap((r) => r.diagnostics.map((d) => d.code))

/** Every URL's verdict (`matchScan` codes) under every body, for `agent`. */
function verdicts(agent: string): number[] {
  const scan = new UrlScan()
  const out: number[] = []
  for (const body of WARM_BODIES) {
    const m = parseRobots(encoder.encode(body), FILTER_MATCHER_OPTIONS).agents([agent])
    for (const url of WARM_URLS) {
      expect(scan.scanString(url)).toBe(true)
      out.push(m.matchScan(scan))
    }
  }
  return out
}

describe('filter warm-up', () => {
  it('reaches the rarer parser branches: diagnostics of every kind a list meets', () => {
    for (const code of ['pattern-start', 'empty-user-agent', 'user-agent-cut', 'sitemap-not-absolute', 'missing-colon', 'unknown-directive', 'typo', 'rule-outside-group', 'invalid-line']) {
      expect(codes, code).toContain(code)
    }
    expect(parsed.map((r) => bodyProblem(r))).toContain('html')
  })

  it('meets patterns repeated from the group before (written once: the form is smaller than the same rules unrepeated)', () => {
    const shared = WARM_BODIES.find((b) => b.includes('/shared/one'))!
    const cut = shared.indexOf('\n\n')
    // The second group's patterns changed, their lengths kept: nothing to repeat.
    const unrepeated = shared.slice(0, cut) + shared.slice(cut).replaceAll('/shared/', '/shaped/')
    expect(parseRobots(shared).toBytes().length).toBeLessThan(parseRobots(unrepeated).toBytes().length)
  })

  it('judges URLs both ways, with anchored, starred and index-page rules', () => {
    const v = verdicts('Googlebot')
    expect(v.some((c) => (c & 1) === 1)).toBe(true)
    expect(v.some((c) => (c & 1) === 0)).toBe(true)
    expect(WARM_BODIES.join('')).toMatch(/\$\n/)
    expect(WARM_BODIES.join('')).toMatch(/Allow: \/dir\/index\.html/)
  })

  it('changes no answer, and runs for any agent; a crawler set is not warmed', () => {
    const before = verdicts('Googlebot')
    warmUpHostPath({ agent: ['Googlebot'] })
    warmUpHostPath({ agent: ['', 'not a token', 'bingbot'] })
    warmUpHostPath({ crawlers: [['a'], ['b']] })
    expect(verdicts('Googlebot')).toEqual(before)
  })

  it('is skipped for a short input of known size, not for a long one or a pipe', () => {
    expect(worthWarmingUp([60])).toBe(false)
    expect(worthWarmingUp([WARM_UP_BYTES - 1])).toBe(false)
    expect(worthWarmingUp([WARM_UP_BYTES])).toBe(true)
    expect(worthWarmingUp([WARM_UP_BYTES / 2, WARM_UP_BYTES / 2])).toBe(true)
    expect(worthWarmingUp([60, undefined])).toBe(true)
  })
})
