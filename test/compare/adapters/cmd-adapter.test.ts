// The command adapter: template words, placeholders passed intact, outcome by
// exit status or stdout patterns, deciding lines, time-outs, start-up.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { Answer } from '../../../src/compare/adapters/adapter.js'
import { CmdAdapter, outcomeOf as outcomeWithEvidence, splitWords, type CmdOptions } from '../../../src/compare/adapters/cmd-adapter.js'
import { alive, waitGone } from '../../support/processes.js'

/** An answer without its evidence (checked on its own). */
function plain(a: Answer): Answer {
  const { evidence: _, ...rest } = a
  return rest as Answer
}

const outcomeOf = (...args: Parameters<typeof outcomeWithEvidence>): Answer => plain(outcomeWithEvidence(...args))

const dir = mkdtempSync(join(tmpdir(), 'compare-cmd-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A time-out that never fires within a test (vitest gives up on a test after 60 s), for the tests not about it. */
const NO_TIMEOUT = 600_000

const base: CmdOptions = { template: 'x', allowedExit: 0, disallowedExit: 1, concurrency: 2, timeoutMs: NO_TIMEOUT }

describe('command templates', () => {
  it('split into words like a shell, without running one', () => {
    expect(splitWords(`tool --a=%url% 'two words' "say \\"hi\\" \\$x" a\\ b ''`)).toEqual(['tool', '--a=%url%', 'two words', 'say "hi" $x', 'a b', ''])
    expect(() => splitWords(`tool 'open`)).toThrow(/unterminated ' quote/)
    expect(() => splitWords('  ')).toThrow(/needs a command/)
  })

  it('outcome by exit status, by patterns, with a line', () => {
    expect(outcomeOf(base, 0, null, '', '')).toEqual({ allowed: true })
    expect(outcomeOf(base, 1, null, '', '')).toEqual({ allowed: false })
    expect(outcomeOf(base, 2, null, '', 'boom\n')).toEqual({ error: 'exit status 2 is neither --allowed-exit 0 nor --disallowed-exit 1; stderr: boom' })
    expect(outcomeOf(base, null, 'SIGKILL', '', '')).toEqual({ error: 'killed by SIGKILL' })
    const re = { ...base, allowedPattern: /^allowed/m, disallowedPattern: /^disallowed/m, linePattern: /\tline (\d+):/ }
    expect(outcomeOf(re, 0, null, 'disallowed\t/x\tline 4: Disallow: /x\n', '')).toEqual({ allowed: false, line: 4 })
    expect(outcomeOf(re, 3, null, 'allowed\t/y\tno matching rule\n', '')).toEqual({ allowed: true, line: 0 })
    expect(outcomeOf(re, 0, null, 'maybe\n', '')).toMatchObject({ error: expect.stringMatching(/neither pattern/) })
    // huge line numbers: digits past 2^53 (or past a double's range) are an error, not another line (or line 0).
    expect(outcomeOf(re, 0, null, 'disallowed\t/x\tline 9007199254740993: Disallow\n', '')).toEqual({ error: '--line-pattern read a line number past 2^53: 9007199254740993' })
    expect(outcomeOf(re, 0, null, `disallowed\t/x\tline ${'9'.repeat(400)}: Disallow\n`, '')).toMatchObject({ error: expect.stringMatching(/past 2\^53/) })
    const one = { ...base, allowedPattern: /^yes$/m }
    expect(outcomeOf(one, 0, null, 'yes\n', '')).toEqual({ allowed: true })
    expect(outcomeOf(one, 0, null, 'no\n', '')).toEqual({ allowed: false })
  })

  it('a crash read by one pattern is an error, not the other outcome (exit 2 with an empty stdout was counted allowed by --disallowed-pattern)', () => {
    const d = { ...base, disallowedPattern: /^disallowed/m }
    expect(outcomeOf(d, 2, null, '', 'Traceback\n')).toEqual({ error: 'exit status 2 and stdout matches no pattern; stderr: Traceback' })
    expect(outcomeOf({ ...base, allowedPattern: /^allowed/m }, 139, null, '', '')).toEqual({ error: 'exit status 139 and stdout matches no pattern' })
    // An exit status that is an answer, or a pattern that matched, still decides.
    expect(outcomeOf(d, 0, null, 'allowed\n', '')).toEqual({ allowed: true })
    expect(outcomeOf(d, 2, null, 'disallowed\n', '')).toEqual({ allowed: false })
  })

  it('keeps the exit status and the start of stdout and stderr as evidence', () => {
    expect(outcomeWithEvidence(base, 2, null, 'out\n', 'err\n').evidence).toEqual({ status: 2, signal: null, stdout: 'out\n', stderr: 'err\n' })
    const long = 'x'.repeat(5000)
    expect(outcomeWithEvidence(base, 0, null, long, '').evidence!.stdout).toBe(`${'x'.repeat(4096)}… (904 more characters)`)
  })
})

describe('command adapter', () => {
  const probe = join(dir, 'probe.mjs')
  writeFileSync(
    probe,
    `import { readFileSync } from 'node:fs'
const [robots, url, agent] = process.argv.slice(2)
const body = readFileSync(robots)
if (url.includes('sleep')) await new Promise((r) => setTimeout(r, 600_000)) // never answers: only the time-out ends it
const same = robots === process.env.COMPARE_ROBOTS && url === process.env.COMPARE_URL && agent === process.env.COMPARE_USER_AGENT
process.stdout.write(JSON.stringify({ hex: body.toString('hex'), url, agent, same }) + '\\n')
process.exit(url.includes('deny') ? 1 : 0)
`,
  )

  it('passes the body file, URL and agent as single arguments, whatever they hold', async () => {
    const adapter = new CmdAdapter({ ...base, template: `node ${probe} %robots% %url% %user-agent%`, linePattern: /"hex":"([0-9]+)/ })
    await adapter.start()
    const got: unknown[] = []
    const reqs = [
      { robots: new Uint8Array([0x31, 0x32]), agents: ['Foo Bot'], url: "https://a.com/it's $(rm -rf /) `x` \"q\"" },
      { robots: new Uint8Array([0x39]), agents: [''], url: '/deny' },
      { robots: new Uint8Array(0), agents: ['-x'], url: '' },
    ]
    await adapter.judgeAll(reqs, (i, a) => (got[i] = plain(a)))
    expect(got).toEqual([{ allowed: true, line: 3132 }, { allowed: false, line: 39 }, { allowed: true, line: 0 }])
    await adapter.close()
  })


  it('a URL or token holding a placeholder is passed as it is (regression: a URL /%user-agent% reached the command as /FooBot, a wrong answer blamed on it)', async () => {
    const adapter = new CmdAdapter({ ...base, template: `node ${probe} %robots% %url% %user-agent%` })
    const a = await adapter.judge({ robots: new Uint8Array(0), agents: ['%url%%robots%'], url: '/%user-agent%/%robots%/%url%' })
    expect(JSON.parse(a.evidence!.stdout!)).toMatchObject({ url: '/%user-agent%/%robots%/%url%', agent: '%url%%robots%', same: true })
    await adapter.close()
  })
  it('a URL or token with a NUL byte is an error answer, not a crash', async () => {
    const adapter = new CmdAdapter({ ...base, template: `node ${probe} %robots% %url% %user-agent%` })
    expect(await adapter.judge({ robots: new Uint8Array(0), agents: ['a'], url: '/a\0b' })).toEqual({ error: 'a URL with a NUL byte cannot be passed to a command' })
    expect(await adapter.judge({ robots: new Uint8Array(0), agents: ['a\0'], url: '/' })).toEqual({ error: 'a user agent with a NUL byte cannot be passed to a command' })
    await adapter.close()
  })
  it('regression: a URL longer than one argument may be (E2BIG, thrown at once by spawn) stopped the whole run with "spawn E2BIG", uncoded; it is the case\'s error answer, and the next case runs', async () => {
    const adapter = new CmdAdapter({ ...base, template: `node ${probe} %robots% %url% %user-agent%` })
    const long = await adapter.judge({ robots: new Uint8Array(0), agents: ['a'], url: `/${'a'.repeat(200_000)}` })
    expect(long).toEqual({ error: expect.stringMatching(/^the case cannot be passed to a command: its URL or user agent is longer than .*\(E2BIG\)$/) })
    // Through the environment too (COMPARE_URL), for a command that does not name %url%.
    const quiet = new CmdAdapter({ ...base, template: 'true' })
    expect(await quiet.judge({ robots: new Uint8Array(0), agents: ['a'], url: `/${'a'.repeat(200_000)}` })).toMatchObject({ error: expect.stringContaining('(E2BIG)') })
    expect(JSON.parse((await adapter.judge({ robots: new Uint8Array(0), agents: ['a'], url: '/short' })).evidence!.stdout!)).toMatchObject({ url: '/short' })
    await adapter.close()
    await quiet.close()
  })

  it('start-up: the command run three times alone, on an empty robots.txt, before the cases; the median taken off each case', async () => {
    // This probe takes 200 ms to start, and logs each run.
    const slow = join(dir, 'slow-probe.mjs')
    const log = join(dir, 'slow-probe.log')
    writeFileSync(log, '')
    writeFileSync(
      slow,
      `import { appendFileSync, readFileSync } from 'node:fs'
await new Promise((r) => setTimeout(r, 200))
const [log, robots, url, agent] = process.argv.slice(2)
appendFileSync(log, [readFileSync(robots).toString('hex'), url, agent].join(' ') + '\\n')
`,
    )
    const adapter = new CmdAdapter({ ...base, template: `node ${slow} ${log} %robots% %url% %user-agent%` })
    await adapter.start()
    expect(readFileSync(log, 'utf8')).toBe(' / ExampleBot\n'.repeat(3))
    expect(adapter.timings()).toMatchObject({ startupSubtracted: true, caseTime: 'wall time of one process less the start-up measured alone' })
    expect(adapter.timings().startupMs).toBeGreaterThanOrEqual(150)
    const times: number[] = []
    await adapter.judgeAll([{ robots: new Uint8Array([0x41]), agents: ['a'], url: '/1' }, { robots: new Uint8Array([0x42]), agents: ['b'], url: '/2' }], (_i, _a, ms) => times.push(ms))
    expect(readFileSync(log, 'utf8').split('\n').slice(3).sort()).toEqual(['', '41 /1 a', '42 /2 b'])
    // Per case: the wall time of its process less the start-up, never below 0.
    expect(times).toHaveLength(2)
    expect(times.every((t) => t >= 0)).toBe(true)
    await adapter.close()
  })

  it('start-up: a run alone that times out measures nothing, and nothing is taken off the cases (regression: the time-out was reported as the start-up and taken off each case, after three runs)', async () => {
    const log = join(dir, 'hung-probe.log')
    writeFileSync(log, '')
    const adapter = new CmdAdapter({ ...base, template: `sh -c 'echo run >> ${log}; exec sleep 300'`, timeoutMs: 300 })
    await adapter.start()
    expect(readFileSync(log, 'utf8')).toBe('run\n')
    expect(adapter.timings()).toEqual({ caseTime: 'wall time of one process (no start-up taken off: run alone on an empty robots.txt, it timed out after 300 ms)' })
    await adapter.close()
  })

  it('stdout past 1 MiB read by patterns is an error answer, not a verdict read from its start (2 MiB then "allowed" was counted disallowed)', async () => {
    const verbose = join(dir, 'verbose.mjs')
    writeFileSync(verbose, `process.stdout.write('x'.repeat(2 << 20) + '\\nallowed\\n'); process.exitCode = Number(process.argv[2])\n`)
    const one = new CmdAdapter({ ...base, template: `node ${verbose} 0`, allowedPattern: /^allowed$/m })
    const a = await one.judge({ robots: new Uint8Array(0), agents: ['a'], url: '/' })
    expect(a.error).toBe('stdout longer than 1 MiB: the patterns cannot read it whole (exit status 0)')
    expect(a.evidence?.stdout).toMatch(/^x{4096}… \(1044480 more characters\)$/)
    await one.close()
    // Read by exit status, a long stdout changes nothing.
    const byStatus = new CmdAdapter({ ...base, template: `node ${verbose} 1` })
    expect(plain(await byStatus.judge({ robots: new Uint8Array(0), agents: ['a'], url: '/' }))).toEqual({ allowed: false })
    await byStatus.close()
    expect(outcomeOf({ ...base, linePattern: /line (\d+)/ }, 0, null, 'line 3', '', true)).toMatchObject({ error: expect.stringMatching(/^stdout longer than 1 MiB/) })
    expect(outcomeOf({ ...base, linePattern: /line (\d+)/ }, 0, null, 'line 3', '', false)).toEqual({ allowed: true, line: 3 })
  })

  it('kills a case that runs past the time-out', async () => {
    // The probe never answers on /sleep: only the kill ends it, whatever the load, so a short time-out is safe.
    const adapter = new CmdAdapter({ ...base, template: `node ${probe} %robots% %url% %user-agent%`, timeoutMs: 500 })
    const a = await adapter.judge({ robots: new Uint8Array(0), agents: ['a'], url: '/sleep' })
    expect(plain(a)).toEqual({ error: 'timed out after 500 ms (--timeout): killed' })
    await adapter.close()
  })

  it('ends what a command left running when it exits: a background process holding its stdout does not hold the case', async () => {
    // The command starts a sleep in the background (it inherits stdout) and exits at once, allowed.
    const pids = join(dir, 'background.pid')
    const adapter = new CmdAdapter({ ...base, template: `sh -c 'sleep 300 & echo $! > ${pids}; exit 0'` })
    const t0 = performance.now()
    const a = await adapter.judge({ robots: new Uint8Array(0), agents: ['a'], url: '/' })
    expect(plain(a)).toEqual({ allowed: true })
    // Far below the sleep: the case ended with its command (a generous bound for a busy machine).
    expect(performance.now() - t0).toBeLessThan(100_000)
    const pid = Number(readFileSync(pids, 'utf8'))
    expect(await waitGone(pid)).toBe(true)
    await adapter.close()
  })

  it('--timeout bounds a case whose stdout a process outside its group holds open', async () => {
    // setsid puts the sleep out of the command's group: compare cannot kill it, but the case still ends at the time-out.
    const pids = join(dir, 'escaped.pid')
    // The command exits once the escaped process has its own session (it wrote its pid), so the kill of the group cannot reach it.
    const script = join(dir, 'escape.sh')
    writeFileSync(script, `setsid sh -c 'echo $$ > ${pids}; exec sleep 300' &\nwhile [ ! -s ${pids} ]; do sleep 0.05; done\nexit 0\n`)
    const adapter = new CmdAdapter({ ...base, template: `sh ${script}`, timeoutMs: 1000 })
    try {
      const t0 = performance.now()
      const a = await adapter.judge({ robots: new Uint8Array(0), agents: ['a'], url: '/' })
      expect(a.error).toMatch(/^timed out after 1000 ms \(--timeout\): killed; its stdout was held open after it exited/)
      expect(performance.now() - t0).toBeLessThan(100_000)
    } finally {
      const pid = Number(readFileSync(pids, 'utf8'))
      if (alive(pid)) process.kill(pid, 'SIGKILL')
      await adapter.close()
    }
  })

  it('a program that cannot run stops the run at start-up', async () => {
    const adapter = new CmdAdapter({ ...base, template: '/nonexistent/tool %url%' })
    await expect(adapter.start()).rejects.toMatchObject({ code: 'ERR_ADAPTER', message: expect.stringMatching(/cannot run '\/nonexistent\/tool': no such file/) })
    await adapter.close()
  })
})
