/**
 * What a fetch result makes of the entry held before (RFC 9309 §2.3.1.4,
 * §2.4): ok and unavailable replace it, not-modified keeps its rules with the
 * new expiry, unreachable keeps them (and their validators) for 30 days
 * from the last fetch that reached the server, then allows all; the
 * `previous` of a refresh; the bundle key's fetched origin.
 */
import { describe, expect, it } from 'vitest'
import { fetchRobots, parseRobots, type RobotsFetchResult } from '../../../src/index.js'
import { applyFetch, MAX_STALE_MS, previousFetch, type FetchedEntry } from '../../../src/cli/fetch/fetch-entry.js'

const DAY = 86_400_000
const robots = parseRobots('User-agent: *\nDisallow: /private\n')

function result(outcome: RobotsFetchResult['outcome'], at: number, extra: Partial<RobotsFetchResult> = {}): RobotsFetchResult {
  return { outcome, reason: 'success', robots, origin: 'https://a.test', url: 'https://a.test/robots.txt', redirects: [], fetchedAt: at, expiresAt: at + DAY, ...extra } as RobotsFetchResult
}

const held: FetchedEntry = {
  rules: robots,
  info: { outcome: 'ok', status: 200, fetchedAt: 0, expiresAt: DAY, reachableAt: 0, etag: '"e1"', lastModified: 'Tue, 01 Dec 2026 10:00:00 GMT' },
}

describe('applyFetch', () => {
  it('ok: the result, with its validators; reachable now', () => {
    const e = applyFetch(undefined, result('ok', 5, { status: 200, validators: { etag: '"x"' } }))
    expect(e).toEqual({ rules: robots, info: { outcome: 'ok', status: 200, fetchedAt: 5, expiresAt: 5 + DAY, reachableAt: 5, etag: '"x"' } })
  })

  it('unavailable: allow all, whatever was held', () => {
    expect(applyFetch(held, result('unavailable', 5, { status: 404 }))).toEqual({
      rules: 'unavailable',
      info: { outcome: 'unavailable', status: 404, fetchedAt: 5, expiresAt: 5 + DAY, reachableAt: 5 },
    })
  })

  it('not-modified: the held rules (the result carries them), a new expiry', () => {
    const e = applyFetch(held, result('not-modified', 2 * DAY, { status: 304, validators: { etag: '"e1"' } }))
    expect(e.rules).toBe(robots)
    expect(e.info).toEqual({ outcome: 'not-modified', status: 304, fetchedAt: 2 * DAY, expiresAt: 3 * DAY, reachableAt: 2 * DAY, etag: '"e1"' })
  })

  it('unreachable: the held rules and validators stay, reachableAt kept, then allow-all after 30 days', () => {
    const stale = applyFetch(held, result('unreachable', 2 * DAY, { status: 503, expiresAt: 2 * DAY + 600_000 }))
    expect(stale.rules).toBe(robots)
    expect(stale.info).toEqual({ ...held.info, outcome: 'unreachable', status: 503, fetchedAt: 2 * DAY, expiresAt: 2 * DAY + 600_000, reachableAt: 0 })
    expect(previousFetch(stale)).toEqual({ robots, validators: { etag: '"e1"', lastModified: held.info!.lastModified } })
    const still = applyFetch(stale, result('unreachable', MAX_STALE_MS))
    expect(still.rules).toBe(robots)
    const gaveUp = applyFetch(still, result('unreachable', MAX_STALE_MS + 1))
    expect(gaveUp.rules).toBe('unavailable')
    expect(gaveUp.info).toMatchObject({ outcome: 'unreachable', reachableAt: 0 })
    expect(gaveUp.info?.etag).toBeUndefined()
    expect(previousFetch(gaveUp)).toBeUndefined()
  })

  it('unreachable without a held copy: disallow all, counted from the first failure', () => {
    const first = applyFetch(undefined, result('unreachable', 7))
    expect(first).toEqual({ rules: 'unreachable', info: { outcome: 'unreachable', fetchedAt: 7, expiresAt: 7 + DAY, reachableAt: 7 } })
    expect(applyFetch(first, result('unreachable', 7 + MAX_STALE_MS + 1)).rules).toBe('unavailable')
    // A held stand-in without fetch info (a packed file): kept, counted from now.
    expect(applyFetch({ rules: 'unavailable' }, result('unreachable', 9)).rules).toBe('unavailable')
  })

  it('keeps the origin fetched for a bare-host key', () => {
    expect(applyFetch(undefined, result('ok', 1), 'http://a.test').info?.origin).toBe('http://a.test')
  })
})

describe('previousFetch', () => {
  it('only a held robots.txt is revalidated; without validators it is still the rules to keep', () => {
    expect(previousFetch(undefined)).toBeUndefined()
    expect(previousFetch({ rules: 'unavailable', info: held.info })).toBeUndefined()
    expect(previousFetch({ rules: robots })).toEqual({ robots })
  })
})

describe('regression: fetch --update turned a 5-minute max-age into 24 hours after a 304 without cache fields', () => {
  it('the 304 keeps the lifetime the entry was given; its own fields win; a stand-in’s none', async () => {
    const fields = (h: Record<string, string>) => ({ get: (n: string) => h[n] ?? null })
    const answer304 = (h: Record<string, string>) => ({ request: async () => ({ status: 304, headers: fields({ etag: '"e1"', ...h }), body: null, cancel: () => {} }) })
    const held5min: FetchedEntry = { rules: robots, info: { outcome: 'ok', status: 200, fetchedAt: 0, expiresAt: 300_000, reachableAt: 0, etag: '"e1"' } }
    const at = (n: number) => () => n
    const bare = await fetchRobots('http://a.test/', { transport: answer304({}), previous: previousFetch(held5min), now: at(DAY), privateAddresses: 'allow' })
    expect(bare).toMatchObject({ outcome: 'not-modified', expiresAt: DAY + 300_000 })
    const own = await fetchRobots('http://a.test/', { transport: answer304({ 'cache-control': 'max-age=7200' }), previous: previousFetch(held5min), now: at(DAY), privateAddresses: 'allow' })
    expect(own.expiresAt).toBe(DAY + 7_200_000)
    expect(previousFetch({ rules: robots, info: { ...held5min.info!, outcome: 'unreachable' } })?.headers).toBeUndefined()
  })
})
