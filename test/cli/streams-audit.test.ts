/**
 * Regressions of an audit of every command's files and streams: each test
 * is named after what went wrong, and runs the built CLI.
 */
import { spawnSync } from 'node:child_process'
import { truncateSync, writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { describeSystemError } from '../../src/node.js'
import { openInput, resolveInputs } from '../../src/cli/filter/input.js'
import { CLI, ensureBuilt, run, tempDir } from './helpers.js'

let tmp: ReturnType<typeof tempDir>
beforeAll(() => {
  ensureBuilt()
  tmp = tempDir()
  writeFileSync(tmp.path('robots.txt'), 'User-agent: *\nDisallow: /private\n')
  writeFileSync(tmp.path('urls.txt'), 'https://a.test/private\nhttps://a.test/public\n')
})
afterAll(() => tmp?.cleanup())

/** Runs the CLI with `input` on a pipe as its stdin (`printf … | robots-automaton …`: a pipe, not the socket spawn gives), which /dev/stdin opens. */
function runPiped(args: readonly string[], input: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync('sh', ['-c', 'printf "%s" "$IN" | "$0" "$@"', process.execPath, CLI, ...args], { env: { ...process.env, IN: input }, encoding: 'utf8', timeout: 30_000 })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

describe('stdin read once', () => {
  const crawlers = 'GPTBot\nCCBot\n'

  it.skipIf(process.platform === 'win32')('--crawlers @/dev/stdin took the pipe the URL list was to be read from: filter, check and diff judged nothing and ended 0; it is refused before any work', () => {
    const robots = tmp.path('robots.txt')
    for (const args of [
      ['filter', '--robots', robots, '--crawlers', '@/dev/stdin'],
      ['check', robots, '--crawlers', '@/dev/stdin'],
      ['diff', robots, robots, '--crawlers', '@/dev/stdin'],
      ['audit', '--fetch', '--crawlers', '@/dev/stdin'],
    ]) {
      const r = runPiped(args, crawlers)
      expect([r.status, r.stdout, r.stderr], args.join(' ')).toEqual([
        2,
        '',
        `robots-automaton: ${args[0]}: '--crawlers @/dev/stdin' reads stdin, so the URL list cannot: name a file for one of them (see 'robots-automaton ${args[0]} --help')\n`,
      ])
    }
  })

  it.skipIf(process.platform === 'win32')('--crawlers @/dev/stdin beside --robots /dev/stdin left the robots.txt empty (every URL allowed); it is refused, and @/dev/stdin with the URLs in a file still works', () => {
    const r = runPiped(['filter', '--robots', '/dev/stdin', '--crawlers', '@/dev/stdin', '--print', 'verdicts', tmp.path('urls.txt')], crawlers)
    expect([r.status, r.stdout]).toEqual([2, ''])
    expect(r.stderr).toBe("robots-automaton: filter: '--crawlers @/dev/stdin' reads stdin, so the robots.txt '/dev/stdin' cannot: name a file for one of them (see 'robots-automaton filter --help')\n")
    const twice = runPiped(['filter', '--robots', tmp.path('robots.txt'), '--crawlers', '@/dev/stdin', '--crawlers', '@/dev/fd/0', tmp.path('urls.txt')], crawlers)
    expect([twice.status, twice.stdout]).toEqual([2, ''])
    const ok = runPiped(['filter', '--robots', tmp.path('robots.txt'), '--crawlers', '@/dev/stdin', '--print', 'verdicts', '-q', tmp.path('urls.txt')], crawlers)
    expect([ok.status, ok.stdout, ok.stderr]).toEqual([0, 'disallowed\tdisallowed\thttps://a.test/private\nallowed\tallowed\thttps://a.test/public\n', ''])
  })
})

describe('system errors in plain words', () => {
  it.skipIf(process.platform !== 'linux')('a system error the CLI had no words for was shown as Node words it (ENXIO: no such device or address, open …); /dev/stdin on a socket is now named in plain words, and so are EROFS, EDQUOT, ENFILE and EBADF', async () => {
    // spawn's stdin is a socket, which /dev/stdin cannot open (ENXIO).
    const r = await run(['filter', '--robots', tmp.path('robots.txt'), '--crawlers', '@/dev/stdin', tmp.path('urls.txt')], { input: 'GPTBot\n' })
    expect([r.status, r.stdout.toString(), r.stderr]).toEqual([1, '', "robots-automaton: cannot read crawler list '/dev/stdin': no such device or address\n"])
    const words = (code: string) => describeSystemError(Object.assign(new Error(`${code}: raw, open '/x'`), { code }))
    expect(['EROFS', 'EDQUOT', 'ENFILE', 'EBADF'].map(words)).toEqual(['read-only file system', 'disk quota exceeded', 'too many open files in the system', 'bad file descriptor'])
  })
})

describe('an input file cut while it is read', () => {
  it('a URL list truncated by another program while filter read it (a log rotated with copytruncate) ended the run 0 with its later lines never read; the end of such a file is now a read error (exit 1) after the lines read', async () => {
    const path = tmp.path('rotated.log')
    writeFileSync(path, 'https://a.test/x\n'.repeat(10_000))
    const [input] = await resolveInputs([path])
    const reader = await openInput(input, { bytes: 0 })
    const buffer = new Uint8Array(4096)
    expect(await reader.readInto(buffer, 0, buffer.length)).toBe(4096)
    truncateSync(path, 0)
    const drain = async () => {
      while ((await reader.readInto(buffer, 0, buffer.length)) > 0);
    }
    await expect(drain()).rejects.toThrow(
      `cannot read input file '${path}': it was cut short while it was read (170000 bytes when opened, 0 at the end: truncated by another program?); the lines past the cut were not read`,
    )
    await reader.close()
    // A file that grows while it is read (a log written to) is read to its end, as before.
    writeFileSync(path, 'https://a.test/x\n')
    const [grown] = await resolveInputs([path])
    const appending = await openInput(grown, { bytes: 0 })
    writeFileSync(path, 'https://a.test/x\nhttps://a.test/y\n')
    let total = 0
    for (let n; (n = await appending.readInto(buffer, 0, buffer.length)) > 0; ) total += n
    expect(total).toBe(34)
    await appending.close()
  })
})
