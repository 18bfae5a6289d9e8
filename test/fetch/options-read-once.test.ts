/**
 * fetchRobots reads each option once: the value it checks is the value it
 * uses. A getter that answered differently at a later read slipped an
 * unchecked value past the checks (a user-agent or an ETag with CR LF).
 */
import { describe, expect, it } from 'vitest'
import { fetchRobots, parseRobots, RobotsCache } from '../../src/index.js'

/** A value that reads as `good` `n` times, then as `bad`. */
function shifty(good: string, bad: string, n: number): { get(): string } {
  let reads = 0
  return { get: () => (reads++ < n ? good : bad) }
}

/** A fetch that records each request's headers and answers 200 (or 304 when asked conditionally). */
function recording(): { fetch: (url: string, init: RequestInit) => Promise<Response>; headers: Record<string, string>[] } {
  const headers: Record<string, string>[] = []
  return {
    headers,
    fetch: async (_url, init) => {
      const h = new Headers(init.headers as HeadersInit)
      headers.push({ 'user-agent': h.get('user-agent') ?? '', 'if-none-match': h.get('if-none-match') ?? '' })
      return new Response('User-agent: *\nDisallow: /p\n', { status: 200 })
    },
  }
}

describe('fetchRobots options read once', () => {
  it('regression: a userAgent getter that gave a good value to the check and a CR LF one after was sent (the Web fetch refused it, recorded as the site unreachable): the value checked is the one sent', async () => {
    for (let n = 1; n <= 4; n++) {
      const f = recording()
      const options = Object.defineProperty({ fetch: f.fetch }, 'userAgent', { enumerable: true, ...shifty('GoodBot', 'EvilBot\r\nX-Injected: 1', n) })
      const r = await fetchRobots('https://a.example/', options)
      expect(r.outcome, `good for ${n} reads`).toBe('ok')
      expect(f.headers[0]!['user-agent']).toBe('GoodBot')
    }
  })

  it('regression: previous.validators.etag read again after its check: a CR LF ETag reached the request; the value checked is the one sent', async () => {
    for (let n = 1; n <= 4; n++) {
      const f = recording()
      const validators = Object.defineProperty({}, 'etag', { enumerable: true, ...shifty('"v1"', '"v1"\r\nX-Injected: 1', n) })
      const r = await fetchRobots('https://a.example/', { fetch: f.fetch, previous: { robots: parseRobots(''), validators } })
      expect(r.outcome, `good for ${n} reads`).toBe('ok')
      expect(f.headers[0]!['if-none-match']).toBe('"v1"')
    }
  })
})

describe('RobotsCache options read once', () => {
  it('regression: a previous (or signal) getter that read undefined to the refusal and to the name check, and a value after, was kept for every fetch of the cache (one origin\'s previous result sent for all); the options kept are now read once, the refusal made on them', async () => {
    const f = recording()
    let reads = 0
    const previous = { robots: parseRobots('User-agent: *\nDisallow: /\n'), validators: { etag: '"other-origin"' } }
    const options = Object.defineProperty({ fetch: f.fetch }, 'previous', { enumerable: true, get: () => (reads++ < 2 ? undefined : previous) })
    let cache: RobotsCache | undefined
    try {
      cache = new RobotsCache(options as never)
    } catch (err) {
      expect(err).toMatchObject({ code: 'ERR_INPUT' })
    }
    if (cache !== undefined) {
      // Not refused: then the value the refusal saw (none) is the one used.
      await cache.lookup('https://a.example/')
      expect(f.headers[0]!['if-none-match']).toBe('')
    }
    expect(reads).toBeLessThanOrEqual(2)
  })
})
