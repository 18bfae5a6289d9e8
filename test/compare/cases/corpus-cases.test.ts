// --cases corpus: generated from the bundled corpus/, seeded and reproducible.
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { gunzipSync, gzipSync } from 'node:zlib'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { corpusCases } from '../../../src/compare/cases/corpus-cases.js'
import { hostOf, readRobotsDir, readUrlList, wireText } from '../../../src/compare/cases/corpus-files.js'
import { isWellFormed } from '../../../src/compare/case.js'
import { isOddUrl } from '../../../src/compare/categories.js'
import { Oracle } from '../../../src/compare/oracle.js'
import { buildIfStale, ROOT } from '../../support/build.js'

const CORPUS = resolve(__dirname, '../../../corpus')
const options = { robotsDir: join(CORPUS, 'robots'), urlsFile: join(CORPUS, 'urls.txt'), count: 2000, seed: 5, multiAgent: false }
const key = (c: { id: string; agents: readonly string[]; url: string; robots: Uint8Array }) => `${c.id}\t${c.agents.join(',')}\t${c.url}\t${c.robots.length}`

describe('corpus cases', () => {
  const oracle = new Oracle()
  const cases = corpusCases(options, oracle)

  it('are reproducible: the same seed gives the same cases, another seed others', () => {
    expect(cases).toHaveLength(2000)
    expect(corpusCases(options, new Oracle()).map(key)).toEqual(cases.map(key))
    const other = corpusCases({ ...options, seed: 6 }, new Oracle()).map(key)
    expect(other.filter((k, i) => k === key(cases[i])).length).toBeLessThan(200)
  })

  it('spread the count over every file, file by file', () => {
    const files = readRobotsDir(options.robotsDir).files
    const hosts = cases.map((c) => c.id.split('#')[0].slice('corpus:'.length))
    expect(new Set(hosts)).toEqual(new Set(files.map((f) => f.host)))
    expect(hosts).toEqual([...hosts].sort())
    expect(corpusCases({ ...options, count: 5 }, oracle)).toHaveLength(5)
  })

  it('use real URLs, derived and odd URL forms, and several kinds of agent', () => {
    const real = new Set([...readUrlList(options.urlsFile).byHost.values()].flat())
    expect(cases.filter((c) => real.has(c.url)).length).toBeGreaterThan(300)
    expect(cases.filter((c) => isOddUrl(c.url)).length).toBeGreaterThan(100)
    expect(cases.some((c) => c.url === '')).toBe(true)
    expect(cases.some((c) => /%[0-9a-f]{2}/.test(c.url))).toBe(true)
    expect(cases.some((c) => /[^\x00-\x7f]/.test(c.url))).toBe(true)
    expect(cases.some((c) => /index\.html?$/.test(c.url))).toBe(true)
    const agents = cases.map((c) => c.agents[0])
    expect(agents.some((a) => a.includes('/2.1'))).toBe(true)
    expect(agents.some((a) => /\d/.test(a) && !a.includes('/'))).toBe(true)
    expect(agents.some((a) => a === 'bingbot')).toBe(true)
    expect(agents.some((a) => a === 'BINGBOT')).toBe(true)
    expect(cases.every((c) => c.agents.length === 1)).toBe(true)
    const answered = cases.map((c) => oracle.answer(c))
    const tags = new Set(answered.flatMap((c) => c.categories))
    for (const t of ['wildcard', 'end-anchor', 'percent-encoding', 'non-ascii', 'path-case', 'index-html', 'ua-case', 'ua-product-token', 'ua-global-fallback', 'url-forms']) {
      expect(tags.has(t), t).toBe(true)
    }
    expect(answered.filter((c) => !c.expected.allowed).length).toBeGreaterThan(200)
  })

  it('make multi-agent cases only when asked', () => {
    const multi = corpusCases({ ...options, count: 500, multiAgent: true }, oracle)
    expect(multi.filter((c) => c.agents.length === 2).length).toBeGreaterThan(20)
  })

  it('work from a folder without a URL list; an empty folder is an error', () => {
    const dir = mkdtempSync(join(tmpdir(), 'compare-corpus-'))
    try {
      writeFileSync(join(dir, 'example.com'), 'User-agent: *\nDisallow: /*.pdf$\n')
      writeFileSync(join(dir, '.hidden'), 'x')
      mkdirSync(join(dir, 'sub'))
      const cs = corpusCases({ robotsDir: dir, count: 50, seed: 1, multiAgent: false }, oracle)
      expect(cs).toHaveLength(50)
      expect(cs.every((c) => c.id.startsWith('corpus:example.com#'))).toBe(true)
      expect(cs.some((c) => /\.pdf/.test(c.url))).toBe(true)
      rmSync(join(dir, 'example.com'))
      expect(() => corpusCases({ robotsDir: dir, count: 5, seed: 1, multiAgent: false }, oracle)).toThrow(/no robots\.txt files in/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('a folder of folders, or of data files, is refused, naming what it holds; a subfolder beside robots files is named', () => {
    const dir = mkdtempSync(join(tmpdir(), 'compare-corpus-'))
    try {
      // The layout of a corpus checkout: robots/ and urls/ folders, TSV files beside them.
      mkdirSync(join(dir, 'robots'))
      mkdirSync(join(dir, 'urls'))
      writeFileSync(join(dir, 'paired.tsv'), 'https://a.com/x\ta.com\n')
      writeFileSync(join(dir, 'hosts.tsv'), 'a.com\t1\n')
      expect(() => readRobotsDir(dir)).toThrow(
        /no robots\.txt files in '.*': it holds 2 entries that are not files \(robots\/, urls\/\) and 2 files without a robots\.txt directive \(hosts\.tsv, paired\.tsv\)/,
      )
      writeFileSync(join(dir, 'example.com'), 'User-agent: *\nDisallow: /x\n')
      const notes: string[] = []
      const cs = corpusCases({ robotsDir: dir, count: 30, seed: 1, multiAgent: false, onNote: (n) => notes.push(n) }, oracle)
      expect(cs).toHaveLength(30)
      expect(notes).toEqual([
        `--robots-dir: skipped 2 entries of '${dir}' that are not files: robots/, urls/`,
        `--robots-dir: 2 files of '${dir}' hold no robots.txt directive (read as allowing everything): hosts.tsv, paired.tsv`,
      ])
      expect(cs[0].source).toBe(join(dir, 'example.com'))
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('every URL is well-formed Unicode (it has a UTF-8 form), over 100,000 cases: no cut surrogate pair', () => {
    const many = corpusCases({ ...options, count: 100_000, seed: 1 }, new Oracle())
    expect(many).toHaveLength(100_000)
    expect(many.filter((c) => !isWellFormed(c.url)).map((c) => c.id)).toEqual([])
    expect(many.filter((c) => /\p{Extended_Pictographic}/u.test(c.url)).length).toBeGreaterThan(100)
  })

  it('regression: a URL list that is not valid UTF-8 keeps its URLs\' bytes, as %XX escapes (they were read as U+FFFD, other URLs)', () => {
    const b = (...parts: (string | number[])[]): Uint8Array => Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...Buffer.from(p)] : p)))
    expect(wireText(b('/caf\u00e9 /\u65e5 /\u{1f600}'))).toBe('/caf\u00e9 /\u65e5 /\u{1f600}')
    expect(wireText(b('/caf', [0xe9], '/x'))).toBe('/caf%E9/x')
    expect(wireText(b('/a', [0xc0, 0xaf], '/b', [0xed, 0xa0, 0x80], '/c', [0xf4, 0x90, 0x80, 0x80]))).toBe('/a%C0%AF/b%ED%A0%80/c%F4%90%80%80')
    expect(wireText(b([0xe9], '/\u00e9', [0xe6, 0x97], 'x', [0xf0, 0x9f]))).toBe('%E9/\u00e9%E6%97x%F0%9F')
    // A BOM is the caller's to skip; U+FEFF inside the text is kept.
    expect(wireText(b([0xef, 0xbb, 0xbf], 'a', [0xe9], [0xef, 0xbb, 0xbf]))).toBe('\ufeffa%E9\ufeff')
    const dir = mkdtempSync(join(tmpdir(), 'compare-urls-'))
    try {
      const file = join(dir, 'urls.txt')
      writeFileSync(file, b([0xef, 0xbb, 0xbf], 'https://a.example/caf', [0xe9], '\nhttps://a.example/b\n'))
      expect(readUrlList(file).byHost.get('a.example')).toEqual(['https://a.example/caf%E9', 'https://a.example/b'])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('regression: a gzipped URL list (which filter reads) was read as its compressed bytes; it is inflated, within the same limit; the packaged corpus list is the repository\'s', () => {
    const dir = mkdtempSync(join(tmpdir(), 'compare-urls-'))
    try {
      const file = join(dir, 'urls.txt.gz')
      writeFileSync(file, gzipSync(readFileSync(options.urlsFile)))
      expect(readUrlList(file)).toEqual(readUrlList(options.urlsFile))
      // A list that inflates past the limit (256 MiB) is refused, not inflated without end.
      const bomb = join(dir, 'bomb.gz')
      const mib = gzipSync(Buffer.alloc(1 << 20, 0x61))
      writeFileSync(bomb, Buffer.concat(Array.from({ length: 257 }, () => mib)))
      expect(() => readUrlList(bomb)).toThrow(/^cannot read URL list '.*bomb\.gz': larger than 256 MiB once inflated$/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
    buildIfStale()
    expect(gunzipSync(readFileSync(join(ROOT, 'dist/data/corpus-urls.txt.gz')))).toEqual(readFileSync(options.urlsFile))
  })

  it('regression: the --urls-field hint reads a line of 100,000 tabs once (it split it once a field: 200 such lines took hours); the field named is the same', () => {
    const dir = mkdtempSync(join(tmpdir(), 'compare-urls-'))
    try {
      const tabs = join(dir, 'tabs.tsv')
      writeFileSync(tabs, ('x' + '\t'.repeat(100_000) + '\n').repeat(200))
      const t0 = performance.now()
      expect(() => readUrlList(tabs)).toThrow(/200 lines of 200 lines of '.*tabs\.tsv' are not a URL .*"x\\t\\t/)
      expect(performance.now() - t0).toBeLessThan(20_000)
      const hinted = join(dir, 'hint.csv')
      writeFileSync(hinted, 'host,"a, b",url\r\n' + Array.from({ length: 30 }, (_, i) => `h,"x, y",https://a.example/${i}\r\n`).join(''))
      expect(() => readUrlList(hinted)).toThrow(/; it reads as CSV and field 3 holds URLs: give --urls-field 3$/)
      // Past the highest field --urls-field takes, no field is named.
      const far = join(dir, 'far.tsv')
      writeFileSync(far, Array.from({ length: 5 }, (_, i) => 'x\t'.repeat(1000) + `https://a.example/${i}\n`).join(''))
      expect(() => readUrlList(far)).toThrow(/are not a URL .*…"$/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('hostOf reads the host of absolute URLs only', () => {
    expect(hostOf('https://user:pw@Example.COM:8080/x')).toBe('example.com')
    expect(hostOf('http://[::1]:80/')).toBe('[::1]')
    expect(hostOf('/path')).toBe('')
  })
})
