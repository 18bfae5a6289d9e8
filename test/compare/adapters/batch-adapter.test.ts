// The batch adapter: pipelining with answers matched by id, how bodies travel,
// and clear errors (never a hang) when the process misbehaves.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import type { Answer, Request } from '../../../src/compare/adapters/adapter.js'
import { BatchAdapter, type BatchOptions } from '../../../src/compare/adapters/batch-adapter.js'
import { measureCeiling } from '../../../src/compare/adapters/null-adapter.js'

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

/** Answers without their evidence (the raw line, checked on its own). */
async function runAll(adapter: BatchAdapter, reqs: Request[]): Promise<(Answer | undefined)[]> {
  return (await runAllWithEvidence(adapter, reqs)).map((a) => {
    if (a === undefined) return a
    const { evidence: _, ...rest } = a
    return rest as Answer
  })
}

async function runAllWithEvidence(adapter: BatchAdapter, reqs: Request[]): Promise<(Answer | undefined)[]> {
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

  it('keeps each answer line as it came (the evidence of a failing case); line -1 is read as no deciding rule', async () => {
    const cmd = script('raw', `return req.id % 2 ? '{"id":' + req.id + ', "allowed": false,  "line": -1, "why": "mine"}' : { id: req.id, allowed: true, line: 2 }`)
    const got = await runAllWithEvidence(new BatchAdapter(options(cmd)), requests(2))
    expect(got[0]).toEqual({ allowed: true, line: 2, evidence: { raw: '{"id":2,"allowed":true,"line":2}' } })
    expect(got[1]).toEqual({ allowed: false, line: -1, evidence: { raw: '{"id":3, "allowed": false,  "line": -1, "why": "mine"}' } })
  })

  // No time-out in these: the adapter misbehaves in a way it can tell at once, so the run stops on that (whatever
  // the machine's load), never on the watchdog; a hang would fail the test at vitest's own time-out. Request 1 is the
  // start-up probe: the cases' requests are 2, 3, …; answers count the cases' only.
  it.each([
    ['not JSON', `return req.id === 3 ? 'hello' : { id: req.id, allowed: true }`, /--batch: answer 2 is not JSON: "hello"/],
    ['an unknown id', `return { id: req.id + 100, allowed: true }`, /answer 1 has an id that matches no request in flight: .*every answer gives back its request's id/],
    ['no verdict', `return { id: req.id, allowed: 'yes' }`, /answer 1 has no boolean "allowed"/],
    ['a bad line', `return req.id === 1 ? { id: 1, allowed: true } : { id: req.id, allowed: true, line: 1.5 }`,
      /answer 1 has a "line" that is not a whole number ≥ 0 \(or -1 for none\) or null: .*, to a request \(agent "a", URL "\/u0"\)/],
    // huge line numbers: 2^53 + 1 reads as 2^53, which every report would have shown in its place.
    ['a huge line number', `return req.id === 1 ? { id: 1, allowed: true } : { id: req.id, allowed: true, line: 2 ** 53 }`,
      /answer 1 has a "line" that is not a whole number ≥ 0 \(or -1 for none\) or null: .*9007199254740992/],
    ['an early exit', `if (req.id === 4) { console.error('oops: giving up'); process.exit(3) } return { id: req.id, allowed: true }`,
      /--batch: the adapter exited with status 3 after 2 answers, with \d+ requests unanswered; the oldest unanswered: a request \(agent "a", URL "\/u2"\); its stderr ended with: oops: giving up/],
    // regression: a batch adapter that exits mid-answer: the answer cut short was not said.
    ['an exit mid-answer', `if (req.id === 4) process.stdout.write('{"id": 4, "allo', () => process.exit(0)); return req.id < 4 ? { id: req.id, allowed: true } : undefined`,
      /--batch: the adapter exited with status 0 after 2 answers, in the middle of an answer \(its stdout ends with "\{\\"id\\": 4, \\"allo" and no line end\), with \d+ requests unanswered; the oldest unanswered: a request \(agent "a", URL "\/u2"\)/],
  ])('a misbehaving adapter (%s) stops the run with a clear error, without waiting for the time-out', async (_name, answer, message) => {
    const adapter = new BatchAdapter(options(script(`bad-${_name.replace(/\W/g, '')}`, answer), { timeoutMs: NO_TIMEOUT }))
    const run = runAll(adapter, requests(20))
    await expect(run).rejects.toThrow(message)
    await expect(run).rejects.toMatchObject({ code: 'ERR_ADAPTER', name: 'AdapterFailure', exitCode: 1 })
  })

  it('an adapter that exits while a process outside its group holds its stdout stops the run as an exit (regression: it waited for --timeout, then said "no answer at all")', async () => {
    const pids = join(dir, 'escaped-batch.pid')
    const extra = `import { spawn } from 'node:child_process'
spawn('setsid', ['sh', '-c', 'echo $$ > ${pids}; exec sleep 300'], { stdio: ['ignore', 'inherit', 'ignore'] }).unref()
while (!existsSync('${pids}') || readFileSync('${pids}', 'utf8') === '') await new Promise((r) => setTimeout(r, 20))
import { existsSync } from 'node:fs'`
    const adapter = new BatchAdapter(options(script('escaped-exit', `if (req.id === 4) process.exit(0); return { id: req.id, allowed: true }`, extra), { timeoutMs: NO_TIMEOUT }))
    try {
      await expect(runAll(adapter, requests(20))).rejects.toThrow(/--batch: the adapter exited with status 0 after 2 answers, with \d+ requests unanswered/)
    } finally {
      process.kill(Number(readFileSync(pids, 'utf8')), 'SIGKILL')
    }
  }, 30_000)

  it('answers read with a bad line still count, and a bad line after the last answer fails the run (a duplicate last answer dropped every case read with it)', async () => {
    // The probe answered alone; then the six cases' answers and a duplicate of the last, in one write.
    const cmd = script(
      'dup-last',
      `if (req.id === 1) return { id: 1, allowed: true }
       held.push(JSON.stringify({ id: req.id, allowed: true }))
       if (held.length === 6) return held.join('\\n') + '\\n' + held[5]`,
      'const held = []',
    )
    const adapter = new BatchAdapter(options(cmd))
    const got: Answer[] = []
    await adapter.start()
    try {
      await expect(adapter.judgeAll(requests(6), (i, a) => (got[i] = a))).rejects.toThrow(/answer 7 has an id that matches no request in flight: "\{\\"id\\":7,/)
    } finally {
      await adapter.close()
    }
    expect(got.filter((a) => a.allowed === true)).toHaveLength(6)
  })

  // The clock of these is the test's: start-up and the answers take no time on it, however busy the machine, and
  // the watchdog fires only when the test moves the clock.
  const FAKE: Parameters<typeof vi.useFakeTimers>[0] = { toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'performance'] }

  it('a stall (no answer at all for longer than the time-out) stops the run, naming the oldest request; not before', async () => {
    vi.useFakeTimers(FAKE)
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
      // The watchdog looks every 250 ms: at 250, 500, 750 and 1000 ms no answer has been missing for longer than 1000 ms.
      await vi.advanceTimersByTimeAsync(1000)
      expect(failure, 'no answer for 1000 ms: not past the time-out yet').toBeUndefined()
      await vi.advanceTimersByTimeAsync(250)
      await expect(run).rejects.toThrow(/^--batch: no answer at all for 1250 ms \(--timeout 1000\) after 19 answers, 1 request in flight; the oldest: a request \(agent "a", URL "\/u3\/deny"\)$/)
      await expect(run).rejects.toMatchObject({ code: 'ERR_ADAPTER', exitCode: 1 })
      expect(answered).toBe(19)
      await adapter.close()
    } finally {
      vi.useRealTimers()
    }
  })

  it('an adapter that closes its stdout and runs on is said to, at once (it waited for the stall --timeout, then said "no answer at all")', async () => {
    const cmd = script('closes-stdout', `if (n === 3) { closeSync(1); setInterval(() => {}, 1000); return undefined }; return { id: req.id, allowed: true }`, `import { closeSync } from 'node:fs'`)
    const adapter = new BatchAdapter(options(`exec ${cmd}`, { timeoutMs: 20_000, window: 1 }))
    await adapter.start()
    const t0 = performance.now()
    let answered = 0
    await expect(adapter.judgeAll(requests(5), () => answered++)).rejects.toThrow(
      /^--batch: the adapter closed its stdout after 1 answer and runs on, with 1 request unanswered; the oldest unanswered: a request \(agent "a", URL "\/u1\/deny"\)$/,
    )
    expect(answered).toBe(1)
    expect(performance.now() - t0).toBeLessThan(10_000)
    await adapter.close()
  })

  it('a stall after an answer with no final line feed names that unfinished line (it said only "no answer at all")', async () => {
    vi.useFakeTimers(FAKE)
    try {
      const cmd = script('no-lf', `if (req.id === 1) return { id: 1, allowed: true }; process.stdout.write('{"id":' + req.id + ',"allowed":true}')`)
      const adapter = new BatchAdapter(options(cmd, { timeoutMs: 1000, window: 1 }))
      await adapter.start()
      const run = adapter.judgeAll(requests(1), () => {})
      run.catch(() => {})
      // The unfinished line has come in (setImmediate is the real one).
      while (!(adapter as unknown as { partial: string }).partial) await new Promise((r) => setImmediate(r))
      await vi.advanceTimersByTimeAsync(1250)
      await expect(run).rejects.toThrow(/no answer at all for \d+ ms .*; its stdout ends with a line not ended by \\n: "\{\\"id\\":2,\\"allowed\\":true\}"$/)
      await adapter.close()
    } finally {
      vi.useRealTimers()
    }
  })

  it('the time-out is a stall time-out: a slow adapter answering one request at a time, with many queued, is not cut off', async () => {
    vi.useFakeTimers(FAKE)
    try {
      // Answers one at a time; the test's clock moves 600 ms at each answer: the 25th request waits 15 s on it, the
      // adapter is never silent for more than 600 ms of the 1000 ms time-out.
      const cmd = script('sequential', `queue = queue.then(() => new Promise((r) => setTimeout(r, 5))).then(() => process.stdout.write(JSON.stringify({ id: req.id, allowed: true }) + '\\n'))`, 'let queue = Promise.resolve()')
      const adapter = new BatchAdapter(options(cmd, { window: 256, timeoutMs: 1000 }))
      await adapter.start()
      let answered = 0
      await adapter.judgeAll(requests(25), () => {
        answered++
        vi.advanceTimersByTime(600)
      })
      expect(answered).toBe(25)
      await adapter.close()
    } finally {
      vi.useRealTimers()
    }
  })

  it('regression: answers read in one chunk counted the time the run spent on the first toward the adapter\'s silence, so a busy machine cut off a live adapter', async () => {
    vi.useFakeTimers(FAKE)
    try {
      // Answers in pairs, two lines in one write (as a loaded machine's pipe delivers them); the run spends 700 ms of
      // the test's clock on each answer: 1,400 ms on a pair (the watchdog, every 250 ms, looks within it past 1,000 ms),
      // never 700 ms without an answer.
      const cmd = script('pairs', `if (req.url === '/') return { id: req.id, allowed: true }; held.push(JSON.stringify({ id: req.id, allowed: true })); if (held.length === 2) { process.stdout.write(held.join('\\n') + '\\n'); held = [] }`, 'let held = []')
      const adapter = new BatchAdapter(options(cmd, { window: 256, timeoutMs: 1000 }))
      await adapter.start()
      let answered = 0
      await adapter.judgeAll(requests(24), () => {
        answered++
        vi.advanceTimersByTime(700)
      })
      expect(answered).toBe(24)
      await adapter.close()
    } finally {
      vi.useRealTimers()
    }
  })

  it('a stalled request names its case: id, agent, URL and robots.txt source', async () => {
    vi.useFakeTimers(FAKE)
    try {
      const adapter = new BatchAdapter(options(script('silent', `return req.id === 1 ? { id: 1, allowed: true } : undefined`), { timeoutMs: 1000 }))
      await adapter.start()
      const reqs: Request[] = [{ robots: new Uint8Array(0), agents: ['FooBot'], url: 'https://a.com/x', id: 'corpus:a.com#3', source: 'corpus/robots/a.com' }]
      const run = adapter.judgeAll(reqs, () => {})
      run.catch(() => {})
      await vi.advanceTimersByTimeAsync(1250)
      await expect(run).rejects.toThrow(
        /no answer at all for 1250 ms \(--timeout 1000\) after 0 answers, 1 request in flight; the oldest: case corpus:a\.com#3 \(agent "FooBot", URL "https:\/\/a\.com\/x", robots\.txt corpus\/robots\/a\.com\)/,
      )
      await adapter.close()
    } finally {
      vi.useRealTimers()
    }
  })

  it('bodies inline that add up past what a string can hold are sent in pieces (regression: --batch-robots inline stopped the run with "Invalid string length", exit 1)', async () => {
    // 17 requests of one 32 MiB body: their lines hold more characters than a V8 string can (2^29 - 24).
    const body = new Uint8Array(32 << 20).fill(0x61)
    const reqs: Request[] = Array.from({ length: 17 }, (_, i) => ({ robots: body, agents: ['a'], url: `/${i}` }))
    let answered = 0
    // The harness's null adapter: it reads each line once, however long.
    expect(await measureCeiling(reqs, 256, 'inline', NO_TIMEOUT, () => answered++)).toBeGreaterThan(0)
    expect(answered).toBe(17)
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
