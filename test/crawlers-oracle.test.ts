/**
 * Opt-in: crawler sets against the real reference, google/robotstxt built
 * locally (not part of this repository). Runs only when ROBOTS_REF names a
 * folder holding its `oracle` tool and `lib/oracle-client.mjs` (the
 * project's differential setup: `ROBOTS_REF=/path/to/ref npx vitest run
 * test/crawlers-oracle.test.ts`); otherwise it is skipped, saying so.
 *
 * The oracle answers one agent list per case, so every crawler of a set is
 * asked one at a time: each URL of the paired corpus (the bundled sample
 * without ../shared), for a set of eight AI and search crawlers, a crawler
 * of two tokens, the file's own first user-agent name and that name again;
 * the set's verdict and line must be the reference's for every crawler, with
 * the default tiers and with tiers that change inside each host's URLs. Then
 * the differential check's seeded random bodies, agent lists and URLs
 * (ROBOTS_REF's lib/gen.mjs), each body's agent lists made one set, named
 * twice over.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { compactRulesOf } from '../src/internals.js'
import { parseRobots, type Crawler, type ParseOptions } from '../src/index.js'
import { loadPaired, loadSample } from './support/corpus-data.js'
import { SHARED } from './support/shared-data.js'

const REF = process.env.ROBOTS_REF
const HAS_REF = REF !== undefined && existsSync(join(REF, 'oracle')) && existsSync(join(REF, 'lib/oracle-client.mjs'))

const EIGHT = ['GPTBot', 'CCBot', 'ClaudeBot', 'Google-Extended', 'Applebot-Extended', 'Bytespider', 'PerplexityBot', 'Googlebot']

interface OracleClient {
  newBodyId(): number
  run(cases: { bodyId?: number; body?: Uint8Array; agents: readonly string[]; url: string }[]): Promise<{ allowed: boolean; line: number }[]>
  close(): Promise<void>
}

describe.skipIf(!HAS_REF)(`crawler sets against google/robotstxt (ROBOTS_REF=${REF ?? 'unset: skipped'})`, () => {
  for (const [name, options] of [
    ['default tiers', {}],
    ['tiers changing inside the URL lists (hotThreshold 2)', { hotThreshold: 2 }],
  ] as [string, ParseOptions][]) {
    it(`${name}: every crawler of the set, every URL, the reference's verdict and line`, async () => {
      const { Oracle } = (await import(pathToFileURL(join(REF!, 'lib/oracle-client.mjs')).href)) as { Oracle: new () => OracleClient }
      const oracle = new Oracle()
      const hosts = existsSync(join(SHARED, 'corpus/urls/paired.tsv')) ? loadPaired() : loadSample()
      const bad: string[] = []
      let judged = 0
      try {
        for (const h of hosts) {
          const body = h.robots ?? new Uint8Array(0)
          const robots = parseRobots(body, options)
          const own = compactRulesOf(robots).names[0] ?? 'Nobody'
          const crawlers: Crawler[] = [...EIGHT, ['Googlebot-Image', 'Googlebot'], own, own]
          const set = robots.crawlers(crawlers)
          const id = oracle.newBodyId()
          const cases = h.urls.flatMap((url, i) => crawlers.map((c, k) => ({ ...(i === 0 && k === 0 ? { body } : {}), bodyId: id, agents: typeof c === 'string' ? [c] : c, url })))
          const answers = await oracle.run(cases)
          const out = new Int32Array(crawlers.length)
          h.urls.forEach((url, i) => {
            set.match(url, out)
            crawlers.forEach((c, k) => {
              const ref = answers[i * crawlers.length + k]
              judged++
              if (out[k] !== ref.line * 2 + (ref.allowed ? 1 : 0) && bad.length < 10) bad.push(`${h.host} ${JSON.stringify(c)} ${url}: reference ${JSON.stringify(ref)}, set ${out[k]}`)
            })
          })
        }
      } finally {
        await oracle.close()
      }
      expect(bad).toEqual([])
      expect(judged).toBeGreaterThan(hosts.length * 11)
    }, 900_000)
  }

  it('seeded random bodies, agent lists and URLs of the differential check: each body\'s agent lists as one set, every tier', async () => {
    const { Oracle } = (await import(pathToFileURL(join(REF!, 'lib/oracle-client.mjs')).href)) as { Oracle: new () => OracleClient }
    type Rng = { wpick<T>(choices: [number, T][]): T; range(a: number, b: number): number }
    const gen = (await import(pathToFileURL(join(REF!, 'lib/gen.mjs')).href)) as {
      makeRng(seed: number): Rng
      randomBody(rng: Rng): { body: Buffer; names: string[]; patterns: Buffer[] }
      randomAgents(rng: Rng, names: string[]): string[]
      randomUrl(rng: Rng, patterns: Buffer[]): Uint8Array
      urlValue(rng: Rng, bytes: Uint8Array): string | Uint8Array
    }
    const oracle = new Oracle()
    const rng = gen.makeRng(31)
    const bad: string[] = []
    let judged = 0
    try {
      for (let b = 0; b < 3000; b++) {
        const { body, names, patterns } = gen.randomBody(rng)
        const lists = Array.from({ length: rng.range(1, 4) }, () => gen.randomAgents(rng, names))
        const crawlers: Crawler[] = [...lists, ...lists]
        const urls = Array.from({ length: rng.range(1, 8) }, () => gen.urlValue(rng, gen.randomUrl(rng, patterns)))
        const id = oracle.newBodyId()
        const cases = urls.flatMap((url, i) => lists.map((agents, k) => ({ ...(i === 0 && k === 0 ? { body: new Uint8Array(body) } : {}), bodyId: id, agents, url: url as string })))
        const answers = await oracle.run(cases)
        for (const options of [{}, { tier: 'cold' }, { tier: 'hot' }, { tier: 'thrash-proof' }, { hotThreshold: 2 }] as ParseOptions[]) {
          const set = parseRobots(new Uint8Array(body), options).crawlers(crawlers)
          urls.forEach((url, i) => {
            const out = set.match(url)
            crawlers.forEach((c, k) => {
              const ref = answers[i * lists.length + (k % lists.length)]
              judged++
              if (out[k] !== ref.line * 2 + (ref.allowed ? 1 : 0) && bad.length < 10) bad.push(`${JSON.stringify(options)} ${JSON.stringify(c)} ${JSON.stringify(typeof url === 'string' ? url : [...url])}: reference ${JSON.stringify(ref)}, set ${out[k]}\n${body.toString('latin1').slice(0, 500)}`)
            })
          })
        }
      }
    } finally {
      await oracle.close()
    }
    expect(bad).toEqual([])
    expect(judged).toBeGreaterThan(3000 * 5 * 2)
  }, 900_000)
})
