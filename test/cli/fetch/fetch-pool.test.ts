/**
 * The scheduler of `fetch` (runFetches) against a transport of the test's
 * own, with no network: how it backs off from failures of this machine.
 */
import { describe, expect, it } from 'vitest'
import { runFetches } from '../../../src/cli/fetch/fetch-pool.js'
import type { NodeTransport } from '../../../src/node.js'
import type { TransportRequest, TransportResponse } from '../../../src/index.js'

const emfile = (): Error => Object.assign(new Error('connect EMFILE 127.0.0.1:80 - Local (undefined:undefined)'), { code: 'EMFILE', syscall: 'connect' })

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

const ok = (): TransportResponse => ({ status: 404, headers: { get: () => null }, body: null, cancel: () => {} })

describe('regression: a burst of EMFILE from the fetches in flight backed off once per failed fetch (concurrency 1, a 2 s pause)', () => {
  it('the fetches that fail together halve the concurrency once and pause once (50 ms)', async () => {
    const concurrency = 16
    let inFlight = 0
    let burst: (() => void)[] | undefined = []
    let burstAt = 0
    let restartAt = 0
    let firstWave = 0
    let completed = 0
    const transport = fakeTransport(
      (req) =>
        new Promise<TransportResponse>((resolve, reject) => {
          if (burst !== undefined) {
            // The first `concurrency` requests fail together once all are in flight: the descriptors ran out.
            burst.push(() => reject(emfile()))
            if (burst.length === concurrency) {
              const fail = burst
              burst = undefined
              burstAt = performance.now()
              for (const f of fail) f()
            }
            return
          }
          if (restartAt === 0) restartAt = performance.now()
          inFlight++
          setTimeout(() => {
            if (completed++ === 0) firstWave = inFlight
            inFlight--
            resolve(ok())
          }, 20)
          void req
        }),
    )
    const codes: string[] = []
    const jobs = Array.from({ length: 64 }, (_, i) => i)
    await runFetches(jobs, (i) => `http://h${i}.test/`, {
      concurrency,
      transport,
      options: () => ({ privateAddresses: 'allow' }),
      signal: new AbortController().signal,
      done: () => {},
      failed: (_i, err) => {
        throw err
      },
      local: (code) => codes.push(code),
      stallMs: 60_000,
    })
    expect(codes).toEqual(new Array(concurrency).fill('EMFILE'))
    expect(completed).toBe(64)
    // Half of what was in flight goes again, after one short pause (not 1, after 2 s).
    expect(firstWave).toBe(concurrency / 2)
    expect(restartAt - burstAt).toBeLessThan(1000)
  })
})
