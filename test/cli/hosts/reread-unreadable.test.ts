/**
 * A `--robots-dir` file is read again when its host comes back after its
 * rules were evicted from the cache (`--cache-mb`), and by each judging
 * thread that meets its host. Only the first load of an entry was reported,
 * so a file that could not be read again (removed, replaced, its permission
 * taken) judged the host's later lines by `--missing` with no warning, no
 * count, and exit 0.
 */
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EntryState } from '../../../src/cli/hosts/host-rules.js'
import { HostTally } from '../../../src/cli/hosts/host-tally.js'
import { DirectoryRules } from '../../../src/cli/hosts/robots-dir.js'
import { CLI, ensureBuilt } from '../helpers.js'

const root = mkdtempSync(join(tmpdir(), 'robots-reread-'))
beforeAll(() => ensureBuilt())
afterAll(() => rmSync(root, { recursive: true, force: true }))

function hostDir(name: string): string {
  const dir = join(root, name)
  mkdirSync(dir)
  writeFileSync(join(dir, 'a.test'), 'User-agent: *\nDisallow: /p\n')
  writeFileSync(join(dir, 'b.test'), 'User-agent: *\nDisallow: /p\n')
  return dir
}

/** Runs filter with no cache (every host read again when it comes back); `a.test` is removed once b.test's line is out, then a.test comes back. */
function runRemovingA(dir: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'filter', '--robots-dir', dir, '--agent', 'X', '--print', 'verdicts', '--line-buffered', '--cache-mb', '0', '-j', '1'], { stdio: ['pipe', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    let removed = false
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString()
      if (!removed && stdout.includes('b.test')) {
        removed = true
        rmSync(join(dir, 'a.test'))
        child.stdin.end('http://a.test/p\n')
      }
    })
    child.on('error', reject)
    child.on('close', (status) => resolve({ status, stdout, stderr }))
    child.stdin.write('http://a.test/p\nhttp://b.test/p\n')
  })
}

describe('regression: a --robots-dir file that could not be read again judged its host by --missing in silence, now it is counted as unreadable, named, and the run exits 1', () => {
  it('filter: a file removed after its rules were evicted', async () => {
    const dir = hostDir('evicted')
    const r = await runRemovingA(dir)
    expect(r.stdout).toBe('disallowed\t2\thttp://a.test/p\ndisallowed\t2\thttp://b.test/p\nallowed\t0\thttp://a.test/p\n')
    expect(r.stderr).toContain(`warning: skipped '${join(dir, 'a.test')}' when read again: no such file or directory;`)
    expect(r.stderr).toContain('hosts: 1 with a robots.txt, 0 without one, 1 unreadable')
    expect(r.stderr).toContain(`a robots.txt file this run used could not be read ('${join(dir, 'a.test')}': no such file or directory)`)
    expect(r.status).toBe(1)
  }, 30_000)

  it('the tally: an entry read by one thread and unreadable in another is counted as unreadable, once', () => {
    const dir = hostDir('threads')
    const rules = DirectoryRules.open(dir)
    const warnings: string[] = []
    const tally = new HostTally(rules, { warn: (l) => warnings.push(l), missing: 'allow' })
    const a = [...Array(rules.size).keys()].find((id) => rules.name(id) === 'a.test')!
    expect(a).toBeDefined()
    tally.entry({ id: a, state: EntryState.Robots })
    tally.entry({ id: a, state: EntryState.Robots })
    tally.entry({ id: a, state: EntryState.Unreadable, reason: 'no such file or directory' })
    tally.entry({ id: a, state: EntryState.Unreadable, reason: 'no such file or directory' })
    expect(tally.withRobots).toBe(0)
    expect(tally.unreadable).toBe(1)
    expect(warnings).toHaveLength(1)
    expect(tally.unreadableError()?.message).toContain(`('${join(dir, 'a.test')}': no such file or directory)`)
  })
})
