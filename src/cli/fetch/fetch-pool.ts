/**
 * The scheduler of `fetch`: every origin's robots.txt fetched with the
 * access method over the Node transport, with
 *
 * - at most `concurrency` origins in hand (looking up their name, or
 *   fetching) in total;
 * - at most the transport's `perAddress` requests in flight to one address:
 *   an origin whose address is busy waits aside (not holding a place of
 *   `concurrency`), so that thousands of names on one shared host never hold
 *   up the others;
 * - `timeoutMs` bounding each attempt: the look-up of the origin's name,
 *   then the fetch (connection and answer) in the time left; the wait for a
 *   slot of a busy address is not counted;
 * - failures of this machine (ERR_LOCAL: EMFILE, ENOMEM, no free local port,
 *   the resolver unreachable, a deadline that passed while this process did
 *   not run, …) never written as the site's outcome: the
 *   origin goes back to be fetched again, the run pauses (50 ms, doubling up
 *   to 2 s) and halves the requests it keeps in flight (once for the fetches
 *   that fail together), then grows back by one per fetch completed; a run where nothing completes for `stallMs`
 *   while such failures go on stops with a clear error ({@link NoProgressError});
 *   an origin with no route from here, refused here, or stalled on every
 *   try (while others are fetched) is handed to `failed` with its code: the
 *   caller says the output lacks it, and fails the run.
 */
import { setMaxListeners } from 'node:events'
import { fetchRobots, type FetchRobotsOptions, type RobotsFetchResult } from '../../index.js'
import type { AddressLease, NodeTransport } from '../../node.js'
import { CliError } from '../common/cli-error.js'
import { routable } from './routable.js'

/** Default requests in flight (`fetch --concurrency`): sensible for a laptop. */
export const DEFAULT_CONCURRENCY = 32
/** Default deadline of one fetch, in seconds (`fetch --timeout`; the library's default). */
export const DEFAULT_TIMEOUT_S = 10
/** Default requests in flight to one address (`fetch --per-ip`). */
export const DEFAULT_PER_IP = 4

/** Origins waiting for a busy address at most, per place of the concurrency: beyond, no new origin is taken up until some start (memory stays bounded). */
const WAITING_PER_PLACE = 4
/** Tries of an origin whose address this machine has no route to (while it has one to an address fetched before), or refuses to connect to (while other fetches complete). */
const MAX_TRIES = 5
/** Codes of this machine refusing a connection to one address (a firewall rule: EPERM; EACCES), not of it lacking something. */
const REFUSED_HERE = new Set(['EPERM', 'EACCES'])
const FIRST_PAUSE_MS = 50
const LONGEST_PAUSE_MS = 2000
/** How often the pool checks that this process runs, ms: a longer gap between checks is time it lost (suspended, or too busy to run). */
const TICK_MS = 100
/** Time lost during a fetch beyond which its time-out is this machine's, not the site's, ms. */
const LOST_MS = 500

/** The run cannot go on: only failures of this machine for `stallMs`. */
export class NoProgressError extends CliError {
  constructor(
    readonly localCode: string,
    message: string,
  ) {
    super('ERR_LOCAL', message)
    this.name = 'NoProgressError'
  }
}

/** Options of {@link runFetches}. */
export interface FetchPoolOptions {
  /** Origins in hand at most. */
  readonly concurrency: number
  readonly transport: NodeTransport
  /** The options of the fetch of job `index` (its `transport` is set here). */
  readonly options: (index: number) => FetchRobotsOptions
  /** Aborting it stops the run: fetches in flight are dropped, no new one starts. */
  readonly signal: AbortSignal
  /** Takes each completed fetch: the job's index, the result and how long it took. */
  readonly done: (index: number, result: RobotsFetchResult, ms: number) => void | Promise<void>
  /**
   * A job not fetched: the library refused it (an origin it does not take: a
   * hostile bundle's), or, with `localCode`, this machine failed it on every
   * try (no route to its address, a connection refused here, a deadline it
   * never ran long enough to meet): left out of
   * this run only, a run again may fetch it.
   */
  readonly failed: (index: number, err: unknown, localCode?: string) => void
  /** Each failure of this machine (the origin is fetched again later): its code. */
  readonly local?: (code: string, err: unknown) => void
  /** How long only failures of this machine may go on before the run stops, ms. */
  readonly stallMs: number
}

/** The code of the local failure behind an ERR_LOCAL rejection. */
function localCode(err: unknown): string {
  let e: unknown = err
  for (let depth = 0; depth < 8 && typeof e === 'object' && e !== null; depth++) {
    const o = e as { code?: unknown; cause?: unknown }
    if (depth > 0 && typeof o.code === 'string') return o.code
    e = o.cause
  }
  return 'ELOCAL'
}

/** Fetches `jobs` (indices; `origin(i)` the origin of job i) as the module comment says, until done or aborted. */
export function runFetches(jobs: ArrayLike<number>, origin: (index: number) => string, o: FetchPoolOptions): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let next = 0
    const retry: number[] = []
    /** Jobs whose address has a slot now, waiting for a place of the concurrency. */
    const ready: (() => void)[] = []
    let inHand = 0
    let waiting = 0
    let limit = o.concurrency
    let pause = 0
    let pausedUntil = 0
    let pauseTimer: NodeJS.Timeout | undefined
    let lastProgress = performance.now()
    /** Jobs failed by this machine: how often, and when first. */
    const strikes = new Map<number, number>()
    const struckAt = new Map<number, number>()
    /** The address of a fetch completed. */
    let reached: string | undefined
    let failure: Error | undefined
    let finished = false

    // The fetches in flight listen to the run's own signal, one listener each: the caller's
    // (long-lived, shared) gets one, this run's, removed when it ends.
    const run = new AbortController()
    setMaxListeners(o.concurrency + 16, run.signal)
    // Time this process lost (stopped, the machine asleep, starved): a deadline that passed meanwhile was not the site's to keep.
    let lost = 0
    let lastTick = performance.now()
    const lostNow = (): number => {
      const gap = performance.now() - lastTick
      return lost + (gap > 2 * TICK_MS ? gap - TICK_MS : 0)
    }
    /** The time lost when a fetch last completed. */
    let lostAtProgress = 0
    const ticker = setInterval(() => {
      lost = lostNow()
      lastTick = performance.now()
    }, TICK_MS)
    ticker.unref()
    const finish = (err?: Error): void => {
      if (finished) return
      finished = true
      clearInterval(ticker)
      if (pauseTimer !== undefined) clearTimeout(pauseTimer)
      o.signal.removeEventListener('abort', onAbort)
      if (err !== undefined) reject(err)
      else resolve()
    }
    const onAbort = (): void => {
      run.abort(o.signal.reason)
      finish()
    }
    o.signal.addEventListener('abort', onAbort, { once: true })

    const pump = (): void => {
      if (finished) return
      if (failure !== undefined) {
        // Jobs waiting for a place are let go (they see the failure and stop).
        for (let go = ready.shift(); go !== undefined; go = ready.shift()) {
          inHand++
          go()
        }
        if (inHand === 0 && waiting === 0 && ready.length === 0) finish(failure)
        return
      }
      if (o.signal.aborted) return finish()
      const now = performance.now()
      if (now < pausedUntil) {
        pauseTimer ??= setTimeout(() => {
          pauseTimer = undefined
          pump()
        }, pausedUntil - now)
        return
      }
      while (inHand < limit) {
        const go = ready.shift()
        if (go !== undefined) {
          inHand++
          go()
          continue
        }
        let job: number
        if (retry.length > 0) job = retry.shift()!
        else if (next < jobs.length && waiting < WAITING_PER_PLACE * o.concurrency) job = jobs[next++]!
        else break
        inHand++
        void start(job)
      }
      if (inHand === 0 && waiting === 0 && ready.length === 0 && retry.length === 0 && next >= jobs.length) finish()
    }

    /** One job (holding a place of the concurrency): its address, a slot of it (waiting aside when busy), then the fetch. */
    const start = async (job: number): Promise<void> => {
      const url = origin(job)
      let lease: AddressLease | undefined
      /** Whether this job holds a place of the concurrency now (not while it waits aside). */
      let holds = true
      const options = o.options(job)
      const deadlineMs = options.timeoutMs ?? DEFAULT_TIMEOUT_S * 1000
      const lookup = new AbortController()
      const timer = setTimeout(() => lookup.abort(new Error('deadline')), deadlineMs)
      const t0 = performance.now()
      const lost0 = lostNow()
      try {
        let address: string | undefined
        try {
          // Undefined at the deadline when the wait is the name's: the fetch then ends as the site's timeout.
          address = await o.transport.addressOf(url, lookup.signal)
        } catch (err) {
          // The resolver's servers unreachable or silent: this machine's failure, never the name's.
          if (o.signal.aborted) return
          return await local(job, Object.assign(new Error(`robots.txt of ${url} not fetched: this machine failed: ${(err as Error).message}`), { code: 'ERR_LOCAL', cause: err }))
        } finally {
          clearTimeout(timer)
        }
        const lookupMs = performance.now() - t0
        if (address !== undefined && !o.signal.aborted) {
          lease = o.transport.tryLease(address)
          if (lease === undefined) {
            // The address is busy: wait aside, not holding a place.
            holds = false
            inHand--
            waiting++
            pump()
            try {
              lease = await o.transport.lease(address)
            } finally {
              waiting--
            }
            if (finished || o.signal.aborted || failure !== undefined) return
            // A place again, in turn (pump gives it: inHand counts it then).
            await new Promise<void>((go) => {
              ready.push(go)
              pump()
            })
            holds = true
            if (failure !== undefined) return
          }
        }
        if (o.signal.aborted) return
        const started = performance.now()
        let result: RobotsFetchResult
        try {
          const left = Math.max(1, Math.floor(deadlineMs - lookupMs))
          result = await fetchRobots(url, { ...options, timeoutMs: left, transport: lease?.transport ?? o.transport, signal: run.signal })
          const held = lostNow() - lost0
          if (result.reason === 'timeout' && held > LOST_MS) {
            // The deadline passed while this process did not run: fetched again, never written as the site's time-out.
            const why = `this process did not run for ${(held / 1000).toFixed(1)} s of the fetch's deadline (stopped, the machine asleep, or too busy)`
            const err = Object.assign(new Error(`robots.txt of ${url} not fetched: this machine failed: ${why}`), { code: 'ERR_LOCAL', cause: Object.assign(new Error(why), { code: 'ESTALLED' }) })
            if (!o.signal.aborted) return await local(job, err)
            return
          }
          // The deadline the user gave, the look-up's share included.
          if (result.reason === 'timeout' && result.error !== undefined) result.error.message = `no complete answer within ${deadlineMs} ms`
        } catch (err) {
          if (o.signal.aborted) return
          if ((err as { code?: unknown }).code === 'ERR_LOCAL') return await local(job, err)
          return o.failed(job, err)
        }
        lastProgress = performance.now()
        lostAtProgress = lostNow()
        strikes.delete(job)
        struckAt.delete(job)
        reached = address ?? reached
        if (limit < o.concurrency) limit++
        pause = 0
        await o.done(job, result, lookupMs + lastProgress - started)
      } catch (err) {
        failure ??= err instanceof Error ? err : new Error(String(err))
      } finally {
        lease?.release()
        if (holds) inHand--
        pump()
      }
    }

    /** A failure of this machine: the job again later, a pause, fewer in flight; or the end when nothing has completed for stallMs. */
    const local = async (job: number, err: unknown): Promise<void> => {
      const code = localCode(err)
      // No route from here to this origin's address (IPv6 off, …), none lacking to one fetched before, not exhaustion: it is left out, said.
      const n = (strikes.get(job) ?? 0) + 1
      strikes.set(job, n)
      if (n === 1) struckAt.set(job, performance.now())
      // Stalled on every try (a machine that never runs long enough for this fetch): left out, said, never the site's time-out.
      if (n >= MAX_TRIES && code === 'ESTALLED') return o.failed(job, err, code)
      const to = (err as { cause?: { address?: unknown } }).cause?.address
      if (n >= MAX_TRIES && typeof to === 'string' && reached !== undefined && !(await routable(to)) && (await routable(reached))) return o.failed(job, err, code)
      // A connection this machine refuses to this origin alone (a firewall rule), while others were made: left out, said.
      const alone = inHand === 1 && waiting === 0 && retry.length === 0 && next >= jobs.length
      if (n >= MAX_TRIES && REFUSED_HERE.has(code) && reached !== undefined && (alone || lastProgress > struckAt.get(job)!)) return o.failed(job, err, code)
      const now = performance.now()
      o.local?.(code, err)
      retry.push(job)
      // The time this process did not run is no wait without progress (a machine asleep overnight does not end the run).
      const idle = now - lastProgress - (lostNow() - lostAtProgress)
      if (idle > o.stallMs) {
        const seconds = Math.round(idle / 1000)
        const cause = (err as { cause?: { message?: unknown } }).cause?.message
        failure ??= new NoProgressError(code, `cannot make progress: nothing fetched for ${seconds} s, only failures of this machine (${typeof cause === 'string' ? cause : (err as Error).message})`)
        return
      }
      // One backing off per burst: the fetches in flight that fail with it (they met the same exhaustion) neither halve again nor lengthen the pause.
      if (now < pausedUntil) return
      limit = Math.max(1, Math.min(limit, inHand) >> 1)
      pause = pause === 0 ? FIRST_PAUSE_MS : Math.min(LONGEST_PAUSE_MS, pause * 2)
      pausedUntil = now + pause
    }

    pump()
  })
}
