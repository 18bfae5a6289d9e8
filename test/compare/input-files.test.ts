// compare's input files read whole or by line (case files, a case's robots_path,
// URL lists, matrix files, baselines, reports, .textproto files): a device, a
// directory, a FIFO where a file is meant, a line or a file past its limit is a
// coded error naming it, never memory taken without end or a hang.
import { execFileSync, spawn } from 'node:child_process'
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readJsonlCases } from '../../src/compare/cases/jsonl-cases.js'
import { readRobotsDir, robotsDirNotes } from '../../src/compare/cases/corpus-files.js'
import { findTextprotoFiles, parseTextFormat, specTestDirCases } from '../../src/compare/cases/spec-test.js'
import { readInputFile } from '../../src/compare/input-file.js'
import { ensureBuilt, run, tempDir } from '../cli/helpers.js'

let tmp: ReturnType<typeof tempDir>
const ALLOW_ALL = 'node examples/adapters/allow-all-batch.mjs'

beforeAll(() => {
  ensureBuilt()
  tmp = tempDir()
})
afterAll(() => tmp?.cleanup())

const caseFile = (name: string, robotsPath: string): string => {
  writeFileSync(tmp.path(name), JSON.stringify({ robots_path: robotsPath, agent: 'a', url: '/' }) + '\n')
  return tmp.path(name)
}

describe('compare input files', () => {
  it('robots-dir names that are not UTF-8: skipped and named with \\xHH escapes (the name read back with U+FFFD stopped the run: no such file or directory)', () => {
    const dir = tmp.path('latin1-names')
    mkdirSync(dir)
    writeFileSync(Buffer.concat([Buffer.from(`${dir}/a`), Buffer.from([0xff]), Buffer.from('b.example')]), 'User-agent: *\nDisallow: /p\n')
    expect(() => readRobotsDir(dir)).toThrow(/no robots\.txt files in '.*latin1-names': it holds 1 name that is not UTF-8 \(a\\xffb\.example\)/)
    writeFileSync(`${dir}/ok.example`, 'User-agent: *\nDisallow: /p\n')
    const read = readRobotsDir(dir)
    expect(read.files.map((f) => f.host)).toEqual(['ok.example'])
    expect(robotsDirNotes(dir, read)).toEqual([`--robots-dir: skipped 1 file of '${dir}' whose name is not UTF-8, so no host's: a\\xffb.example`])
    // A spec-test folder: a .textproto file or a folder so named is an error naming it (it said 'no such file or directory').
    const st = tmp.path('latin1-spec')
    mkdirSync(st)
    writeFileSync(`${st}/ok.textproto`, '')
    writeFileSync(`${st}/other.txt`, '')
    writeFileSync(Buffer.concat([Buffer.from(`${st}/n`), Buffer.from([0xfe]), Buffer.from('.txt')]), '')
    expect(findTextprotoFiles(st)).toEqual([`${st}/ok.textproto`])
    writeFileSync(Buffer.concat([Buffer.from(`${st}/x`), Buffer.from([0xff]), Buffer.from('.textproto')]), '')
    expect(() => findTextprotoFiles(st)).toThrow(`cannot read '${st}/x\\xff.textproto': its name is not UTF-8; rename it`)
  })

  it('a robots_path naming /dev/zero is refused, not read until the memory runs out', async () => {
    await expect(readJsonlCases(caseFile('zero.jsonl', '/dev/zero'))).rejects.toThrow(/zero\.jsonl:1: cannot read robots_path '\/dev\/zero': is a device, not a file/)
  })

  it('a robots_path naming a FIFO, a folder or a file past 64 MiB is refused at once (a FIFO held the run until a writer came)', async () => {
    execFileSync('mkfifo', [tmp.path('fifo')])
    await expect(readJsonlCases(caseFile('fifo.jsonl', 'fifo'))).rejects.toThrow(/cannot read robots_path 'fifo': not a regular file/)
    mkdirSync(tmp.path('dir'))
    await expect(readJsonlCases(caseFile('dir.jsonl', 'dir'))).rejects.toThrow(/cannot read robots_path 'dir': is a directory/)
    writeFileSync(tmp.path('big.txt'), Buffer.alloc((64 << 20) + 1, 0x61))
    await expect(readJsonlCases(caseFile('big.jsonl', 'big.txt'))).rejects.toThrow(/cannot read robots_path 'big.txt': larger than 64 MiB/)
    writeFileSync(tmp.path('edge.txt'), Buffer.alloc(64 << 20, 0x61))
    const [c] = await readJsonlCases(caseFile('edge.jsonl', 'edge.txt'))
    expect(c.robots.length).toBe(64 << 20)
  })

  it('a case file that is one endless line (/dev/zero) is a coded error naming the line, not a crash of the line reader', async () => {
    const r = await run(['compare', '--cases', '/dev/zero', '--batch', ALLOW_ALL, '-q'])
    expect(r.status).toBe(1)
    expect(r.stderr).toBe('robots-automaton: /dev/zero:1: a line longer than 64 MiB\n')
    await expect(readJsonlCases('/dev/zero')).rejects.toMatchObject({ code: 'ERR_READ' })
  })

  it('a line past the limit after good lines names its line number', async () => {
    const good = JSON.stringify({ robots: '', agent: 'a', url: '/' })
    writeFileSync(tmp.path('long.jsonl'), `${good}\n${good}\r\n{"robots":"${'a'.repeat((64 << 20) + 10)}`)
    await expect(readJsonlCases(tmp.path('long.jsonl'))).rejects.toThrow(/long\.jsonl:3: a line longer than 64 MiB/)
  })

  it('a device as --urls, --matrix, --baseline or --diff is refused by name (--urls /dev/zero took memory without end)', async () => {
    writeFileSync(tmp.path('ok.jsonl'), JSON.stringify({ robots: '', agent: 'a', url: '/' }) + '\n')
    const urls = await run(['compare', '--cases', 'corpus', '--robots-dir', 'corpus/robots', '--urls', '/dev/zero', '--batch', ALLOW_ALL, '-q'])
    expect([urls.status, urls.stderr]).toEqual([1, "robots-automaton: cannot read URL list '/dev/zero': is a device, not a file\n"])
    const matrix = await run(['compare', '--matrix', '/dev/zero'])
    expect([matrix.status, matrix.stderr]).toEqual([1, "robots-automaton: cannot read matrix file '/dev/zero': is a device, not a file\n"])
    const baseline = await run(['compare', '--cases', tmp.path('ok.jsonl'), '--batch', ALLOW_ALL, '--baseline', '/dev/zero', '-q'])
    expect([baseline.status, baseline.stderr]).toEqual([1, "robots-automaton: cannot read baseline '/dev/zero': is a device, not a file\n"])
    const diff = await run(['compare', '--diff', '/dev/zero', tmp.path('ok.jsonl')])
    expect([diff.status, diff.stderr]).toEqual([1, "robots-automaton: cannot read report '/dev/zero': is a device, not a file\n"])
  })

  it('a URL list through a FIFO (process substitution) is read as before', async () => {
    execFileSync('mkfifo', [tmp.path('urls.fifo')])
    const writer = spawn('sh', ['-c', `cat corpus/urls.txt > '${tmp.path('urls.fifo')}'`], { stdio: 'ignore' })
    const r = await run(['compare', '--cases', 'corpus', '--robots-dir', 'corpus/robots', '--urls', tmp.path('urls.fifo'), '--batch', ALLOW_ALL, '--count', '5', '-q', '--json', '-'])
    writer.kill()
    expect(r.stderr).toBe('')
    expect(JSON.parse(r.stdout.toString()).totals.cases).toBe(5)
  })

  it('readInputFile: the limit itself is read, one byte more is refused', () => {
    writeFileSync(tmp.path('ten'), '0123456789')
    expect(readInputFile(tmp.path('ten'), 'x', { limit: 10 }).toString()).toBe('0123456789')
    expect(() => readInputFile(tmp.path('ten'), 'x', { limit: 9 }, 'ten')).toThrow("cannot read x 'ten': larger than 9 bytes")
  })

  it('a .textproto file that is a link to a device is refused; messages nested past 100 are a coded error, not a stack overflow', () => {
    mkdirSync(tmp.path('spec'))
    symlinkSync('/dev/zero', tmp.path('spec/z.textproto'))
    expect(() => specTestDirCases(tmp.path('spec'))).toThrow(/cannot read spec-test file '.*z\.textproto': is a device, not a file/)
    const deep = (n: number): Uint8Array => new Uint8Array(Buffer.from('a {'.repeat(n) + '}'.repeat(n)))
    expect(() => parseTextFormat(deep(200_000), 'deep.textproto')).toThrow('deep.textproto:1:304: messages nested deeper than 100')
    expect(() => parseTextFormat(deep(101), 'deep.textproto')).toThrow(/nested deeper than 100/)
    expect(parseTextFormat(deep(100)).get('a')).toHaveLength(1)
  })
})
