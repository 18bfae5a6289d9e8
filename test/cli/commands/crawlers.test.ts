/**
 * `--crawlers` on `check`, `filter` and `diff`: for every crawler of a set,
 * its verdict and line are those of a one-crawler run (`--agent`, its
 * tokens), for one robots.txt, per host (directory, bundle), with worker
 * threads; the columns, JSON members and `--require` selections; the
 * crawler list's syntax (`A+B`, `@FILE`) and its usage errors.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, ROOT, run, tempDir } from '../helpers.js'
import { runInProcess } from '../in-process.js'

const EIGHT = ['GPTBot', 'CCBot', 'ClaudeBot', 'Google-Extended', 'Applebot-Extended', 'Bytespider', 'PerplexityBot', 'Googlebot']
/** Crawlers that share tokens, a crawler of two tokens, and tokens no file names. */
const MIXED = ['Googlebot', 'Googlebot-Image+Googlebot', 'bingbot', 'MJ12bot', 'Slurp', 'FooBot+Googlebot-Image', 'Yandex', 'baiduspider']

const ROBOTS_DIR = join(ROOT, 'corpus/robots')
let tmp: ReturnType<typeof tempDir>
let urls: string
let bundle: string
let bigUrls: string

const lines = (b: Buffer): string[] => b.toString('utf8').split('\n').filter((l) => l !== '')
const tokensOf = (c: string): string[] => c.split('+').flatMap((t) => ['--agent', t])

beforeAll(async () => {
  ensureBuilt()
  tmp = tempDir()
  urls = join(ROOT, 'corpus/urls.txt')
  bundle = tmp.path('corpus.bundle')
  const packed = await run(['pack', ROBOTS_DIR, '-o', bundle, '-q'])
  expect(packed.status, packed.stderr).toBe(0)
  // Several blocks, so that --jobs 2 hands blocks to a worker thread.
  bigUrls = tmp.path('big.txt')
  writeFileSync(bigUrls, readFileSync(urls, 'utf8').repeat(12))
})

afterAll(() => tmp.cleanup())

/** One-crawler columns already run, by their command line: a crawler in several sets is run alone once. */
const aloneRuns = new Map<string, string[]>()

/**
 * Each crawler's verdict column of `filter --print verdicts` with one --agent run: allowed/disallowed per line.
 * The one-crawler runs are the oracle, run in this process (one thread); the runs with `--crawlers` are `dist/cli.js`'s.
 */
async function aloneColumns(rules: string[], crawlers: readonly string[], input: string): Promise<string[][]> {
  const out: string[][] = []
  for (const c of crawlers) {
    const args = ['filter', ...rules, ...tokensOf(c), '--print', 'verdicts', '-q', '--jobs', '1', input]
    let column = aloneRuns.get(JSON.stringify(args))
    if (column === undefined) {
      const r = await runInProcess(args)
      expect(r.status, r.stderr).toBe(0)
      column = lines(r.stdout).map((l) => l.split('\t')[0])
      aloneRuns.set(JSON.stringify(args), column)
    }
    out.push(column)
  }
  return out
}

describe('filter --crawlers: each crawler as its own --agent run', () => {
  for (const [name, rules] of [
    ['--robots-dir', ['--robots-dir', ROBOTS_DIR]],
    ['--bundle', () => ['--bundle', bundle]],
    ['--robots', ['--robots', join(ROBOTS_DIR, 'www.abebooks.com')]],
  ] as const) {
    it(`${name}: --print verdicts, a column per crawler in the order given, then the line`, async () => {
      const r = typeof rules === 'function' ? rules() : [...rules]
      for (const crawlers of [EIGHT, MIXED, ['Googlebot']]) {
        const set = await run(['filter', ...r, '--crawlers', crawlers.join(','), '--print', 'verdicts', '-q', urls])
        expect(set.status, set.stderr).toBe(0)
        const rows = lines(set.stdout).map((l) => l.split('\t'))
        const want = await aloneColumns(r, crawlers, urls)
        const input = lines(readFileSync(urls))
        expect(rows.length).toBe(input.length)
        // One comparison per column (the first differing line named), not an expect per line and crawler.
        const column = (k: number): string[] => rows.map((row) => (k < 0 ? row.slice(crawlers.length).join('\t') : row[k]!))
        const firstDiff = (got: string[], wanted: readonly string[]): string | undefined => {
          const i = got.findIndex((g, n) => g !== wanted[n])
          return i < 0 ? undefined : `line ${i + 1}: ${got[i]} against ${wanted[i]}`
        }
        expect(firstDiff(column(-1), input)).toBeUndefined()
        crawlers.forEach((c, k) => expect(firstDiff(column(k), want[k]!), c).toBeUndefined())
      }
    }, 300_000)
  }

  it('--format jsonl: "crawlers" holds each one\'s verdict, line and rule, as its --agent record; worker threads write the same bytes', async () => {
    const r = ['--robots-dir', ROBOTS_DIR]
    const set = await run(['filter', ...r, '--crawlers', MIXED.join(','), '--format', 'jsonl', '-q', '--jobs', '1', bigUrls])
    expect(set.status, set.stderr).toBe(0)
    const threads = await run(['filter', ...r, '--crawlers', MIXED.join(','), '--format', 'jsonl', '-q', '--jobs', '2', bigUrls])
    expect(threads.stdout.equals(set.stdout)).toBe(true)
    const records = lines(set.stdout).map((l) => JSON.parse(l) as { url: string; allowed: boolean; crawlers: Record<string, { allowed: boolean; line: number; rule: unknown }>; host: string; source: string; input_line: number })
    // Compared as one JSON text per crawler (the first differing line named), not an expect per line and crawler.
    const firstDiff = (got: string[], want: string[]): string | undefined => {
      const i = got.findIndex((g, n) => g !== want[n])
      return i < 0 ? undefined : `line ${i + 1}: ${got[i]} against ${want[i]}`
    }
    const keys = JSON.stringify(MIXED)
    expect(firstDiff(records.map((got) => JSON.stringify(Object.keys(got.crawlers))), records.map(() => keys))).toBeUndefined()
    const all = records.map((got) => JSON.stringify(got.allowed))
    expect(firstDiff(all, records.map((got) => JSON.stringify(MIXED.every((x) => got.crawlers[x].allowed))))).toBeUndefined()
    for (const c of MIXED) {
      const alone = await runInProcess(['filter', ...r, ...tokensOf(c), '--format', 'jsonl', '-q', '--jobs', '1', bigUrls])
      const one = lines(alone.stdout).map((l) => JSON.parse(l) as { allowed: boolean; line: number; rule: unknown; host: string; source: string; input_line: number })
      expect(one.length).toBe(records.length)
      const got = records.map((g) => JSON.stringify([g.crawlers[c], g.host, g.source, g.input_line]))
      const want = one.map((o) => JSON.stringify([{ allowed: o.allowed, line: o.line, rule: o.rule }, o.host, o.source, o.input_line]))
      expect(firstDiff(got, want), c).toBeUndefined()
    }
  }, 300_000)

  it('--require all|any with --print allowed|disallowed: the lines every (some) crawler may (may not) fetch; the same with worker threads', async () => {
    const r = ['--robots-dir', ROBOTS_DIR]
    const input = lines(readFileSync(bigUrls))
    const want = await aloneColumns(r, EIGHT, bigUrls)
    const allowed = (i: number): boolean[] => want.map((col) => col[i] === 'allowed')
    const cases: [string, string, (a: boolean[]) => boolean][] = [
      ['allowed', 'all', (a) => a.every(Boolean)],
      ['allowed', 'any', (a) => a.some(Boolean)],
      ['disallowed', 'all', (a) => a.every((x) => !x)],
      ['disallowed', 'any', (a) => a.some((x) => !x)],
    ]
    for (const [print, require, pick] of cases) {
      const expected = input.filter((_l, i) => pick(allowed(i)))
      for (const jobs of ['1', '2']) {
        const got = await run(['filter', ...r, '--crawlers', EIGHT.join(','), '--print', print, '--require', require, '--jobs', jobs, bigUrls])
        expect(got.status, got.stderr).toBe(0)
        expect(lines(got.stdout), `${print} ${require} --jobs ${jobs}`).toEqual(expected)
        // The summary counts the lines selected and each crawler's allowed lines.
        const perCrawler = EIGHT.map((c, k) => `${c} ${want[k].filter((v) => v === 'allowed').length.toLocaleString('en-US')}`).join(', ')
        expect(got.stderr).toContain(`allowed per crawler: ${perCrawler}`)
      }
    }
  }, 300_000)

  it('a line without a URL: every column invalid (kept), "crawlers": null in JSON', async () => {
    const robots = tmp.path('r.txt')
    writeFileSync(robots, 'User-agent: GPTBot\nDisallow: /\n')
    const input = '/a\n\nhttps://e.com/b\n'
    const v = await run(['filter', '--robots', robots, '--crawlers', 'GPTBot,CCBot', '--print', 'verdicts', '-q', '-'], { input })
    expect(v.stdout.toString()).toBe('disallowed\tallowed\t/a\ninvalid\tinvalid\t\ndisallowed\tallowed\thttps://e.com/b\n')
    const j = await run(['filter', '--robots', robots, '--crawlers', 'GPTBot,CCBot', '--format', 'jsonl', '-q', '-'], { input })
    const records = lines(j.stdout).map((l) => JSON.parse(l))
    expect(records[1]).toMatchObject({ allowed: null, reason: 'empty', crawlers: null })
    expect(records[0].crawlers).toEqual({ GPTBot: { allowed: false, line: 2, rule: { kind: 'disallow', pattern: '/' } }, CCBot: { allowed: true, line: 0, rule: null } })
  })
})

describe('check --crawlers and diff --crawlers: each crawler as its own --agent run', () => {
  it('check: a line per URL and crawler with its rule as --agent writes it; JSON "crawlers" in the order given', async () => {
    const robots = join(ROBOTS_DIR, 'www.abebooks.com')
    const input = readFileSync(urls, 'utf8').split('\n').slice(0, 300).join('\n')
    const set = await run(['check', robots, '--crawlers', MIXED.join(','), '-q'], { input })
    expect(set.status, set.stderr).toBe(0)
    const rows = lines(set.stdout).map((l) => l.split('\t'))
    const json = await run(['check', robots, '--crawlers', MIXED.join(','), '--json', '-q'], { input })
    const records = lines(json.stdout).map((l) => JSON.parse(l))
    for (const [k, c] of MIXED.entries()) {
      const one = lines((await run(['check', robots, ...tokensOf(c), '-q'], { input })).stdout).map((l) => l.split('\t'))
      const oneJson = lines((await run(['check', robots, ...tokensOf(c), '--json', '-q'], { input })).stdout).map((l) => JSON.parse(l))
      one.forEach(([verdict, url, rule], i) => {
        expect(rows[i * MIXED.length + k]).toEqual([verdict, c, url, rule])
        expect(records[i].crawlers[c]).toEqual({ allowed: oneJson[i].allowed, line: oneJson[i].rule?.line ?? 0, rule: oneJson[i].rule })
      })
    }
    expect(Object.keys(records[0].crawlers)).toEqual(MIXED)
  })

  it('check --exit-code and --require: 3 when a URL is not allowed for every crawler (all), or for none (any)', async () => {
    const robots = tmp.path('gpt.txt')
    writeFileSync(robots, 'User-agent: GPTBot\nDisallow: /\n')
    expect((await run(['check', robots, '--crawlers', 'GPTBot,CCBot', '--exit-code', '-q', '/x'])).status).toBe(3)
    expect((await run(['check', robots, '--crawlers', 'GPTBot,CCBot', '--require', 'any', '--exit-code', '-q', '/x'])).status).toBe(0)
    expect((await run(['check', robots, '--crawlers', 'GPTBot', '--require', 'any', '--exit-code', '-q', '/x'])).status).toBe(3)
  })

  it('diff: a line per URL and crawler whose verdict changes, as each --agent diff reports it; JSON per URL', async () => {
    const old = join(ROBOTS_DIR, 'www.abebooks.com')
    const edited = tmp.path('abebooks.new')
    writeFileSync(edited, readFileSync(old, 'utf8').replace(/^User-agent: \*\n/m, 'User-agent: *\nDisallow: /servlet/\n').replace(/^User-agent: Googlebot\n/m, 'User-agent: Googlebot\nDisallow: /\n'))
    const set = await run(['diff', old, edited, '--crawlers', MIXED.join(','), '-q', urls])
    expect(set.status).toBe(3)
    const json = await run(['diff', old, edited, '--crawlers', MIXED.join(','), '--format', 'jsonl', '-q', urls])
    const records = lines(json.stdout).map((l) => JSON.parse(l))
    const want: string[] = []
    const byUrl = new Map<string, Record<string, unknown>>()
    for (const c of MIXED) {
      const one = await run(['diff', old, edited, ...tokensOf(c), '-q', urls])
      for (const l of lines(one.stdout)) {
        const [change, url, a, b] = l.split('\t')
        want.push([change, c, url, a, b].join('\t'))
      }
      const oneJson = await run(['diff', old, edited, ...tokensOf(c), '--format', 'jsonl', '-q', urls])
      for (const r of lines(oneJson.stdout).map((l) => JSON.parse(l))) byUrl.set(`${c} ${r.input_line}`, r)
    }
    expect(lines(set.stdout).sort()).toEqual(want.sort())
    expect(want.length).toBeGreaterThan(10)
    for (const r of records) {
      expect(Object.keys(r.crawlers)).toEqual(MIXED)
      for (const c of MIXED) {
        const one = byUrl.get(`${c} ${r.input_line}`)
        if (r.crawlers[c].change === null) expect(one).toBeUndefined()
        else expect({ change: r.crawlers[c].change, old: r.crawlers[c].old, new: r.crawlers[c].new }).toEqual({ change: one!.change, old: one!.old, new: one!.new })
      }
    }
  })

  it('diff per host (two bundles) with --crawlers: each crawler as its --agent run', async () => {
    const dir = tmp.path('robots-new')
    const { cpSync } = await import('node:fs')
    cpSync(ROBOTS_DIR, dir, { recursive: true, dereference: true })
    const file = join(dir, 'www.abebooks.com')
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^User-agent: Googlebot\n/m, 'User-agent: Googlebot\nDisallow: /\n'))
    const newBundle = tmp.path('new.bundle')
    expect((await run(['pack', dir, '-o', newBundle, '-q'])).status).toBe(0)
    const set = await run(['diff', '--bundle', bundle, '--bundle', newBundle, '--crawlers', 'Googlebot,GPTBot,Googlebot-Image+Googlebot', '-q', urls])
    const want: string[] = []
    for (const c of ['Googlebot', 'GPTBot', 'Googlebot-Image+Googlebot']) {
      const one = await run(['diff', '--bundle', bundle, '--bundle', newBundle, ...tokensOf(c), '-q', urls])
      for (const l of lines(one.stdout)) {
        const [change, url, a, b] = l.split('\t')
        want.push([change, c, url, a, b].join('\t'))
      }
    }
    expect(want.length).toBeGreaterThan(0)
    expect(lines(set.stdout).sort()).toEqual(want.sort())
  })
})

describe('the crawler list: syntax and usage errors', () => {
  it('@FILE: one crawler a line, A+B one crawler of two tokens, comments and blank lines skipped; mixed with a list', async () => {
    const list = tmp.path('crawlers.txt')
    writeFileSync(list, '# AI crawlers\r\nGPTBot\n\n  Googlebot-Image + Googlebot  # both tokens\nCCBot\n')
    const robots = tmp.path('r2.txt')
    writeFileSync(robots, 'User-agent: Googlebot-Image\nDisallow: /img\n\nUser-agent: CCBot\nDisallow: /\n')
    const r = await run(['check', robots, '--crawlers', `@${list}`, '--crawlers', 'Bingbot', '-q', '/img/a'])
    expect(r.status, r.stderr).toBe(0)
    expect(lines(r.stdout)).toEqual([
      'allowed\tGPTBot\t/img/a\tno matching rule',
      'disallowed\tGooglebot-Image+Googlebot\t/img/a\tline 2: Disallow: /img',
      'disallowed\tCCBot\t/img/a\tline 5: Disallow: /',
      'allowed\tBingbot\t/img/a\tno matching rule',
    ])
  })

  const usage: [string, string[], RegExp][] = [
    ['--agent and --crawlers together', ['--agent', 'A', '--crawlers', 'B'], /'--agent' and '--crawlers' cannot go together/],
    ['--require without --crawlers', ['--agent', 'A', '--require', 'any'], /'--require' applies only with '--crawlers'/],
    ['neither --agent nor --crawlers', [], /option '--agent' is required \(one crawler; or '--crawlers A,B' for several\)/],
    ['an empty crawler', ['--crawlers', 'A,,B'], /has an empty crawler/],
    ['an empty token', ['--crawlers', 'A+'], /has an empty token/],
    ['a crawler named twice', ['--crawlers', 'A,B', '--crawlers', 'A'], /names 'A' twice/],
    ['a crawler named twice in another case or token order (GPTBot and gptbot were two columns of one crawler)', ['--crawlers', 'GPTBot,A+B', '--crawlers', 'b+a'], /names one crawler twice: 'A\+B' and 'b\+a'/],
    ['a crawler named twice in another case', ['--crawlers', 'GPTBot,gptbot'], /names one crawler twice: 'GPTBot' and 'gptbot'/],
    ['a list file that does not exist', ['--crawlers', '@/nonexistent/list.txt'], /cannot read crawler list/],
    ['--require of another value', ['--crawlers', 'A', '--require', 'most'], /must be one of all, any/],
  ]
  for (const [name, args, message] of usage) {
    it(`${name}: a usage error on check, filter and diff`, async () => {
      const robots = join(ROBOTS_DIR, 'www.abebooks.com')
      // diff takes no --require (each crawler's change is its own): there it is an unknown option.
      const commands = [['check', robots, '/x'], ['filter', '--robots', robots, urls], ...(args.includes('--require') ? [] : [['diff', robots, robots, urls]])]
      for (const command of commands) {
        const r = await runInProcess([...command, ...args])
        const status = name === 'a list file that does not exist' ? 1 : 2
        expect(r.status, `${command[0]}: ${r.stderr}`).toBe(status)
        expect(r.stderr).toMatch(message)
      }
    })
  }

  it('an empty list file is a usage error; a token that is no product token is warned about, as for --agent', async () => {
    const empty = tmp.path('empty.txt')
    writeFileSync(empty, '# nothing\n\n')
    const robots = join(ROBOTS_DIR, 'www.abebooks.com')
    const r = await run(['check', robots, '--crawlers', `@${empty}`, '/x'])
    expect(r.status).toBe(2)
    expect(r.stderr).toContain('no crawler in the file')
    const w = await run(['check', robots, '--crawlers', 'GPTBot,MyBot/1.0', '/x'])
    expect(w.status).toBe(0)
    expect(w.stderr).toContain(`--crawlers 'MyBot/1.0': 'MyBot/1.0' is not a product token`)
  })

  it('a crawler of a product token and one that is not: the warning does not claim only the * groups apply', async () => {
    const robots = tmp.path('r-named.txt')
    writeFileSync(robots, 'User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n')
    const r = await run(['check', robots, '--crawlers', 'GPTBot+MyBot/1.0,Bot/1+X/2', '/x'])
    expect(r.status, r.stderr).toBe(0)
    // GPTBot's group decides for GPTBot+MyBot/1.0, as --agent GPTBot --agent MyBot/1.0 says.
    expect(lines(r.stdout)[0]).toBe('disallowed\tGPTBot+MyBot/1.0\t/x\tline 2: Disallow: /')
    expect(r.stderr).toContain(`warning: --crawlers 'GPTBot+MyBot/1.0': 'MyBot/1.0' is not a product token ([A-Za-z_-]+), so it matches no User-agent line\n`)
    expect(r.stderr).not.toMatch(/'MyBot\/1\.0'[^\n]*only '\*' groups apply/)
    // No token of Bot/1+X/2 names a group: the * groups do apply.
    expect(r.stderr).toContain(`--crawlers 'Bot/1+X/2': 'X/2' is not a product token ([A-Za-z_-]+), so it matches no User-agent line; only '*' groups apply`)
  })

  it("warning of a name holding $' or $&: the name is quoted as written, the warning not rewritten around it", async () => {
    const robots = tmp.path('r-dollar.txt')
    writeFileSync(robots, 'User-agent: *\nDisallow: /\n')
    const r = await run(['check', robots, '--crawlers', "A$'B,C$&D,E$`F+G$$H", '/x'])
    expect(r.status, r.stderr).toBe(0)
    const warnings = r.stderr.toString().split('\n').filter((l) => l.includes('warning'))
    const tail = `is not a product token ([A-Za-z_-]+), so it matches no User-agent line; only '*' groups apply`
    expect(warnings).toEqual([
      `robots-automaton: warning: --crawlers 'A$'B': 'A$'B' ${tail}`,
      `robots-automaton: warning: --crawlers 'C$&D': 'C$&D' ${tail}`,
      `robots-automaton: warning: --crawlers 'E$\`F+G$$H': 'E$\`F' ${tail}`,
      `robots-automaton: warning: --crawlers 'E$\`F+G$$H': 'G$$H' ${tail}`,
    ])
  })

  it('names are trimmed of ASCII blanks only: a no-break space stays the token\'s, as --agent keeps it; a @FILE name not UTF-8 is refused, a BOM and a comment in Latin-1 are not', async () => {
    const robots = tmp.path('r-nbsp.txt')
    writeFileSync(robots, 'User-agent: GPTBot\nDisallow: /\n')
    const agent = await run(['check', robots, '--agent', 'GPTBot\u00a0', '-q', '/x'])
    const set = await run(['check', robots, '--crawlers', 'GPTBot\u00a0, CCBot ', '-q', '/x'])
    expect(set.status, set.stderr).toBe(0)
    expect(lines(agent.stdout)).toEqual(['allowed\t/x\tno matching rule'])
    expect(lines(set.stdout)).toEqual(['allowed\tGPTBot\u00a0\t/x\tno matching rule', 'allowed\tCCBot\t/x\tno matching rule'])
    const latin = tmp.path('latin1.txt')
    // A BOM opens the file, and another file concatenated to it.
    writeFileSync(latin, Buffer.from('\xef\xbb\xbf# Crawler f\xfcr KI\r\nGPTBot # \xe9t\xe9\r\n\xef\xbb\xbfCCBot\n', 'latin1'))
    const ok = await run(['check', robots, '--crawlers', `@${latin}`, '/x'])
    expect(ok.status, ok.stderr).toBe(0)
    expect(lines(ok.stdout)).toEqual(['disallowed\tGPTBot\t/x\tline 2: Disallow: /', 'allowed\tCCBot\t/x\tno matching rule'])
    expect(ok.stderr).not.toContain('warning')
    const bad = tmp.path('latin1-name.txt')
    writeFileSync(bad, Buffer.from('GPTBot\nB\xfccherBot\n', 'latin1'))
    const r = await run(['check', robots, '--crawlers', `@${bad}`, '/x'])
    expect(r.status).toBe(2)
    expect(r.stderr).toContain(`, line 2: not UTF-8`)
    expect(r.stdout.toString()).toBe('')
  })

  it('tokens fold case in ASCII only, as the reference compares them: k and the Kelvin sign K are two crawlers, not one named twice', async () => {
    const robots = tmp.path('r-kelvin.txt')
    writeFileSync(robots, 'User-agent: k\nDisallow: /\n')
    const r = await run(['check', robots, '--crawlers', 'k,\u212a', '-q', '/x'])
    expect(r.status, r.stderr).toBe(0)
    expect(lines(r.stdout)).toEqual(['disallowed\tk\t/x\tline 2: Disallow: /', 'allowed\t\u212a\t/x\tno matching rule'])
  })
})
