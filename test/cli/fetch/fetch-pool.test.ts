/**
 * The scheduler of `fetch` (runFetches) against a transport of the test's
 * own, with no network: how it backs off from failures of this machine, and
 * the caller's signal (the fetches in flight do not each add a listener to
 * it: Node warns past 10, MaxListenersExceededWarning; none is left once the
 * run is over).
 */
import { getEventListeners } from 'node:events'
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

  async function runWith(blocked: (url: string) => boolean, jobs: number, stallMs = 60_000): Promise<{ done: number[]; failed: number[]; codes: string[]; leftOut: (string | undefined)[]; error?: unknown }> {
    const done: number[] = []
    const failed: number[] = []
    const leftOut: (string | undefined)[] = []
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
        failed: (i, _err, code) => {
          failed.push(i)
          leftOut.push(code)
        },
        local: (code) => codes.push(code),
        stallMs,
      },
    ).catch((e: unknown) => (error = e))
    return { done, failed, codes, leftOut, error }
  }

  it('regression: an origin refused here was handed over as the library’s refusal, and fetch wrote the rest with exit 0; now its code goes with it (this machine’s: the run fails, a run again fetches it)', async () => {
    const r = await runWith((url) => url.includes('//h3.'), 8)
    expect(r.failed).toEqual([3])
    expect(r.leftOut).toEqual(['EPERM'])
  })

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

describe('regression: a fetch whose deadline passed on every try while this process did not run was tried again without end', () => {
  it('after its tries it is left out with ESTALLED (a failure of this machine), never written as the site\'s time-out', async () => {
    // Blocks this thread without spinning: the event loop does not run, as when the machine is stopped or too busy.
    const block = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
    let tries = 0
    const transport = fakeTransport(
      (req) =>
        new Promise<TransportResponse>((_resolve, reject) => {
          tries++
          block(1300)
          req.signal?.addEventListener('abort', () => reject(req.signal!.reason))
        }),
    )
    const left: string[] = []
    const done: unknown[] = []
    await runFetches([0], () => 'http://stalled.test/', {
      concurrency: 1,
      transport,
      options: () => ({ privateAddresses: 'allow', timeoutMs: 100 }),
      signal: new AbortController().signal,
      done: (_i, result) => {
        done.push(result)
      },
      failed: (_i, _err, code) => {
        left.push(code ?? 'none')
      },
      stallMs: 120_000,
    })
    expect(done).toEqual([])
    expect(left).toEqual(['ESTALLED'])
    expect(tries).toBe(5)
  }, 30_000)
})
