// `filter --robots-dir` over real data: every URL judged by its host's file
// must equal the library's answer (verdict and rule line). The bundled sample
// (corpus/) always; ../shared's paired.tsv when it is there.
import { beforeAll, expect, it } from 'vitest'
import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseRobots } from '../../src/index.js'
import { SHARED } from '../support/shared-data.js'
import { describePaired, SAMPLE } from '../support/corpus-data.js'
import { ensureBuilt, run, splitKeepingEndings, tempDir } from './helpers.js'

/** Per source: the --robots-dir and the summary the run must end with. */
const SETUP = {
  sample: {
    dir: resolve(SAMPLE, 'robots'),
    summary: /^robots-automaton: 2,896 lines read: .*; hosts: 38 with a robots\.txt, 2 without one, 0 unreadable(; [^\n]*)?\n$/,
  },
  full: {
    dir: resolve(SHARED, 'corpus/robots/anubhavp28-benchmark'),
    summary: /(^|\n)robots-automaton: 111,805 lines read: .*; hosts: 1,224 with a robots\.txt, 40 without one, 0 unreadable; files with problems: 37 HTML, 1 truncated; 28 more warnings not shown\n$/,
  },
}

describePaired('cli: filter --robots-dir', 'cli-robots-dir', (source) => {
  const { dir, summary } = SETUP[source.id]
  beforeAll(() => ensureBuilt())

  it('--print verdicts equals the library line by line', async () => {
    let input = ''
    let expected = ''
    for (const h of source.hosts()) {
      // The CLI finds the file by the URL's host; the source names the same file (or none).
      const file = resolve(dir, h.host)
      const m = existsSync(file) ? parseRobots(readFileSync(file)).agent('Googlebot') : null
      if (h.robots !== null) expect(m, h.host).not.toBeNull()
      for (const url of h.urls) {
        input += `${url}\n`
        const e = m?.explain(url) ?? { allowed: true, rule: null }
        expected += `${e.allowed ? 'allowed' : 'disallowed'}\t${e.rule?.line ?? 0}\t${url}\n`
      }
    }
    const r = await run(['filter', '--robots-dir', dir, '--agent', 'Googlebot', '--print', 'verdicts'], { input })
    expect(r.status).toBe(0)
    const got = r.stdout.toString('utf8').split('\n')
    const want = expected.split('\n')
    expect(got.length).toBe(want.length)
    const mismatches: string[] = []
    for (let i = 0; i < want.length && mismatches.length < 10; i++) if (got[i] !== want[i]) mismatches.push(`${i}: got ${got[i]} want ${want[i]}`)
    expect(mismatches).toEqual([])
    expect(r.stderr).toMatch(summary)
  })

  it('--jobs 2 and --bundle (pack DIR) give the bytes of --robots-dir --jobs 1', async () => {
    const input = Buffer.from(`${source.hosts().flatMap((h) => h.urls).join('\n')}\n`)
    const tmp = tempDir()
    try {
      const bundle = tmp.path('corpus.bundle')
      const packed = await run(['pack', dir, '-o', bundle, '-q'])
      expect(packed.status, packed.stderr).toBe(0)
      // Blocks of 64 KiB: the paired list spans many blocks, so the workers judge most of it.
      const env = { ...process.env, ROBOTS_AUTOMATON_BLOCK_BYTES: String(64 << 10) }
      const filter = (rules: string[], jobs: string, form: string[]) => run(['filter', ...rules, '--agent', 'Googlebot', '-q', '--jobs', jobs, ...form], { input, env })
      for (const form of [['--print', 'verdicts'], ['--format', 'jsonl']]) {
        const one = await filter(['--robots-dir', dir], '1', form)
        expect(one.status).toBe(0)
        const others = form[0] === '--print' ? ([[['--robots-dir', dir], '2'], [['--bundle', bundle], '1'], [['--bundle', bundle], '2']] as const) : ([[['--bundle', bundle], '2']] as const)
        for (const [rules, jobs] of others) {
          const r = await filter([...rules], jobs, form)
          // The JSON lines' "source" names the bundle's entry (BUNDLE#host) where the directory's names its file (DIR/host).
          const got = rules[0] === '--bundle' ? Buffer.from(r.stdout.toString('latin1').replaceAll(`"source":"${bundle}#`, `"source":"${dir}/`), 'latin1') : r.stdout
          expect(got.equals(one.stdout), `${rules[0]} --jobs ${jobs} ${form.join(' ')}`).toBe(true)
        }
      }
    } finally {
      tmp.cleanup()
    }
  })

  it('--print allowed and --print disallowed interleave back into the input', async () => {
    const input = Buffer.from(
      source
        .hosts()
        .flatMap((h) => h.urls)
        .join('\n'),
    )
    const args = (mode: string) => run(['filter', '--robots-dir', dir, '--agent', 'Googlebot', '--print', mode, '-q'], { input })
    const [a, d, v] = await Promise.all([args('allowed'), args('disallowed'), args('verdicts')])
    const al = splitKeepingEndings(a.stdout)
    const dl = splitKeepingEndings(d.stdout)
    const verdicts = v.stdout.toString().split('\n')
    let ai = 0
    let di = 0
    const parts: Buffer[] = []
    for (let i = 0; i < verdicts.length - 1; i++) parts.push(verdicts[i].startsWith('allowed') ? al[ai++] : dl[di++])
    expect(ai).toBe(al.length)
    expect(di).toBe(dl.length)
    expect(di).toBeGreaterThan(0)
    expect(Buffer.concat(parts).equals(input)).toBe(true)
  })
})
