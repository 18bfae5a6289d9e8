// The batch adapter: pipelining with answers matched by id, how bodies travel,
// and clear errors (never a hang) when the process misbehaves.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import type { Answer, Request } from '../../../src/compare/adapters/adapter.js'
import { BatchAdapter, type BatchOptions } from '../../../src/compare/adapters/batch-adapter.js'

const dir = mkdtempSync(join(tmpdir(), 'compare-batch-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A batch adapter script: `answer(req, n)` returns the answer object (or a string to print), n counts requests. */
function script(name: string, answer: string, extra = ''): string {
  const path = join(dir, `${name}.mjs`)
  writeFileSync(
    path,
    `import { createInterface } from 'node:readline'
import { readFileSync } from 'node:fs'
let n = 0
${extra}
const answer = (req, n) => { ${answer} }
createInterface({ input: process.stdin }).on('line', (line) => {
  const req = JSON.parse(line)
  const a = answer(req, ++n)
  if (a === undefined) return
  process.stdout.write((typeof a === 'string' ? a : JSON.stringify(a)) + '\\n')
})
`,
  )
  return `node ${path}`
}

/** A time-out that never fires within a test (vitest gives up on a test after 60 s). */
const NO_TIMEOUT = 600_000

const options = (command: string, more: Partial<BatchOptions> = {}): BatchOptions => ({
  command, robotsVia: 'path', multiAgent: false, window: 8, timeoutMs: NO_TIMEOUT, ...more,
})

const requests = (n: number): Request[] =>
  Array.from({ length: n }, (_, i) => ({ robots: new Uint8Array(Buffer.from(`# body ${i % 3}\n`)), agents: ['a'], url: `/u${i}${i % 2 ? '/deny' : ''}` }))

async function runAll(adapter: BatchAdapter, reqs: Request[]): Promise<(Answer | undefined)[]> {
  const got: (Answer | undefined)[] = new Array(reqs.length)
  await adapter.start()
  try {
    await adapter.judgeAll(reqs, (i, a) => {
      got[i] = a
    })
  } finally {
    await adapter.close()
  }
  return got
}

describe('batch adapter', () => {
  it('matches answers to requests by id, whatever their order, with a bounded window', async () => {
    // Holds answers back and releases them in reverse order, in blocks of 4 (the probe alone).
    const cmd = script(
      'reverse',
      `held.push({ id: req.id, allowed: !req.url.includes('deny'), line: Number(req.url.slice(2).split('/')[0]) || 0 })
       if (req.id === 1 || held.length === 4) { for (const a of held.reverse()) process.stdout.write(JSON.stringify(a) + '\\n'); held = [] }
       return undefined`,
      'let held = []',
    )
    const reqs = requests(40)
    const got = await runAll(new BatchAdapter(options(cmd)), reqs)
    expect(got).toEqual(reqs.map((r, i) => ({ allowed: !r.url.includes('deny'), line: i })))
  })

  it('sends the same robots_path for the same body, holding its exact bytes; inline: robots or robots_base64', async () => {
    const cmd = script(
      'bodies',
      `const bytes = req.robots_path !== undefined ? readFileSync(req.robots_path)
         : req.robots !== undefined ? Buffer.from(req.robots, 'utf8') : Buffer.from(req.robots_base64, 'base64')
       return { id: req.id, error: JSON.stringify([Object.keys(req).sort(), bytes.toString('hex'), req.agent, req.url]) }`,
    )
    const reqs: Request[] = [
      { robots: new Uint8Array([0xef, 0xbb, 0x41]), agents: ['a'], url: '/x' },
      { robots: new Uint8Array(Buffer.from('é\n')), agents: ['a', 'b'], url: '' },
    ]
    const inline = await runAll(new BatchAdapter(options(cmd, { robotsVia: 'inline', multiAgent: true })), reqs)
    expect(inline.map((a) => JSON.parse(a!.error!))).toEqual([
      [['agent', 'id', 'robots_base64', 'url'], 'efbb41', 'a', '/x'],
      [['agent', 'id', 'robots', 'url'], 'c3a90a', ['a', 'b'], ''],
    ])
    const paths = await runAll(new BatchAdapter(options(cmd)), reqs)
    expect(paths.map((a) => JSON.parse(a!.error!).slice(0, 2))).toEqual([
      [['agent', 'id', 'robots_path', 'url'], 'efbb41'],
      [['agent', 'id', 'robots_path', 'url'], 'c3a90a'],
    ])
  })

  it('error answers count as errors and the run goes on; an id may come back as a string', async () => {
    const cmd = script('errors', `return req.id % 2 ? { id: req.id, error: 'no idea' } : { id: String(req.id), allowed: true, line: null }`)
    const got = await runAll(new BatchAdapter(options(cmd)), requests(4))
    expect(got).toEqual([{ allowed: true }, { error: 'no idea' }, { allowed: true }, { error: 'no idea' }])
  })

  // No time-out in these: the adapter misbehaves in a way it can tell at once, so the run stops on that (whatever
  // the machine's load), never on the watchdog; a hang would fail the test at vitest's own time-out.
  it.each([
    ['not JSON', `return req.id === 3 ? 'hello' : { id: req.id, allowed: true }`, /--batch: answer 3 is not JSON: "hello"/],
    ['an unknown id', `return { id: req.id + 100, allowed: true }`, /answer 1 has an id that matches no request in flight/],
    ['no verdict', `return { id: req.id, allowed: 'yes' }`, /answer 1 has no boolean "allowed"/],
    ['a bad line', `return { id: req.id, allowed: true, line: 1.5 }`, /"line" must be a whole number/],
    ['an early exit', `if (req.id === 4) { console.error('oops: giving up'); process.exit(3) } return { id: req.id, allowed: true }`,
      /--batch: the adapter exited with status 3 after 3 answers, with \d+ requests unanswered; its stderr ended with: oops: giving up/],
  ])('a misbehaving adapter (%s) stops the run with a clear error, without waiting for the time-out', async (_name, answer, message) => {
    const adapter = new BatchAdapter(options(script(`bad-${_name.replace(/\W/g, '')}`, answer), { timeoutMs: NO_TIMEOUT }))
    const run = runAll(adapter, requests(20))
    await expect(run).rejects.toThrow(message)
    await expect(run).rejects.toMatchObject({ code: 'ERR_ADAPTER', exitCode: 1 })
  })

  it('an adapter that leaves a request unanswered stops the run once that request is older than the time-out, not before', async () => {
    // The clock is the test's: start-up and the answers to the other requests take no time on it, however busy
    // the machine, and the watchdog fires only when the test moves the clock.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'performance'] })
    try {
      const adapter = new BatchAdapter(options(script('silent-5', `return req.id === 5 ? undefined : { id: req.id, allowed: true }`), { timeoutMs: 1000 }))
      await adapter.start()
      let others!: () => void
      const othersAnswered = new Promise<void>((resolve) => (others = resolve))
      let answered = 0
      let failure: unknown
      // Requests 2 to 21 (1 was the start-up probe): all but request 5 are answered.
      const run = adapter.judgeAll(requests(20), () => ++answered === 19 && others())
      run.catch((err: unknown) => (failure = err))
      await othersAnswered
      // The watchdog looks every 250 ms: at 250, 500, 750 and 1000 ms request 5 is not older than the time-out.
      await vi.advanceTimersByTimeAsync(1000)
      expect(failure, 'request 5 is 1000 ms old: not past the time-out yet').toBeUndefined()
      await vi.advanceTimersByTimeAsync(250)
      await expect(run).rejects.toThrow(/--batch: no answer to request 5 within 1000 ms \(--timeout\)/)
      await expect(run).rejects.toMatchObject({ code: 'ERR_ADAPTER', exitCode: 1 })
      expect(answered).toBe(19)
      await adapter.close()
    } finally {
      vi.useRealTimers()
    }
  })

  it('a command that does not start is an error', async () => {
    await expect(runAll(new BatchAdapter(options('/nonexistent/adapter-x')), requests(2))).rejects.toThrow(/exited with status 127.*not found/)
  })

  it('measures start-up on its own; the per-case times share out the time of the run, start-up excluded', async () => {
    // The adapter takes 200 ms before it reads its first request: start-up, which the cases must not pay for.
    const adapter = new BatchAdapter(options(script('slow-start', `return { id: req.id, allowed: true }`, 'await new Promise((r) => setTimeout(r, 200))')))
    const times: number[] = []
    await adapter.start()
    const t0 = performance.now()
    await adapter.judgeAll(requests(10), (_i, _a, ms) => times.push(ms))
    const runMs = performance.now() - t0
    await adapter.close()
    expect(adapter.timings().startupMs).toBeGreaterThanOrEqual(150)
    expect(times).toHaveLength(10)
    expect(times.every((t) => t >= 0)).toBe(true)
    // Answers read together share the time since the previous read: together, the cases' times are the run's
    // time at most, however long it takes; 200 ms of start-up counted in any of them would exceed it.
    expect(times.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(runMs + 1e-6)
  })
})
