import { describe, expect, it } from 'vitest'
import { freshnessLifetimeMs, parseCacheControl, retryAfterMs } from '../../src/fetch/cache-control.js'

const h = (o: Record<string, string>) => new Headers(o)

describe('parseCacheControl', () => {
  it('parses directives, quoted values, case and duplicates', () => {
    const cc = parseCacheControl('Public, MAX-AGE=60, max-age=5, private="set-cookie, x", no-transform')
    expect(cc.get('public')).toBe(true)
    expect(cc.get('max-age')).toBe('60')
    expect(cc.get('private')).toBe('set-cookie, x')
    expect(cc.get('no-transform')).toBe(true)
    expect(parseCacheControl(null).size).toBe(0)
    expect(parseCacheControl(' , ,').size).toBe(0)
  })
})

describe('freshnessLifetimeMs', () => {
  it('max-age, minus Age', () => {
    expect(freshnessLifetimeMs(h({ 'cache-control': 'max-age=3600' }), 0)).toBe(3_600_000)
    expect(freshnessLifetimeMs(h({ 'cache-control': 'max-age=3600', age: '3000' }), 0)).toBe(600_000)
    expect(freshnessLifetimeMs(h({ 'cache-control': 'max-age=10', age: '3000' }), 0)).toBe(0)
    expect(freshnessLifetimeMs(h({ 'cache-control': 'max-age="30"' }), 0)).toBe(30_000)
  })
  it('no-store, no-cache and invalid max-age are stale', () => {
    expect(freshnessLifetimeMs(h({ 'cache-control': 'no-store' }), 0)).toBe(0)
    expect(freshnessLifetimeMs(h({ 'cache-control': 'max-age=60, no-cache' }), 0)).toBe(0)
    expect(freshnessLifetimeMs(h({ 'cache-control': 'no-cache="set-cookie", max-age=60' }), 0)).toBe(60_000)
    expect(freshnessLifetimeMs(h({ 'cache-control': 'max-age=-1' }), 0)).toBe(0)
  })
  it('Expires relative to Date, or to the receive time', () => {
    const date = 'Tue, 15 Nov 1994 08:12:31 GMT'
    const expires = 'Tue, 15 Nov 1994 09:12:31 GMT'
    expect(freshnessLifetimeMs(h({ date, expires }), 0)).toBe(3_600_000)
    expect(freshnessLifetimeMs(h({ expires }), Date.parse(date))).toBe(3_600_000)
    expect(freshnessLifetimeMs(h({ expires: '0' }), 0)).toBe(0)
    expect(freshnessLifetimeMs(h({ 'cache-control': 'max-age=5', date, expires }), 0)).toBe(5000)
  })
  it('says nothing without freshness headers', () => {
    expect(freshnessLifetimeMs(h({ 'cache-control': 'public' }), 0)).toBeUndefined()
    expect(freshnessLifetimeMs(h({}), 0)).toBeUndefined()
  })
})

describe('retryAfterMs', () => {
  it('delta-seconds and HTTP-date', () => {
    expect(retryAfterMs(h({ 'retry-after': '120' }), 0)).toBe(120_000)
    const t = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT')
    expect(retryAfterMs(h({ 'retry-after': 'Wed, 21 Oct 2015 07:38:00 GMT' }), t)).toBe(600_000)
    expect(retryAfterMs(h({ 'retry-after': 'soon' }), 0)).toBeUndefined()
    expect(retryAfterMs(h({}), 0)).toBeUndefined()
  })
})

describe('parseHttpDate', () => {
  it('accepts the three HTTP-date formats only', async () => {
    const { parseHttpDate } = await import('../../src/fetch/cache-control.js')
    const t = Date.UTC(1994, 10, 6, 8, 49, 37)
    expect(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT')).toBe(t)
    expect(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT')).toBe(t)
    expect(parseHttpDate('Sun Nov  6 08:49:37 1994')).toBe(t)
    expect(parseHttpDate('0')).toBeNaN()
    expect(parseHttpDate('-1')).toBeNaN()
    expect(parseHttpDate('2024-01-01')).toBeNaN()
  })
})
