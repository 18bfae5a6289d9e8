/**
 * Every option of fetchRobots, RobotsCache, createNodeTransport and
 * DnsCache is honoured or refused (ERR_INPUT, naming it): a name mistyped,
 * or one the function does not take (a cache's `signal`), is never ignored
 * in silence; an injected `now()` that gives no finite number is refused
 * when called, never turned into NaN lifetimes. In-process, with a `fetch`
 * stand-in: nothing is sent.
 */
import { describe, expect, it } from 'vitest'
import { fetchRobots, RobotsCache, RobotsInputError } from '../../src/index.js'
import { createNodeTransport, DnsCache } from '../../src/node.js'

const fetch = async (): Promise<Response> => new Response('User-agent: *\nDisallow: /x\n', { status: 200 })

/** The error `f` throws or rejects with. */
async function failure(f: () => unknown): Promise<{ code?: string; message: string } | 'none'> {
  try {
    await f()
  } catch (err) {
    expect(err).toBeInstanceOf(RobotsInputError)
    return err as RobotsInputError
  }
  return 'none'
}

describe('options that are not options', () => {
  it('regression: RobotsCache took a signal (it then aborted every fetch of every caller), previous or a mistyped name in silence; each is now ERR_INPUT naming it', async () => {
    const refusals = [
      [{ fetch, signal: new AbortController().signal }, /^RobotsCache: signal is an option of one fetchRobots call, not of the cache/],
      [{ fetch, previous: {} }, /^RobotsCache: previous is an option of one fetchRobots call, not of the cache/],
      [{ fetch, timeout: 5000 }, /^RobotsCache: "timeout" is not an option; the options are (?!.*\b(?:signal|previous)\b).*timeoutMs.*maxStaleMs$/],
    ] as const
    for (const [options, message] of refusals) {
      const e = await failure(() => new RobotsCache(options as never))
      expect(e).not.toBe('none')
      expect((e as RobotsInputError).code).toBe('ERR_INPUT')
      expect((e as RobotsInputError).message).toMatch(message)
    }
    // An option whose value is undefined is none.
    expect(await failure(() => new RobotsCache({ fetch, signal: undefined } as never))).toBe('none')
  })

  it('regression: fetchRobots, createNodeTransport and DnsCache ignored a mistyped option in silence; now ERR_INPUT naming it', async () => {
    expect((await failure(() => fetchRobots('http://a.test/', { fetch, timeout: 1 } as never))) as Error).toMatchObject({ code: 'ERR_INPUT', message: expect.stringMatching(/^fetchRobots: "timeout" is not an option; the options are .*signal.*previous$/) })
    expect((await failure(() => createNodeTransport({ perIp: 2 } as never))) as Error).toMatchObject({ code: 'ERR_INPUT', message: 'createNodeTransport: "perIp" is not an option' })
    expect((await failure(() => new DnsCache({ server: ['127.0.0.1'] } as never))) as Error).toMatchObject({ code: 'ERR_INPUT', message: expect.stringMatching(/^DnsCache: "server" is not an option$/) })
    expect((await failure(() => createNodeTransport({ dns: { timeout: 1 } } as never))) as Error).toMatchObject({ message: expect.stringMatching(/^DnsCache: "timeout" is not an option/) })
    // Every option of each, given, is taken.
    expect(await failure(() => fetchRobots('http://a.test/', { fetch, timeoutMs: 1000, maxRedirects: 1, limit: 600_000, userAgent: 'bot', signal: new AbortController().signal, now: () => 0, maxTtlMs: 1, minTtlMs: 1, unreachableTtlMs: 1, allowPrivateRedirects: false, redirectFilter: () => true, privateAddresses: 'allow' }))).toBe('none')
    expect(await failure(() => createNodeTransport({ perAddress: 1, connectTimeoutMs: 1, route: () => undefined, dns: { system: true, servers: [], timeoutMs: 1, tries: 1, concurrency: 1, cacheSize: 0, minTtlMs: 0, maxTtlMs: 0, negativeTtlMs: 0 } }))).toBe('none')
  })

  it('regression: a now() that gave NaN, undefined or a string made NaN lifetimes (every look-up fetched again) in silence; now the look-up or fetch is ERR_INPUT', async () => {
    let fetches = 0
    const counted = async (): Promise<Response> => {
      fetches++
      return fetch()
    }
    for (const value of [NaN, undefined, '5', Infinity]) {
      const now = () => value as number
      const message = /now\(\) must return a finite number, got /
      expect(await failure(() => new RobotsCache({ fetch: counted, now }).lookup('http://a.test/'))).toMatchObject({ code: 'ERR_INPUT', message: expect.stringMatching(message) })
      expect(await failure(() => fetchRobots('http://a.test/', { fetch: counted, now }))).toMatchObject({ code: 'ERR_INPUT', message: expect.stringMatching(message) })
    }
    expect(fetches).toBe(0)
    const cache = new RobotsCache({ fetch: counted, now: () => 1_000 })
    expect((await cache.lookup('http://a.test/')).expiresAt).toBe(1_000 + 86_400_000)
    expect(fetches).toBe(1)
  })
})
