/**
 * Regressions of the command line's inputs and outputs found by a hostile
 * user: each test is named after what went wrong, and runs the built CLI.
 */
import { spawnSync } from 'node:child_process'
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CLI, ensureBuilt, tempDir } from './helpers.js'

let tmp: ReturnType<typeof tempDir>
beforeAll(() => {
  ensureBuilt()
  tmp = tempDir()
  writeFileSync(tmp.path('robots.txt'), 'User-agent: *\nDisallow: /private\n')
})
afterAll(() => tmp?.cleanup())

/** Runs the CLI with stdout appended to (or truncating) `outPath`, stdin from `inPath` when given. */
function runInto(args: readonly string[], outPath: string, flags: 'a' | 'w', inPath?: string) {
  const outFd = openSync(outPath, flags)
  const inFd = inPath === undefined ? 'ignore' : openSync(inPath, 'r')
  try {
    return spawnSync(process.execPath, [CLI, ...args], { stdio: [inFd, outFd, 'pipe'], encoding: 'utf8', timeout: 30_000 })
  } finally {
    closeSync(outFd)
    if (typeof inFd === 'number') closeSync(inFd)
  }
}

describe('an input that is also the output', () => {
  const urls = Array.from({ length: 3000 }, (_, i) => `https://a.test/p${i}`).join('\n') + '\n'

  it('filter, diff and check refuse an input that is stdout\'s own file (>> urls.txt), instead of reading their output back forever', () => {
    const robots = tmp.path('robots.txt')
    const cases: [string[], boolean][] = [
      [['filter', '--robots', robots, '--agent', 'bot', 'FILE'], false],
      [['filter', '--robots', robots, '--agent', 'bot', '--print', 'verdicts', tmp.path('robots.txt'), 'FILE'], false],
      [['filter', '--robots', robots, '--agent', 'bot'], true],
      [['diff', robots, robots, '--agent', 'bot', 'FILE'], false],
      [['check', robots, '--agent', 'bot', '/a', '-'], true],
    ]
    for (const [args, viaStdin] of cases) {
      for (const flags of ['a', 'w'] as const) {
        const file = tmp.path('self.txt')
        writeFileSync(file, urls)
        const r = runInto(
          args.map((a) => (a === 'FILE' ? file : a)),
          file,
          flags,
          viaStdin ? file : undefined,
        )
        expect(r.error, `${args.join(' ')}: must not loop`).toBeUndefined()
        expect(r.status, `${args.join(' ')} (${flags}): ${r.stderr}`).toBe(1)
        expect(r.stderr).toMatch(/^robots-automaton: cannot read input file '(<stdin>|[^']*self\.txt)': it is also the output \(stdout\)/m)
        // Nothing was written: appended to, the file is as it was; truncated, it is empty.
        expect(readFileSync(file, 'utf8')).toBe(flags === 'a' ? urls : '')
      }
    }
  })

  it('another file as the output is written as usual', () => {
    const file = tmp.path('in.txt')
    writeFileSync(file, urls)
    const r = runInto(['filter', '--robots', tmp.path('robots.txt'), '--agent', 'bot', file], tmp.path('out.txt'), 'w')
    expect(r.status, r.stderr).toBe(0)
    expect(readFileSync(tmp.path('out.txt'), 'utf8')).toBe(urls)
  })
})
