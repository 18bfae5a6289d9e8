// The command adapter: template words, placeholders passed intact, outcome by
// exit status or stdout patterns, deciding lines, time-outs, start-up.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { CmdAdapter, outcomeOf, splitWords, type CmdOptions } from '../../../src/compare/adapters/cmd-adapter.js'

const dir = mkdtempSync(join(tmpdir(), 'compare-cmd-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const base: CmdOptions = { template: 'x', allowedExit: 0, disallowedExit: 1, concurrency: 2, timeoutMs: 5000 }

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
    const one = { ...base, allowedPattern: /^yes$/m }
    expect(outcomeOf(one, 0, null, 'yes\n', '')).toEqual({ allowed: true })
    expect(outcomeOf(one, 0, null, 'no\n', '')).toEqual({ allowed: false })
  })
})

describe('command adapter', () => {
  const probe = join(dir, 'probe.mjs')
  writeFileSync(
    probe,
    `import { readFileSync } from 'node:fs'
const [robots, url, agent] = process.argv.slice(2)
const body = readFileSync(robots)
if (url.includes('sleep')) await new Promise((r) => setTimeout(r, 5000))
const same = robots === process.env.COMPARE_ROBOTS && url === process.env.COMPARE_URL && agent === process.env.COMPARE_USER_AGENT
process.stdout.write(JSON.stringify({ hex: body.toString('hex'), url, agent, same }) + '\\n')
process.exit(url.includes('deny') ? 1 : 0)
`,
  )

  it('passes the body file, URL and agent as single arguments, whatever they hold', async () => {
    const adapter = new CmdAdapter({ ...base, template: `node ${probe} %robots% %url% %user-agent%`, linePattern: /"hex":"([0-9]+)/ })
    await adapter.start()
    expect(adapter.timings().startupMs).toBeGreaterThan(0)
    const got: unknown[] = []
    const reqs = [
      { robots: new Uint8Array([0x31, 0x32]), agents: ['Foo Bot'], url: "https://a.com/it's $(rm -rf /) `x` \"q\"" },
      { robots: new Uint8Array([0x39]), agents: [''], url: '/deny' },
      { robots: new Uint8Array(0), agents: ['-x'], url: '' },
    ]
    await adapter.judgeAll(reqs, (i, a) => (got[i] = a))
    expect(got).toEqual([{ allowed: true, line: 3132 }, { allowed: false, line: 39 }, { allowed: true, line: 0 }])
    await adapter.close()
  })

  it('a URL or token with a NUL byte is an error answer, not a crash', async () => {
    const adapter = new CmdAdapter({ ...base, template: `node ${probe} %robots% %url% %user-agent%` })
    expect(await adapter.judge({ robots: new Uint8Array(0), agents: ['a'], url: '/a\0b' })).toEqual({ error: 'a URL with a NUL byte cannot be passed to a command' })
    expect(await adapter.judge({ robots: new Uint8Array(0), agents: ['a\0'], url: '/' })).toEqual({ error: 'a user agent with a NUL byte cannot be passed to a command' })
    await adapter.close()
  })

  it('kills a case that runs past the time-out', async () => {
    const adapter = new CmdAdapter({ ...base, template: `node ${probe} %robots% %url% %user-agent%`, timeoutMs: 500 })
    const a = await adapter.judge({ robots: new Uint8Array(0), agents: ['a'], url: '/sleep' })
    expect(a).toEqual({ error: 'timed out after 500 ms (--timeout): killed' })
    await adapter.close()
  })

  it('a program that cannot run stops the run at start-up', async () => {
    const adapter = new CmdAdapter({ ...base, template: '/nonexistent/tool %url%' })
    await expect(adapter.start()).rejects.toMatchObject({ code: 'ERR_ADAPTER', message: expect.stringMatching(/cannot run '\/nonexistent\/tool': no such file/) })
    await adapter.close()
  })
})
