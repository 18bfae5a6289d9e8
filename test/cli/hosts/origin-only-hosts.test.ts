/**
 * A bundle whose entries for a host are origins only (`http://a.test:8080`,
 * packed from JSON lines of origins), read with a host column or `--host`
 * without a scheme, which names no origin: the paths of such a host are not
 * those of a host without a robots.txt. The entry is reported unreadable,
 * naming the origin to give, and the run exits 1.
 */
import { writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { RobotsStore } from '../../../src/index.js'
import { openBundle } from '../../../src/cli/hosts/bundle-rules.js'
import { HostJudge } from '../../../src/cli/filter/host-judge.js'
import type { CacheBytes } from '../../../src/cli/common/heap-room.js'
import { EntryState, type EntryEvent } from '../../../src/cli/hosts/host-rules.js'
import { LineFault, LineLocator } from '../../../src/cli/filter/line-locator.js'
import { INPUT_OPTIONS, lineLayout } from '../../../src/cli/filter/line-layout.js'
import { parseArgs } from '../../../src/cli/common/args.js'
import { ensureBuilt, run, tempDir } from '../helpers.js'

const enc = new TextEncoder()
const DENY = 'User-agent: *\nDisallow: /\n'

function sample(): Uint8Array {
  const s = new RobotsStore()
  s.set('http://a.test:8080', DENY)
  s.set('https://b.test', DENY)
  s.set('c.test', 'User-agent: *\nDisallow: /c\n')
  s.set('https://c.test', DENY)
  return s.toBytes()
}

describe('regression: the paths of a host whose bundle entries are origins only were judged as of a host without a robots.txt, in silence', () => {
  it('HostJudge: a host column without a scheme finds the origin entry as unreadable (--missing), a bare-host entry as before, an origin given as such as before', () => {
    const rules = openBundle(sample(), 'b')
    const events: EntryEvent[] = []
    const judge = new HostJudge(rules, { who: { agent: ['bot'] }, missingAllowed: true, cacheBytes: (1 << 20) as CacheBytes, onEntry: (e) => events.push(e) })
    const locator = new LineLocator(lineLayout(parseArgs(['--field', '1', '--host-field', '2'], INPUT_OPTIONS)), true)
    const lines = ['/x a.test:8080', '/x b.test:443', '/x B.TEST', '/c c.test', '/x http://a.test:8080', '/x d.test', '/x a.test']
    const answers = lines.map((l) => {
      const b = enc.encode(l)
      expect(locator.locate(b, 0, b.length), l).toBe(LineFault.None)
      const verdict = judge.judge(b, locator)
      return [verdict, judge.decided(b, locator).source]
    })
    expect(answers).toEqual([[1, null], [1, null], [1, null], [4, 'b#c.test'], [4, 'b#http://a.test:8080'], [1, null], [1, null]])
    const unreadable = events.filter((e) => e.state === EntryState.Unreadable)
    expect(unreadable.map((e) => rules.sourceName(e.id))).toEqual(['b#http://a.test:8080', 'b#https://b.test'])
    expect(unreadable[0].reason).toMatch(/origin http:\/\/a\.test:8080 only, and a host given without a scheme/)
  })

  it('filter --log-format vhost_combined and --host: named, counted unreadable, exit 1; every line written', async () => {
    ensureBuilt()
    const tmp = tempDir()
    try {
      const bundle = tmp.path('o.bundle')
      writeFileSync(bundle, sample())
      const log = tmp.path('vhost.log')
      writeFileSync(log, ['a.test:8080', 'c.test:443'].map((h) => `${h} 1.2.3.4 - - [10/Oct/2026:13:55:36 +0000] "GET /c HTTP/1.1" 200 5 "-" "ua"\n`).join(''))
      for (const jobs of ['1', '2']) {
        const r = await run(['filter', '--bundle', bundle, '--agent', 'bot', '--log-format', 'vhost_combined', '--jobs', jobs, '--print', 'verdicts', log])
        expect(r.status, r.stderr).toBe(1)
        expect(r.stdout.toString().split('\n').map((l) => l.split('\t').slice(0, 2).join(' '))).toEqual(['allowed 0', 'disallowed 2', ''])
        expect(r.stderr).toContain(`'${bundle}#http://a.test:8080': the bundle holds this host's robots.txt for the origin http://a.test:8080 only`)
      }
      const h = await run(['filter', '--bundle', bundle, '--agent', 'bot', '--host', 'a.test:8080', '--print', 'verdicts'], { input: '/x\n' })
      expect(h.status, h.stderr).toBe(1)
      expect(h.stdout.toString()).toBe('allowed\t0\t/x\n')
      const o = await run(['filter', '--bundle', bundle, '--agent', 'bot', '--host', 'http://a.test:8080', '--print', 'verdicts'], { input: '/x\n' })
      expect(o.status, o.stderr).toBe(0)
      expect(o.stdout.toString()).toBe('disallowed\t2\t/x\n')
    } finally {
      tmp.cleanup()
    }
  })
})
