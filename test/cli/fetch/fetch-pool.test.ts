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

describe('regression: a connection this machine refuses to one address (a firewall rule: EPERM) was tried again until the whole run gave up, writing nothing', () => {
  /** A transport with an address per host (h<i>.test → 10.0.0.<i>), a slot always free; `request` the test's. */
  function addressed(request: (req: TransportRequest) => Promise<TransportResponse>): NodeTransport {
    const t = fakeTransport(request)
    const lease = (address: string) => ({ address, transport: t, release: () => {} })
    return { ...t, addressOf: async (url: string) => `10.0.0.${/h(\d+)/.exec(url)![1]}`, tryLease: lease, lease: async (a: string) => lease(a) }
  }
  const eperm = (): Error => Object.assign(new Error('connect EPERM 10.0.0.3:80 - Local (0.0.0.0:0)'), { code: 'EPERM', syscall: 'connect', address: '10.0.0.3', localFailure: true })

  async function runWith(blocked: (url: string) => boolean, jobs: number, stallMs = 60_000): Promise<{ done: number[]; failed: number[]; codes: string[]; error?: unknown }> {
    const done: number[] = []
    const failed: number[] = []
    const codes: string[] = []
    const transport = addressed((req) => (blocked(req.url) ? Promise.reject(eperm()) : new Promise((resolve) => setTimeout(() => resolve(ok()), 5))))
    let error: unknown
    await runFetches(
      Array.from({ length: jobs }, (_, i) => i),
      (i) => `http://h${i}.test/`,
      {
        concurrency: 4,
        transport,
        options: () => ({ privateAddresses: 'allow' }),
        signal: new AbortController().signal,
        done: (i) => void done.push(i),
        failed: (i) => void failed.push(i),
        local: (code) => codes.push(code),
        stallMs,
      },
    ).catch((e: unknown) => (error = e))
    return { done, failed, codes, error }
  }

  it('one origin refused here while the others are fetched: left out after 5 tries, the others done', async () => {
    const r = await runWith((url) => url.includes('//h3.'), 8)
    expect(r.error).toBeUndefined()
    expect(r.failed).toEqual([3])
    expect(r.done.sort()).toEqual([0, 1, 2, 4, 5, 6, 7])
    expect(r.codes).toEqual(new Array(4).fill('EPERM'))
  })

  it('every connection refused here (nothing ever fetched): no origin left out, the run stops with this machine named', async () => {
    const r = await runWith(() => true, 3, 300)
    expect(r.done).toEqual([])
    expect(r.failed).toEqual([])
    expect(r.error).toMatchObject({ code: 'ERR_LOCAL', localCode: 'EPERM', message: expect.stringMatching(/^cannot make progress: nothing fetched for \d+ s, only failures of this machine \(connect EPERM/) })
  })
})
