// Regressions of issue 13 (hostile inputs) in the CLI, each named after what broke:
// item 9 (a FIFO in --robots-dir hung filter), item 10 (terminal escape
// injection), item 12 (one unreadable file aborted filter --robots-dir and lost
// the verdicts already judged; symlinks out of DIR).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { CLI, ensureBuilt, run, tempDir } from './helpers.js'

let tmp: ReturnType<typeof tempDir>
beforeAll(() => {
  ensureBuilt()
  tmp = tempDir()
})
afterAll(() => tmp.cleanup())

/** No byte a terminal acts on: C0 controls other than LF and TAB, DEL, and the C1 controls (as UTF-8). */
function expectNoControl(text: string, what: string): void {
  expect(text, what).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/)
}

describe('issue 13 #9: a FIFO in --robots-dir hung filter', () => {
  it.skipIf(process.platform === 'win32')('a FIFO named after a host is skipped with a warning, never opened, and the run then fails (exit 1): a local failure is not the site\'s answer', () => {
    const dir = tmp.path('fifo-dir')
    mkdirSync(dir)
    writeFileSync(join(dir, 'ok.test'), 'User-agent: *\nDisallow: /x\n')
    expect(spawnSync('mkfifo', [join(dir, 'fifo.test')]).status).toBe(0)
    for (const jobs of ['1', '2']) {
      const r = spawnSync(process.execPath, [CLI, 'filter', '--robots-dir', dir, '--agent', 'bot', '--print', 'verdicts', '--jobs', jobs], {
        input: 'https://fifo.test/x\nhttps://ok.test/x\n',
        timeout: 20_000,
        encoding: 'utf8',
        env: { ...process.env, ROBOTS_AUTOMATON_BLOCK_BYTES: '16' },
      })
      expect(r.error, 'filter must not hang').toBeUndefined()
      expect(r.status).toBe(1)
      expect(r.stdout).toBe('allowed\t0\thttps://fifo.test/x\ndisallowed\t2\thttps://ok.test/x\n')
      expect(r.stderr).toContain(`warning: skipped '${join(dir, 'fifo.test')}': not a regular file (a FIFO); the host is judged as one without a robots.txt (--missing allow)`)
      expect(r.stderr).toMatch(/hosts: 1 with a robots\.txt, 0 without one, 1 unreadable/)
      expect(r.stderr).toContain(`robots-automaton: a robots.txt file this run used could not be read ('${join(dir, 'fifo.test')}': not a regular file (a FIFO))`)
    }
    const packed = spawnSync(process.execPath, [CLI, 'pack', dir, '-o', tmp.path('fifo.bundle')], { timeout: 20_000, encoding: 'utf8' })
    expect(packed.error).toBeUndefined()
    expect(packed.status).toBe(1)
    expect(packed.stderr).toContain('not a regular file (a FIFO)')
    expect(packed.stderr).toContain('no bundle written')
    expect(existsSync(tmp.path('fifo.bundle'))).toBe(false)
  })
})

describe('issue 13 #10: terminal escape injection', () => {
  it("lint: a user-agent value in the user-agent-cut message is escaped", async () => {
    writeFileSync(tmp.path('ua.txt'), 'User-agent: bot\x1b]0;pwned\x07\x9b2J\nDisallow: /\n')
    for (const args of [[], ['--json']]) {
      const r = await run(['lint', ...args, tmp.path('ua.txt')])
      expect(r.stdout.toString()).toContain(args.length ? '\\u001b]0;pwned\\u0007' : '\\x1b]0;pwned\\x07\\x9b2J')
      expectNoControl(r.stdout.toString(), 'stdout')
      expectNoControl(r.stderr, 'stderr')
    }
  })

  it('check: patterns and URLs are escaped', async () => {
    writeFileSync(tmp.path('pat.txt'), 'User-agent: *\nDisallow: /a\x1b[2Jb\r\n')
    for (const args of [[], ['--json']]) {
      const r = await run(['check', tmp.path('pat.txt'), '--agent', 'bot', ...args, '/a\x1b[2Jb', '/ok\x07'])
      const out = r.stdout.toString()
      if (args.length) {
        expect(JSON.parse(out.split('\n')[0]).rule.pattern).toBe('/a\x1b[2Jb')
      } else expect(out).toBe('disallowed\t/a\\x1b[2Jb\tline 2: Disallow: /a\\x1b[2Jb\nallowed\t/ok\\x07\tno matching rule\n')
      expectNoControl(out, 'stdout')
    }
  })

  it("compare: the report's patterns, agents and URLs are escaped", async () => {
    writeFileSync(
      tmp.path('evil-cases.jsonl'),
      [
        JSON.stringify({ id: 'e1', robots: 'User-agent: *\nDisallow: /a\x1b[2Jb\n', agent: 'bot\x1b]0;x\x07', url: '/a\x1b[2Jb' }),
        JSON.stringify({ id: 'e2', robots: 'User-agent: *\nAllow: /\x9b31m\nDisallow: /\n', agent: 'bot', url: '/\x9b31m' }),
      ].join('\n'),
    )
    writeFileSync(tmp.path('allow-all.mjs'), 'export function parse() { return { isAllowed: () => true } }\n')
    const r = await run(['compare', '--cases', tmp.path('evil-cases.jsonl'), '--module', tmp.path('allow-all.mjs'), '-q'])
    expect(r.status).toBe(3)
    expect(r.stdout.toString()).toContain('Disallow: /a\\x1b[2Jb')
    expectNoControl(r.stdout.toString(), 'stdout')
  })

  it('filter: host and file names in warnings are escaped', async () => {
    const dir = tmp.path('evil-dir\x1b[31m')
    mkdirSync(dir)
    const evil = 'evil\x1b]0;x\x07.test'
    writeFileSync(join(dir, evil), '<html>\n')
    symlinkSync('loop\x1b[5m.test', join(dir, 'loop\x1b[5m.test'))
    const r = await run(['filter', '--robots-dir', dir, '--agent', 'bot'], { input: `https://${evil}/a\nhttps://loop\x1b[5m.test/\n` })
    // Hosts holding control characters are no hosts: the lines are named, not judged (exit 4), and so are the files.
    expect(r.status).toBe(4)
    expect(r.stderr).toContain('evil\\x1b]0;x\\x07.test')
    expect(r.stderr).toContain('loop\\x1b[5m.test')
    expectNoControl(r.stderr, 'stderr')
    // An agent holding a control character is a usage error, named escaped.
    const agent = await run(['filter', '--robots-dir', dir, '--agent', 'bot\x1b[1m'], { input: '' })
    expect(agent.status).toBe(2)
    expect(agent.stderr).toContain("--agent 'bot\\x1b[1m'")
    expectNoControl(agent.stderr, 'stderr')
    const missing = await run(['filter', '--robots', tmp.path('no\x1bfile'), '--agent', 'bot'], { input: '' })
    expect(missing.stderr).toContain('no\\x1bfile')
    expectNoControl(missing.stderr, 'stderr')
  })
})

describe('issue 13 #12: one unreadable file aborted filter --robots-dir and lost the verdicts already judged', () => {
  const dir = () => tmp.path('unreadable-dir')
  beforeAll(() => {
    mkdirSync(dir())
    writeFileSync(join(dir(), 'ok.test'), 'User-agent: *\nDisallow: /x\n')
    symlinkSync('loop.test', join(dir(), 'loop.test'))
    // Reading /proc/self/mem at offset 0 fails with EIO: a file that stats as regular but cannot be read.
    if (existsSync('/proc/self/mem')) symlinkSync('/proc/self/mem', join(dir(), 'eio.test'))
    // Outside DIR: followed (documented).
    writeFileSync(tmp.path('outside.txt'), 'User-agent: *\nDisallow: /\n')
    symlinkSync(tmp.path('outside.txt'), join(dir(), 'out.test'))
  })

  it('an unreadable file is warned about, counted, and judged as a host without one; every line is written, then the run exits 1 naming the file', async () => {
    const input = ['https://ok.test/x', 'https://loop.test/x', 'https://eio.test/x', 'https://out.test/x', 'https://ok.test/y', 'https://eio.test/y'].join('\n') + '\n'
    for (const [missing, code] of [['allow', 'allowed'], ['disallow', 'disallowed']]) {
      for (const jobs of ['1', '2']) {
        const r = await run(['filter', '--robots-dir', dir(), '--agent', 'bot', '--print', 'verdicts', '--missing', missing, '--jobs', jobs], {
          input,
          env: { ...process.env, ROBOTS_AUTOMATON_BLOCK_BYTES: '16' },
        })
        expect(r.status, r.stderr).toBe(1)
        // Two files (the loop and, where /proc/self/mem exists, the EIO one), or the loop alone; the first is named.
        const unreadable = existsSync('/proc/self/mem') ? '2 robots\\.txt files this run used could not be read \\(the first: ' : 'a robots\\.txt file this run used could not be read \\('
        expect(r.stderr).toMatch(new RegExp(`\\nrobots-automaton: ${unreadable}'[^\\n]*\\.test': [^\\n]*\\); the URLs of [^\\n]* judged as those of a host without one \\(--missing ${missing}\\)[^\\n]*\\n$`))
        const eio = existsSync('/proc/self/mem')
        expect(r.stdout.toString()).toBe(
          [
            'disallowed\t2\thttps://ok.test/x',
            `${code}\t0\thttps://loop.test/x`,
            `${code}\t0\thttps://eio.test/x`,
            'disallowed\t2\thttps://out.test/x',
            'allowed\t0\thttps://ok.test/y',
            `${code}\t0\thttps://eio.test/y`,
            '',
          ].join('\n'),
        )
        expect(r.stderr).toContain(`warning: skipped '${join(dir(), 'loop.test')}': too many symbolic links; the host is judged as one without a robots.txt (--missing ${missing})`)
        if (eio) {
          expect(r.stderr).toContain(`warning: skipped '${join(dir(), 'eio.test')}': input/output error`)
          expect(r.stderr).toMatch(/hosts: 2 with a robots\.txt, 0 without one, 2 unreadable\n/)
        }
      }
    }
  })

  it('regression: diff --robots-dir with a file that cannot be read exited 0 as if the host had none; it now compares every URL, then exits 1 naming the file', async () => {
    const r = await run(['diff', '--agent', 'bot', '--robots-dir', dir(), '--robots-dir', dir()], { input: 'https://ok.test/x\nhttps://loop.test/x\n' })
    expect(r.status, r.stderr).toBe(1)
    expect(r.stderr).toContain('2 URLs compared: 0 now disallowed, 0 now allowed, 2 unchanged')
    expect(r.stderr).toMatch(/\nrobots-automaton: a robots\.txt file this run used could not be read \('[^\n]*loop\.test': too many symbolic links\)[^\n]*\n$/)
  })
})
