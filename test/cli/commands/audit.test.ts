/**
 * `audit`: each host's class per crawler on a test set written by hand
 * (the expected classes read from each file directly, the edge cases of
 * docs/audit.md among them), its rows (CSV, JSON lines) and summary table,
 * the fetch outcomes of a bundle, two snapshots compared, and the
 * fetched-on-the-fly mode against a server on 127.0.0.1.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RobotsStore } from '../../../src/index.js'
import { ensureBuilt, run, tempDir } from '../helpers.js'
import { startServer, type TestServer } from '../../fetch/server.js'

const CRAWLERS = ['GPTBot', 'CCBot', 'Googlebot', 'Googlebot-Image+Googlebot']
const PAD = `# ${'x'.repeat(998)}\n`.repeat(520)

/** Each file, and each crawler's class and group as the file reads (in CRAWLERS' order). */
const SET: { host: string; body: string; want: [string, string][] }[] = [
  { host: 'block-all.test', body: 'User-agent: *\nDisallow: /\n', want: [['nothing', 'global'], ['nothing', 'global'], ['nothing', 'global'], ['nothing', 'global']] },
  {
    host: 'gpt-only.test',
    body: 'User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\n',
    want: [['nothing', 'named'], ['some', 'global'], ['some', 'global'], ['some', 'global']],
  },
  { host: 'root-only.test', body: 'User-agent: *\nDisallow: /\nAllow: /$\n', want: [['some', 'global'], ['some', 'global'], ['some', 'global'], ['some', 'global']] },
  {
    host: 'empty-group.test',
    body: 'User-agent: *\nDisallow: /\n\nUser-agent: CCBot\n',
    want: [['nothing', 'global'], ['everything', 'named'], ['nothing', 'global'], ['nothing', 'global']],
  },
  { host: 'empty-disallow.test', body: 'User-agent: *\nDisallow:\n', want: [['everything', 'global'], ['everything', 'global'], ['everything', 'global'], ['everything', 'global']] },
  { host: 'star.test', body: 'User-agent: GPTBot\nDisallow: /*\n', want: [['nothing', 'named'], ['everything', 'none'], ['everything', 'none'], ['everything', 'none']] },
  {
    host: 'allow-specific.test',
    body: 'User-agent: Googlebot\nDisallow: /\nAllow: /public/\n',
    want: [['everything', 'none'], ['everything', 'none'], ['some', 'named'], ['some', 'named']],
  },
  { host: 'allow-longer.test', body: 'User-agent: *\nDisallow: /\nAllow: /*\n', want: [['everything', 'global'], ['everything', 'global'], ['everything', 'global'], ['everything', 'global']] },
  {
    host: 'image.test',
    body: 'User-agent: Googlebot-Image\nDisallow: /\n',
    want: [['everything', 'none'], ['everything', 'none'], ['everything', 'none'], ['nothing', 'named']],
  },
  { host: 'empty-file.test', body: '', want: [['everything', 'none'], ['everything', 'none'], ['everything', 'none'], ['everything', 'none']] },
  { host: 'index.test', body: 'User-agent: *\nDisallow: /\nAllow: /index.html\n', want: [['some', 'global'], ['some', 'global'], ['some', 'global'], ['some', 'global']] },
  { host: 'dollar.test', body: 'User-agent: *\nDisallow: /*$\n', want: [['nothing', 'global'], ['nothing', 'global'], ['nothing', 'global'], ['nothing', 'global']] },
  {
    host: 'covered.test',
    body: 'User-agent: *\nDisallow: /\nAllow: /a\nDisallow: /a*\n',
    want: [['nothing', 'global'], ['nothing', 'global'], ['nothing', 'global'], ['nothing', 'global']],
  },
  {
    // The Disallow: / after the limit is not read: the rules read leave all but /private allowed.
    host: 'cut.test',
    body: `User-agent: *\nDisallow: /private\n${PAD}Disallow: /\n`,
    want: [['some', 'global'], ['some', 'global'], ['some', 'global'], ['some', 'global']],
  },
]

/** Crawler k's cells of the summary table, counted from SET (15 hosts: SET and one unreadable), as patterns. */
function tableCells(k: number): string[] {
  const n = (pick: (w: [string, string]) => boolean): number => SET.filter((f) => pick(f.want[k])).length
  const cell = (x: number): string => `${x} \\(${((100 * x) / 15).toFixed(1).replace('.', '\\.')}%\\)`
  return [cell(n((w) => w[0] === 'everything')), cell(n((w) => w[0] === 'some')), cell(n((w) => w[0] === 'nothing')), cell(1), cell(n((w) => w[1] === 'named'))]
}

let tmp: ReturnType<typeof tempDir>
let dir: string
const lines = (b: Buffer | string): string[] => b.toString().split('\n').filter((l) => l !== '')

beforeAll(() => {
  ensureBuilt()
  tmp = tempDir()
  dir = tmp.path('robots')
  mkdirSync(dir)
  for (const f of SET) writeFileSync(join(dir, f.host), f.body)
  // Not a regular file: unreadable, never a site's outcome; and a name that is no host.
  mkdirSync(join(dir, 'folder.test'))
  writeFileSync(join(dir, 'not a host'), 'User-agent: *\nDisallow: /\n')
})
afterAll(() => tmp.cleanup())

describe('audit SNAPSHOT: the classes of a hand-written test set', () => {
  it('CSV: a row per host and crawler, each class and group as the file reads; unreadable is unknown; a name that is no host is skipped', async () => {
    const r = await run(['audit', dir, '--crawlers', CRAWLERS.join(',')])
    expect(r.status, r.stderr).toBe(1)
    const rows = lines(r.stdout)
    expect(rows[0]).toBe('host,crawler,access,group,outcome,status,truncated,allowed_path,disallowed_path')
    const got = new Map(rows.slice(1).map((l) => {
      const [host, crawler, access, group, outcome, , truncated] = l.split(',')
      return [`${host} ${crawler}`, [access, group, outcome, truncated]]
    }))
    for (const f of SET) {
      CRAWLERS.forEach((c, k) => {
        expect(got.get(`${f.host} ${c}`), `${f.host} ${c}`).toEqual([...f.want[k], 'ok', f.host === 'cut.test' ? 'true' : 'false'])
      })
    }
    expect(got.get('folder.test GPTBot')).toEqual(['unknown', '', 'unreadable', 'false'])
    expect(rows.length).toBe(1 + (SET.length + 1) * CRAWLERS.length)
    expect(r.stderr).toContain("1 file skipped (e.g. 'not a host': not a host name: it holds a space")
    // The summary table on stderr, a line each: per crawler, the hosts (and share of 15) in each class, unknown, named.
    for (const [k, c] of CRAWLERS.entries()) {
      expect(r.stderr).toMatch(new RegExp(`robots-automaton: ${c.replace('+', '\\+')} +${tableCells(k).join(' +')}\n`))
    }
  })

  it('JSON lines: the same classes, with an example path of each verdict that the crawler alone gives', async () => {
    const r = await run(['audit', '--robots-dir', dir, '--crawlers', CRAWLERS.join(','), '--format', 'jsonl', '-q'])
    expect(r.status, r.stderr).toBe(1)
    expect(r.stderr).toBe("robots-automaton: 1 host could not be read (the first, 'folder.test': not a regular file (a directory)): class unknown, not the site's answer\n")
    const { parseRobots } = await import('../../../src/index.js')
    for (const rec of lines(r.stdout).map((l) => JSON.parse(l))) {
      const f = SET.find((x) => x.host === rec.host)
      if (f === undefined) continue
      const k = CRAWLERS.indexOf(rec.crawler)
      expect([rec.access, rec.group]).toEqual(f.want[k])
      const m = parseRobots(f.body).agents(rec.crawler.split('+'))
      if (rec.allowed_path !== null) expect(m.isAllowed(rec.allowed_path), `${rec.host} ${rec.crawler} ${rec.allowed_path}`).toBe(true)
      if (rec.disallowed_path !== null) expect(m.isAllowed(rec.disallowed_path), `${rec.host} ${rec.crawler} ${rec.disallowed_path}`).toBe(false)
      expect(rec.allowed_path === null).toBe(rec.access === 'nothing')
      expect(rec.disallowed_path === null).toBe(rec.access === 'everything')
    }
  })

  it('--format table: the summary alone on stdout, per crawler the hosts and share in each class, and those that name it', async () => {
    const r = await run(['audit', dir, '--crawlers', 'GPTBot,CCBot', '--format', 'table'])
    expect(r.status, r.stderr).toBe(1)
    const out = r.stdout.toString()
    expect(lines(out)[0]).toMatch(/^crawler +everything +some +nothing +unknown +named by a group$/)
    expect(out).toMatch(new RegExp(`\nCCBot +${tableCells(1).join(' +')}\n`))
    expect(out).toContain('15 hosts: 14 ok, 1 unreadable; 1 cut at the parsing limit (their rules read are classed)')
  })

  it('a bundle: the fetch outcomes (no-file for 404 and 410, unavailable, unreachable), the status, the classes they stand for', async () => {
    const store = new RobotsStore()
    const info = (outcome: 'ok' | 'unavailable' | 'unreachable', status: number) => ({ outcome, status, fetchedAt: 1_700_000_000_000, expiresAt: 1_700_086_400_000, reachableAt: 1_700_000_000_000 })
    store.set('https://ok.test', 'User-agent: GPTBot\nDisallow: /\n', info('ok', 200))
    store.setOutcome('https://gone.test', 'unavailable', info('unavailable', 404))
    store.setOutcome('https://forbidden.test', 'unavailable', info('unavailable', 403))
    store.setOutcome('https://down.test', 'unreachable', info('unreachable', 503))
    store.setOutcome('packed.test', 'unreachable')
    const path = tmp.path('outcomes.bundle')
    writeFileSync(path, store.toBytes())
    const r = await run(['audit', path, '--crawlers', 'GPTBot,CCBot', '-q'])
    expect(r.status, r.stderr).toBe(0)
    expect(lines(r.stdout).slice(1)).toEqual([
      'https://down.test,GPTBot,nothing,none,unreachable,503,false,,/',
      'https://down.test,CCBot,nothing,none,unreachable,503,false,,/',
      'https://forbidden.test,GPTBot,everything,none,unavailable,403,false,/,',
      'https://forbidden.test,CCBot,everything,none,unavailable,403,false,/,',
      'https://gone.test,GPTBot,everything,none,no-file,404,false,/,',
      'https://gone.test,CCBot,everything,none,no-file,404,false,/,',
      'https://ok.test,GPTBot,nothing,named,ok,200,false,,/~',
      'https://ok.test,CCBot,everything,none,ok,200,false,/~,',
      'packed.test,GPTBot,nothing,none,unreachable,,false,,/',
      'packed.test,CCBot,nothing,none,unreachable,,false,,/',
    ])
  })
})

describe('audit OLD NEW: the hosts whose class changed, per crawler', () => {
  it('a row per host and crawler that changed (hosts added and gone as unknown); exit 3 (1 here: a host of OLD could not be read); the changes per crawler', async () => {
    const newer = tmp.path('robots-new')
    mkdirSync(newer)
    for (const f of SET) if (f.host !== 'index.test') writeFileSync(join(newer, f.host), f.host === 'gpt-only.test' ? 'User-agent: *\nDisallow: /private/\n' : f.body)
    writeFileSync(join(newer, 'added.test'), 'User-agent: CCBot\nDisallow: /\n')
    const r = await run(['audit', dir, newer, '--crawlers', 'GPTBot,CCBot'])
    expect(r.status, r.stderr).toBe(1)
    expect(lines(r.stdout)).toEqual([
      'host,crawler,old_access,new_access,old_group,new_group,old_outcome,new_outcome',
      'added.test,GPTBot,unknown,everything,,none,absent,ok',
      'added.test,CCBot,unknown,nothing,,named,absent,ok',
      'folder.test,GPTBot,unknown,unknown,,,unreadable,absent',
      'gpt-only.test,GPTBot,nothing,some,named,global,ok,ok',
      'index.test,GPTBot,some,unknown,global,,ok,absent',
      'index.test,CCBot,some,unknown,global,,ok,absent',
    ].filter((l) => !l.startsWith('folder.test')))
    expect(r.stderr).toMatch(/robots-automaton: GPTBot +3 \(18\.8%\) +unknown → everything 1, nothing → some 1, some → unknown 1\n/)
    expect(r.stderr).toMatch(/robots-automaton: CCBot +2 \(12\.5%\) +unknown → nothing 1, some → unknown 1\n/)
    expect(r.stderr).toContain('robots-automaton: 16 hosts: 15 compared, 1 not (class unknown on both sides: 1 unreadable → absent)\n')
    const same = await run(['audit', dir, dir, '--crawlers', 'GPTBot,CCBot', '--format', 'jsonl', '-q'])
    expect(same.status).toBe(1)
    expect(same.stdout.toString()).toBe('')
  })

  it('--help: a host absent from one snapshot is unknown, as the rows say, not everything', async () => {
    const help = (await run(['audit', '--help'])).stdout.toString()
    const classes = help.slice(help.indexOf('CLASSES'), help.indexOf('FETCHING'))
    expect(classes.split('\n').find((l) => l.trimStart().startsWith('everything'))).not.toMatch(/absent/)
    expect(classes.slice(classes.indexOf('  unknown '), classes.indexOf('  outcome ')).replace(/\s+/g, ' ')).toContain('a host absent from one snapshot')
  })

  it('JSON lines: a side unreadable keeps its reason, as a one-snapshot row has it', async () => {
    const older = tmp.path('robots-reason')
    mkdirSync(older)
    writeFileSync(join(older, 'folder.test'), 'User-agent: *\nDisallow: /\n')
    const r = await run(['audit', older, dir, '--crawlers', 'GPTBot', '--format', 'jsonl', '-q'])
    expect(r.status, r.stderr).toBe(1)
    const folder = lines(r.stdout).map((l) => JSON.parse(l)).find((o) => o.host === 'folder.test')
    const one = lines((await run(['audit', dir, '--crawlers', 'GPTBot', '--format', 'jsonl', '-q'])).stdout).map((l) => JSON.parse(l)).find((o) => o.host === 'folder.test')
    expect(one.reason).toMatch(/not a regular file/)
    const side = { ...one }
    delete side.host
    delete side.crawler
    expect(folder.new).toEqual(side)
    expect(folder.old).toEqual({ access: 'nothing', group: 'global', outcome: 'ok', truncated: false, allowed_path: null, disallowed_path: '/~' })
  })

  it('unknown on both sides: a host unreadable in OLD and NEW is counted as not compared, never as compared', async () => {
    const r = await run(['audit', dir, dir, '--crawlers', 'GPTBot', '--format', 'table'])
    expect(r.status, r.stderr).toBe(1)
    expect(r.stdout.toString()).toContain('\n15 hosts: 14 compared, 1 not (class unknown on both sides: 1 unreadable → unreadable)\n')
    expect(r.stdout.toString()).not.toContain('15 hosts compared')
    expect(r.stderr).toContain('warning: 1 host not compared: the class is unknown on both sides (1 unreadable → unreadable); no row says so')
  })
})

describe('audit: a host that could not be read', () => {
  it('regression: a file of the directory that could not be read ended audit with exit 0, as if every class were known', async () => {
    const d = tmp.path('robots-unreadable')
    mkdirSync(d)
    writeFileSync(join(d, 'ok.test'), 'User-agent: *\nDisallow: /\n')
    mkdirSync(join(d, 'folder.test'))
    const one = await run(['audit', d, '--crawlers', 'GPTBot', '--format', 'table'])
    const two = await run(['audit', d, d, '--crawlers', 'GPTBot', '-q'])
    // Every row and the summary are written first, then the failure: one line, exit 1 (as filter and pack end).
    expect([one.status, two.status]).toEqual([1, 1])
    expect(one.stdout.toString()).toContain('2 hosts: 1 ok, 1 unreadable')
    for (const r of [one, two]) expect(r.stderr).toMatch(/robots-automaton: 1 host could not be read \(the first, 'folder\.test': not a regular file \(a directory\)\): class unknown, not the site's answer\n$/)
  })
})

describe('audit OLD NEW: a host keyed by its origin on one side and bare on the other', () => {
  it('a directory beside a fetch bundle compares each host with itself, not as absent twice', async () => {
    const bare = tmp.path('robots-bare')
    mkdirSync(bare)
    writeFileSync(join(bare, 'same.test'), 'User-agent: *\nDisallow: /\n')
    writeFileSync(join(bare, 'changed.test'), 'User-agent: *\nDisallow: /\n')
    writeFileSync(join(bare, 'gone.test'), 'User-agent: *\nDisallow: /\n')
    const store = new RobotsStore()
    store.set('https://same.test', 'User-agent: *\nDisallow: /\n')
    store.set('https://changed.test', 'User-agent: *\nDisallow: /x\n')
    store.set('http://changed.test:8080', 'User-agent: *\nDisallow: /\n')
    store.set('https://new.test', 'User-agent: *\nDisallow: /\n')
    const bundle = tmp.path('origins.bundle')
    writeFileSync(bundle, store.toBytes())
    const r = await run(['audit', bare, bundle, '--crawlers', 'GPTBot'])
    expect(r.status, r.stderr).toBe(3)
    expect(lines(r.stdout)).toEqual([
      'host,crawler,old_access,new_access,old_group,new_group,old_outcome,new_outcome',
      'gone.test,GPTBot,nothing,unknown,global,,ok,absent',
      'https://changed.test,GPTBot,nothing,some,global,global,ok,ok',
      'https://new.test,GPTBot,unknown,nothing,,global,absent,ok',
    ])
    expect(r.stderr).toContain('robots-automaton: 5 hosts compared')
    const back = await run(['audit', bundle, bare, '--crawlers', 'GPTBot', '--format', 'jsonl'])
    expect(back.status, back.stderr).toBe(3)
    expect(lines(back.stdout).map((l) => JSON.parse(l).host)).toEqual(['gone.test', 'https://changed.test', 'https://new.test'])
    // Two bundles, one keyed by bare host (as pack writes a directory): the same rows.
    const bareStore = new RobotsStore()
    for (const host of ['same.test', 'changed.test', 'gone.test']) bareStore.set(host, 'User-agent: *\nDisallow: /\n')
    const bareBundle = tmp.path('bare.bundle')
    writeFileSync(bareBundle, bareStore.toBytes())
    const bundles = await run(['audit', bareBundle, bundle, '--crawlers', 'GPTBot', '-q'])
    expect(bundles.status, bundles.stderr).toBe(3)
    expect(lines(bundles.stdout)).toEqual(lines(r.stdout))
  })
})

describe('audit --fetch: hosts fetched on the fly, through fetch\'s machinery', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer((req, res) => {
      const host = (req.headers.host ?? '').replace(/:\d+$/, '')
      if (req.url !== '/robots.txt') return void res.writeHead(404).end()
      if (host === 'ok.test') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /tmp/\n')
      if (host === 'gone.test') return void res.writeHead(404).end()
      if (host === 'forbidden.test') return void res.writeHead(403).end()
      res.writeHead(503).end()
    })
  })
  afterAll(() => server.close())

  it('ok, no-file (404), unavailable (403), unreachable (503): the classes they stand for; --save keeps a bundle that audits alike', async () => {
    const list = tmp.path('hosts.txt')
    writeFileSync(list, 'ok.test\ngone.test\nhttp://forbidden.test/some/page\ndown.test\n')
    const saved = tmp.path('fetched.bundle')
    const args = ['--crawlers', 'GPTBot,CCBot', '-q']
    const r = await run(['audit', '--fetch', list, ...args, '--scheme', 'http', '--connect-to', `::127.0.0.1:${server.port}`, '--save', saved])
    expect(r.status, r.stderr).toBe(0)
    const rows = lines(r.stdout).map((l) => l.split(',').slice(0, 6).join(','))
    expect(rows).toEqual([
      'host,crawler,access,group,outcome,status',
      'down.test,GPTBot,nothing,none,unreachable,503',
      'down.test,CCBot,nothing,none,unreachable,503',
      'gone.test,GPTBot,everything,none,no-file,404',
      'gone.test,CCBot,everything,none,no-file,404',
      'http://forbidden.test,GPTBot,everything,none,unavailable,403',
      'http://forbidden.test,CCBot,everything,none,unavailable,403',
      'ok.test,GPTBot,nothing,named,ok,200',
      'ok.test,CCBot,some,global,ok,200',
    ])
    const again = await run(['audit', saved, ...args])
    expect(again.stdout.toString()).toBe(r.stdout.toString())
    // Compared with the saved bundle: nothing changed.
    const compared = await run(['audit', '--bundle', saved, '--fetch', list, ...args, '--scheme', 'http', '--connect-to', `::127.0.0.1:${server.port}`])
    expect(compared.status, compared.stderr).toBe(0)
    expect(lines(compared.stdout)).toEqual(['host,crawler,old_access,new_access,old_group,new_group,old_outcome,new_outcome'])
  })

  it('a host listed at two ports is one entry: the port not fetched is said, never dropped in silence', async () => {
    const r = await run(['audit', '--fetch', '--crawlers', 'GPTBot', '--scheme', 'http', '--connect-to', `::127.0.0.1:${server.port}`], { input: 'ok.test:8001\nok.test:8002\nok.test:8001\n' })
    expect(r.status, r.stderr).toBe(0)
    expect(lines(r.stdout).slice(1).map((l) => l.split(',').slice(0, 5).join(','))).toEqual(['ok.test,GPTBot,nothing,named,ok'])
    expect(r.stderr).toContain(`warning: 1 line names a host listed already at another port or scheme, not fetched: 'ok.test' is one entry, fetched at http://ok.test:8001, not at http://ok.test:8002`)
  })

  it('usage: fetching options need --fetch, a snapshot or --fetch is needed, at most two snapshots', async () => {
    expect((await run(['audit', dir, '--crawlers', 'A', '--concurrency', '2'])).stderr).toContain("'--concurrency' applies only with '--fetch'")
    expect((await run(['audit', '--crawlers', 'A'])).status).toBe(2)
    expect((await run(['audit', dir, dir, dir, '--crawlers', 'A'])).stderr).toContain('at most two snapshots')
    expect((await run(['audit', dir])).stderr).toContain("option '--crawlers' is required")
    expect((await run(['audit', '--fetch', '--crawlers', 'A', '--save', '-'], { input: 'a.test\n' })).stderr).toContain("'--save' needs a file")
    const missing = await run(['audit', tmp.path('nope.bundle'), '--crawlers', 'A'])
    expect(missing.status).toBe(1)
    expect(missing.stderr).toContain('cannot read snapshot')
    void readFileSync
  })
})
