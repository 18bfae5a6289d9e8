// The batch adapter: pipelining with answers matched by id, how bodies travel,
// and clear errors (never a hang) when the process misbehaves.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
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

const options = (command: string, more: Partial<BatchOptions> = {}): BatchOptions => ({
  command, robotsVia: 'path', multiAgent: false, window: 8, timeoutMs: 5000, ...more,
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

  // Request 1 is the start-up probe: the cases' requests are 2, 3, …; answers count the cases' only.
  it.each([
    ['not JSON', `return req.id === 3 ? 'hello' : { id: req.id, allowed: true }`, /--batch: answer 2 is not JSON: "hello"/, 5000],
    ['an unknown id', `return { id: req.id + 100, allowed: true }`, /answer 1 has an id that matches no request in flight: .*every answer gives back its request's id/, 5000],
    ['no verdict', `return { id: req.id, allowed: 'yes' }`, /answer 1 has no boolean "allowed"/, 5000],
    ['a bad line', `return req.id === 1 ? { id: 1, allowed: true } : { id: req.id, allowed: true, line: 1.5 }`,
      /answer 1 has a "line" that is not a whole number ≥ 0 or null: .*, to a request \(agent "a", URL "\/u0"\)/, 5000],
    ['an early exit', `if (req.id === 4) { console.error('oops: giving up'); process.exit(3) } return { id: req.id, allowed: true }`,
      /--batch: the adapter exited with status 3 after 2 answers, with \d+ requests unanswered; the oldest unanswered: a request \(agent "a", URL "\/u2"\); its stderr ended with: oops: giving up/, 5000],
    // The stall timeout names the oldest request in flight: its case's agent and URL (and id and robots.txt source when it has them).
    ['no answer', `return req.id === 5 ? undefined : { id: req.id, allowed: true }`,
      /--batch: no answer at all for \d+ ms \(--timeout 2500\) after 19 answers, 1 request in flight; the oldest: a request \(agent "a", URL "\/u3\/deny"\)/, 2500],
  ])('a misbehaving adapter (%s) stops the run with a clear error', async (_name, answer, message, timeoutMs) => {
    const adapter = new BatchAdapter(options(script(`bad-${_name.replace(/\W/g, '')}`, answer), { timeoutMs }))
    const t0 = performance.now()
    const run = runAll(adapter, requests(20))
    await expect(run).rejects.toThrow(message)
    await expect(run).rejects.toMatchObject({ code: 'ERR_ADAPTER', name: 'AdapterFailure' })
    expect(performance.now() - t0).toBeLessThan(timeoutMs + 6000)
  })

  it('the timeout is a stall timeout: a slow adapter answering one request at a time, with many queued, is not cut off', async () => {
    // 25 answers, 150 ms apart, all 25 in flight at once: the last waits 3.75 s, more than the 2.5 s timeout, but answers keep coming.
    const cmd = script('sequential', `const until = Date.now() + 150; while (Date.now() < until) {} return { id: req.id, allowed: true }`)
    const got = await runAll(new BatchAdapter(options(cmd, { window: 256, timeoutMs: 2500 })), requests(25))
    expect(got).toHaveLength(25)
    expect(got.every((a) => a?.allowed === true)).toBe(true)
  })

  it('a stalled request names its case: id, agent, URL and robots.txt source', async () => {
    const cmd = script('silent', `return req.id === 1 ? { id: 1, allowed: true } : undefined`)
    const adapter = new BatchAdapter(options(cmd, { timeoutMs: 2500 }))
    const reqs: Request[] = [{ robots: new Uint8Array(0), agents: ['FooBot'], url: 'https://a.com/x', id: 'corpus:a.com#3', source: 'corpus/robots/a.com' }]
    await expect(runAll(adapter, reqs)).rejects.toThrow(
      /no answer at all for \d+ ms \(--timeout 2500\) after 0 answers, 1 request in flight; the oldest: case corpus:a\.com#3 \(agent "FooBot", URL "https:\/\/a\.com\/x", robots\.txt corpus\/robots\/a\.com\)/,
    )
  })

  it('a command that does not start is an error', async () => {
    await expect(runAll(new BatchAdapter(options('/nonexistent/adapter-x')), requests(2))).rejects.toThrow(/exited with status 127.*not found/)
  })

  it('measures start-up on its own and a time per answer', async () => {
    const adapter = new BatchAdapter(options(script('plain', `return { id: req.id, allowed: true }`)))
    const times: number[] = []
    await adapter.start()
    await adapter.judgeAll(requests(10), (_i, _a, ms) => times.push(ms))
    await adapter.close()
    expect(adapter.timings().startupMs).toBeGreaterThan(0)
    expect(times).toHaveLength(10)
    expect(times.every((t) => t >= 0 && t < 1000)).toBe(true)
  })
})
