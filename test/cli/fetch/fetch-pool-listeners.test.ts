/**
 * The scheduler of `fetch` (runFetches) and the caller's signal: the
 * fetches in flight do not each add a listener to it (Node warns past 10:
 * MaxListenersExceededWarning), and none is left once the run is over. A
 * transport of the test's own, no network.
 */
import { getEventListeners } from 'node:events'
import { describe, expect, it } from 'vitest'
import { runFetches } from '../../../src/cli/fetch/fetch-pool.js'
import type { NodeTransport } from '../../../src/node.js'
import type { TransportRequest, TransportResponse } from '../../../src/index.js'

/** A transport whose `request` is the test's; no addresses (no leases), nothing to resolve. */
function fakeTransport(request: (req: TransportRequest) => Promise<TransportResponse>): NodeTransport {
  return {
    checksAddresses: true,
    request,
    addressOf: async () => undefined,
    tryLease: () => undefined,
    lease: () => Promise.reject(new Error('no leases here')),
    dns: undefined as never,
    close: () => {},
  }
}

const notFound = (): TransportResponse => ({ status: 404, headers: { get: () => null }, body: null, cancel: () => {} })

describe('fetch pool: abort listeners on the caller\'s signal', () => {
  it('regression: each fetch in flight added an abort listener to the run\'s one signal (MaxListenersExceededWarning: 11 abort listeners); now the run adds one, and none is left after it', async () => {
    const concurrency = 24
    const items = 200
    const caller = new AbortController()
    const listeners = () => getEventListeners(caller.signal, 'abort').length
    let most = 0
    let held: (() => void)[] = []
    let requests = 0
    const transport = fakeTransport(
      () =>
        new Promise<TransportResponse>((resolve) => {
          requests++
          // Answered a wave at a time, once every place of the concurrency is in flight.
          held.push(() => resolve(notFound()))
          most = Math.max(most, listeners())
          if (held.length === Math.min(concurrency, items - requests + held.length)) {
            const wave = held
            held = []
            for (const go of wave) go()
          }
        }),
    )
    const warnings: string[] = []
    const onWarning = (w: Error): void => void warnings.push(w.name)
    process.on('warning', onWarning)
    let done = 0
    try {
      await runFetches(
        Array.from({ length: items }, (_, i) => i),
        (i) => `http://h${i}.test/`,
        {
          concurrency,
          transport,
          options: () => ({ privateAddresses: 'allow' }),
          signal: caller.signal,
          done: () => {
            done++
            most = Math.max(most, listeners())
          },
          failed: (_i, err) => {
            throw err
          },
          stallMs: 60_000,
        },
      )
      await new Promise((go) => setImmediate(go))
    } finally {
      process.off('warning', onWarning)
    }
    expect(done).toBe(items)
    expect(requests).toBe(items)
    expect(most).toBe(1)
    expect(listeners()).toBe(0)
    expect(warnings).not.toContain('MaxListenersExceededWarning')
  })

  it('aborting the caller\'s signal still drops the fetches in flight, and leaves no listener', async () => {
    const caller = new AbortController()
    let inFlight = 0
    let aborted = 0
    const transport = fakeTransport(
      (req) =>
        new Promise<TransportResponse>((_resolve, reject) => {
          if (++inFlight === 8) setImmediate(() => caller.abort(new Error('stop')))
          req.signal?.addEventListener('abort', () => {
            aborted++
            reject(req.signal!.reason)
          })
        }),
    )
    await runFetches(
      Array.from({ length: 100 }, (_, i) => i),
      (i) => `http://h${i}.test/`,
      { concurrency: 8, transport, options: () => ({ privateAddresses: 'allow' }), signal: caller.signal, done: () => {}, failed: () => {}, stallMs: 60_000 },
    )
    await new Promise((go) => setImmediate(go))
    expect(aborted).toBe(8)
    expect(getEventListeners(caller.signal, 'abort').length).toBe(0)
  })
})
