/**
 * `fetch` survives a kill: every finished origin is in the journal beside
 * the output, the same command run again fetches only what the journal
 * lacks, and its output equals an uninterrupted run's; the journal goes
 * away once the output is written. Counted server-side, on a server on
 * 127.0.0.1 that every name is routed to. No wall-clock assertions: the
 * kill comes once the server has seen half the origins, however slow the
 * machine.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { beforeEach, describe, expect, it } from 'vitest'
import { RobotsStore } from '../../../src/index.js'
import { run, type tempDir } from '../helpers.js'
import { runKilledAfter, variedAnswers, withFetchServer, type FetchServer } from './fetch-server.js'

let server: FetchServer
let tmp: ReturnType<typeof tempDir>

withFetchServer((s, t) => {
  server = s
  tmp = t
}, 2)
beforeEach(() => {
  server.handler = variedAnswers((i) => `User-agent: *\nDisallow: /private/${i}\n`, true)
})

/** A URL list of `n` names, all routed to the server. */
function input(name: string, n: number): string {
  const file = tmp.path(name)
  writeFileSync(file, Array.from({ length: n }, (_, i) => `http://h${i}.journal.test:${server.port}/page`).join('\n') + '\n')
  return file
}

const CONCURRENCY = 32
const args = (file: string, out: string, more: string[] = [], { quiet = true, concurrency = CONCURRENCY } = {}) => [
  'fetch', file, '-o', out, ...(quiet ? ['-q'] : []), '--concurrency', String(concurrency), '--per-ip', String(concurrency), '--resolve', `*:${server.port}:127.0.0.1`, ...more,
]

/** A bundle's entries without their fetch times, in order: what an uninterrupted run must equal. */
function entries(path: string): unknown[] {
  const store = RobotsStore.fromBytes(readFileSync(path))
  return [...store.keys()].map((key) => {
    const info = store.fetchInfo(key)
    const robots = store.get(key)
    return {
      key,
      source: store.source(key),
      rules: robots === undefined ? null : Buffer.from(robots.toBytes()).toString('base64'),
      outcome: info?.outcome,
      status: info?.status,
      etag: info?.etag,
    }
  })
}

const leftovers = (name: string) => readdirSync(tmp.dir).filter((f) => f.startsWith(`.${name}`) || f === `${name}.journal`)

describe('a killed run loses everything: the journal', () => {
  it('killed with SIGKILL half-way, the same command again fetches each origin once in total (the ones in flight at most twice), and writes what an uninterrupted run writes', async () => {
    const N = 6000
    const file = input('kill.txt', N)
    // The uninterrupted run.
    const whole = await run(args(file, tmp.path('whole.bundle')))
    expect(whole.status, whole.stderr).toBe(0)
    expect(server.total).toBe(N)
    server.reset()
    // The run killed half-way, and the same command again.
    const out = tmp.path('kill.bundle')
    const killed = await runKilledAfter(server, args(file, out), N / 2, 'SIGKILL')
    expect(killed.signal).toBe('SIGKILL')
    expect(existsSync(out)).toBe(false)
    expect(existsSync(`${out}.journal`)).toBe(true)
    const atKill = server.total
    expect(atKill).toBeLessThan(N)
    const again = await run(args(file, out))
    expect(again.status, again.stderr).toBe(0)
    // Every origin asked; twice only for those in flight at the kill.
    expect(server.asked.size).toBe(N)
    const twice = [...server.asked.values()].filter((n) => n > 1).length
    expect([...server.asked.values()].every((n) => n <= 2)).toBe(true)
    expect(twice).toBeLessThanOrEqual(CONCURRENCY)
    expect(server.total).toBe(N + twice)
    expect(entries(out)).toEqual(entries(tmp.path('whole.bundle')))
    expect(leftovers('kill.bundle')).toEqual([])
  }, 300_000)

  it('JSON lines: a SIGKILL leaves no hidden temporary file; the same command goes on and writes every record in input order', async () => {
    const N = 3000
    const file = input('kill-jsonl.txt', N)
    const out = tmp.path('kill.jsonl')
    const killed = await runKilledAfter(server, args(file, out, ['--format', 'jsonl']), N / 2, 'SIGKILL')
    expect(killed.signal).toBe('SIGKILL')
    expect(readdirSync(tmp.dir).filter((f) => f.endsWith('.tmp'))).toEqual([])
    expect(existsSync(out)).toBe(false)
    const again = await run(args(file, out, ['--format', 'jsonl']))
    expect(again.status, again.stderr).toBe(0)
    const records = readFileSync(out, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { origin: string })
    expect(records.map((r) => r.origin)).toEqual(Array.from({ length: N }, (_, i) => `http://h${i}.journal.test:${server.port}`))
    expect(leftovers('kill.jsonl')).toEqual([])
  }, 300_000)

  it('interrupted (SIGINT): writes what it has, keeps the journal, and names the same command to go on; run again, it fetches only the rest', async () => {
    const N = 2000
    const file = input('int.txt', N)
    const out = tmp.path('int.bundle')
    const first = await runKilledAfter(server, args(file, out, [], { quiet: false, concurrency: 8 }), N / 2, 'SIGINT')
    expect(first.code, first.stderr).toBe(130)
    expect(first.stderr).toMatch(/interrupted: [\d,]+ of 2,000 origins fetched/)
    expect(first.stderr).toMatch(/the journal '.*int\.bundle\.journal' keeps what was fetched: run the same command again to fetch the rest: robots-automaton fetch .*int\.txt -o .*int\.bundle/)
    const partial = RobotsStore.fromBytes(readFileSync(out)).size
    expect(partial).toBeGreaterThan(0)
    expect(existsSync(`${out}.journal`)).toBe(true)
    const before = server.total
    const again = await run(args(file, out))
    expect(again.status, again.stderr).toBe(0)
    expect(RobotsStore.fromBytes(readFileSync(out)).size).toBe(N)
    // Only what was not fetched yet (those in flight at the interrupt included).
    expect(server.total - before).toBeLessThanOrEqual(N - partial + 8)
    expect(server.asked.size).toBe(N)
    expect(existsSync(`${out}.journal`)).toBe(false)
  }, 300_000)
})

describe('the journal', () => {
  it('regression: --journal naming the output itself wrote the output, then removed it as the journal (exit 0, nothing left)', async () => {
    const file = input('self.txt', 3)
    const out = tmp.path('self.bundle')
    for (const journal of [out, `${tmp.dir}/./self.bundle`]) {
      const r = await run(args(file, out, ['--journal', journal]))
      expect(r.status).toBe(2)
      expect(r.stderr).toMatch(/option '--journal' names the output itself/)
      expect(existsSync(out)).toBe(false)
    }
    expect(server.total).toBe(0)
    // Another file is fine, and goes once the output is written.
    const r = await run(args(file, out, ['--journal', tmp.path('self.journal')]))
    expect(r.status, r.stderr).toBe(0)
    expect(entries(out)).toHaveLength(3)
    expect(existsSync(tmp.path('self.journal'))).toBe(false)
  })

  it('of another run is not used, nor overwritten; one that is not a journal neither', async () => {
    const a = input('a.txt', 3)
    const b = input('b.txt', 4)
    const out = tmp.path('other.bundle')
    writeFileSync(`${out}.journal`, '{"journal":"robots-automaton fetch journal","version":1,"run":{"other":true}}\n')
    const r = await run(args(a, out))
    expect(r.status).toBe(1)
    expect(r.stderr).toMatch(/cannot use the journal '.*other\.bundle\.journal': it is the journal of another run/)
    expect(server.total).toBe(0)
    writeFileSync(`${out}.journal`, 'hello\n')
    const s = await run(args(b, out))
    expect(s.stderr).toMatch(/it is not the journal of a fetch/)
    expect(readFileSync(`${out}.journal`, 'utf8')).toBe('hello\n')
    expect(existsSync(out)).toBe(false)
  })

  it('regression: a journal made with another --user-agent or without --allow-private was taken up, its records mixed with this run\'s in silence; now it is refused, naming each option that differs', async () => {
    const file = input('ua.txt', 3)
    const out = tmp.path('ua.bundle')
    // Killed with the journal made and a record in it (the last origin never answers).
    const inner = server.handler
    server.handler = (host, req, res) => {
      if (host !== 'h2.journal.test') inner(host, req, res)
    }
    const first = await runKilledAfter(server, args(file, out, ['--user-agent', 'OldBot'], { concurrency: 1 }), 3, 'SIGKILL')
    server.handler = inner
    expect(first.signal).toBe('SIGKILL')
    const journal = readFileSync(`${out}.journal`, 'utf8')
    server.reset()
    const r = await run(args(file, out, ['--user-agent', 'NewBot', '--allow-private']))
    expect(r.status).toBe(1)
    expect(r.stderr).toContain(`cannot use the journal '${out}.journal': it is the journal of another run: --user-agent: then "OldBot", now "NewBot"; --allow-private: then false, now true: remove it, or run the command that made it again`)
    expect(server.total).toBe(0)
    expect(readFileSync(`${out}.journal`, 'utf8')).toBe(journal)
  })

  it('regression: a kill while the journal was being made (empty, or its first line cut short) left a journal that every later run refused', async () => {
    const file = input('head.txt', 3)
    const out = tmp.path('head.bundle')
    // The head this run writes, from a journal it leaves when killed before any record (the server never answers).
    const inner = server.handler
    server.handler = () => {}
    const first = await runKilledAfter(server, args(file, out), 1, 'SIGKILL')
    server.handler = inner
    expect(first.signal).toBe('SIGKILL')
    const head = readFileSync(`${out}.journal`, 'utf8').split('\n')[0]!
    for (const cut of [0, 1, head.length >> 1, head.length - 1, head.length]) {
      writeFileSync(`${out}.journal`, head.slice(0, cut))
      server.reset()
      const r = await run(args(file, out))
      expect(r.status, `${cut}: ${r.stderr}`).toBe(0)
      expect(server.total).toBe(3)
      expect(entries(out)).toHaveLength(3)
      expect(existsSync(`${out}.journal`)).toBe(false)
    }
    // Bytes that are not this run's head are still refused, and kept.
    writeFileSync(`${out}.journal`, head.slice(0, 10) + 'X')
    const other = await run(args(file, out))
    expect(other.status).toBe(1)
    expect(other.stderr).toMatch(/it is not the journal of a fetch/)
  })

  it('regression: a journal record whose rules were changed since fetch wrote them failed every run that took the journal up, once its fetches were over (the record stayed); now it is named in a warning, skipped, and its origin fetched again (no bundle that every reader refuses)', async () => {
    const file = input('changed.txt', 4)
    const out = tmp.path('changed.bundle')
    const inner = server.handler
    server.handler = (host, req, res) => {
      if (host !== 'h3.journal.test') inner(host, req, res)
    }
    const first = await runKilledAfter(server, args(file, out, [], { concurrency: 1 }), 4, 'SIGKILL')
    server.handler = inner
    expect(first.signal).toBe('SIGKILL')
    const journal = `${out}.journal`
    const lines = readFileSync(journal, 'utf8').split('\n')
    // A record's rules, its base64 still base64, one letter of the form's text changed.
    const k = lines.findIndex((l) => l.includes('"rules_base64":"'))
    expect(k).toBeGreaterThan(0)
    const at = lines[k].lastIndexOf('"rules_base64":"') + '"rules_base64":"'.length
    const form = Buffer.from(lines[k].slice(at, lines[k].length - 2), 'base64')
    const p = form.indexOf('private')
    expect(p).toBeGreaterThan(0)
    form[p] = 'q'.charCodeAt(0)
    lines[k] = `${lines[k].slice(0, at)}${form.toString('base64')}"}`
    writeFileSync(journal, lines.join('\n'))
    const damaged = (JSON.parse(lines[k]) as { origin: string }).origin
    server.reset()
    const again = await run(args(file, out, [], { quiet: false }))
    expect(again.status, again.stderr).toBe(0)
    expect(again.stderr).toContain(`warning: the journal '${journal}' holds 1 damaged record (line ${k + 1}: ${damaged}: "rules_base64" is not a robots-automaton form: Robots.fromBytes: checksum mismatch (corrupt buffer)): skipped, fetched again`)
    // The one never answered, and the one damaged: fetched again, with the server's rules.
    expect(server.total).toBe(2)
    expect(server.asked.get(new URL(damaged).hostname)).toBe(1)
    const store = RobotsStore.fromBytes(readFileSync(out))
    expect(store.size).toBe(4)
    expect(store.get(damaged)!.isAllowed(`${damaged}/private/${/\d+/.exec(damaged)![0]}`, 'bot')).toBe(false)
    expect(existsSync(journal)).toBe(false)
  })

  it('regression: a journal record with an outcome or a status the store refuses failed a bundle run once its fetches were over (ERR_INPUT, not naming the journal, every later run alike) and was copied into a JSON lines output in silence; now it is named in a warning, skipped, and its origin fetched again', async () => {
    for (const format of ['bundle', 'jsonl']) {
      const file = input(`info-${format}.txt`, 6)
      const out = tmp.path(`info.${format}`)
      const more = ['--format', format]
      server.reset()
      const inner = server.handler
      server.handler = (host, req, res) => {
        if (host !== 'h5.journal.test') inner(host, req, res)
      }
      const first = await runKilledAfter(server, args(file, out, more, { concurrency: 1 }), 6, 'SIGKILL')
      server.handler = inner
      expect(first.signal).toBe('SIGKILL')
      const journal = `${out}.journal`
      const lines = readFileSync(journal, 'utf8').split('\n')
      // Two records of 200 answers (h0's is a 404).
      const [a, b] = [1, 2].map((n) => lines.findIndex((l) => l.startsWith(`{"origin":"http://h${n}.`)))
      expect(lines[a!]).toContain('"outcome":"ok","reason":"success","status":200')
      expect(lines[b!]).toContain('"status":200')
      // One at a time: in input order.
      expect(a).toBeLessThan(b!)
      lines[a!] = lines[a!]!.replace('"outcome":"ok"', '"outcome":"quarantined"')
      lines[b!] = lines[b!]!.replace('"status":200', '"status":99')
      writeFileSync(journal, lines.join('\n'))
      const bad = [lines[a!], lines[b!]].map((l) => (JSON.parse(l!) as { origin: string }).origin)
      server.reset()
      const again = await run(args(file, out, more, { quiet: false }))
      expect(again.status, again.stderr).toBe(0)
      expect(again.stderr).toContain(`warning: the journal '${journal}' holds 2 damaged records (line ${a! + 1}: ${bad[0]}: fetch info: outcome must be one of ok, unavailable, unreachable, not-modified, refused, got "quarantined"): skipped, fetched again`)
      // The one never answered, and the two damaged.
      expect(server.total).toBe(3)
      expect(server.asked.get('h5.journal.test')).toBe(1)
      for (const origin of bad) expect(server.asked.get(new URL(origin).hostname)).toBe(1)
      if (format === 'bundle') {
        const store = RobotsStore.fromBytes(readFileSync(out))
        expect(store.size).toBe(6)
        for (const origin of bad) expect(store.fetchInfo(origin)).toMatchObject({ outcome: 'ok', status: 200 })
      } else {
        const records = readFileSync(out, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { outcome: string; status: number })
        expect(records.map((r) => [r.outcome, r.status])).toEqual(Array.from({ length: 6 }, (_, i) => (i === 0 ? ['unavailable', 404] : ['ok', 200])))
      }
      expect(existsSync(journal)).toBe(false)
    }
  })

  it('regression: a journal whose first line passed 1 MiB (it names every input: hundreds of long paths) was refused by the same command as not the journal of a fetch, every run again; now it is taken up', async () => {
    const file = input('long.txt', 4)
    // The same list named 300 times, each by a path of 4,000 bytes: a first line of 1.2 MB.
    const long = `${tmp.dir}/${'./'.repeat(1990)}long.txt`
    const many = Array.from({ length: 300 }, () => long)
    expect(readFileSync(long, 'utf8')).toBe(readFileSync(file, 'utf8'))
    const argv = [...args(many[0]!, tmp.path('long.bundle'), [], { concurrency: 1 }).slice(0, 1), ...many, ...args(many[0]!, tmp.path('long.bundle'), [], { concurrency: 1 }).slice(2)]
    const inner = server.handler
    server.handler = (host, req, res) => {
      if (host !== 'h3.journal.test') inner(host, req, res)
    }
    const first = await runKilledAfter(server, argv, 4, 'SIGKILL')
    server.handler = inner
    expect(first.signal).toBe('SIGKILL')
    const journal = tmp.path('long.bundle.journal')
    expect(readFileSync(journal, 'utf8').indexOf('\n')).toBeGreaterThan(1 << 20)
    server.reset()
    const again = await run(argv)
    expect(again.status, again.stderr).toBe(0)
    // Only the one never answered.
    expect(server.total).toBe(1)
    expect(entries(tmp.path('long.bundle'))).toHaveLength(4)
    expect(existsSync(journal)).toBe(false)
  })

  it('regression: a journal record whose "origin" was not its first field (a hand edit, another tool) was dropped and its origin fetched again without a word; now it is taken up whatever the order of its fields', async () => {
    for (const format of ['bundle', 'jsonl']) {
      const file = input(`order-${format}.txt`, 5)
      const out = tmp.path(`order.${format}`)
      const more = ['--format', format]
      server.reset()
      const inner = server.handler
      server.handler = (host, req, res) => {
        if (host !== 'h4.journal.test') inner(host, req, res)
      }
      const first = await runKilledAfter(server, args(file, out, more, { concurrency: 1 }), 5, 'SIGKILL')
      server.handler = inner
      expect(first.signal).toBe('SIGKILL')
      const journal = `${out}.journal`
      const lines = readFileSync(journal, 'utf8').split('\n')
      expect(lines).toHaveLength(6)
      // h1's record with its origin last; h2's with every field the other way round (its rules first).
      const o1 = JSON.parse(lines[2]!) as Record<string, unknown>
      const o2 = JSON.parse(lines[3]!) as Record<string, unknown>
      expect([o1.origin, o2.origin]).toEqual([1, 2].map((n) => `http://h${n}.journal.test:${server.port}`))
      const { origin, ...rest } = o1
      lines[2] = JSON.stringify({ ...rest, origin })
      lines[3] = JSON.stringify(Object.fromEntries(Object.entries(o2).reverse()))
      expect(lines[3]!.startsWith('{"rules_base64":')).toBe(true)
      // h3's as a tool that escapes more than it must writes it (its rules still last): slashes, and the rules' first letter.
      const at = lines[4]!.lastIndexOf('"rules_base64":"') + '"rules_base64":"'.length
      lines[4] = `${lines[4]!.slice(0, at)}\\u00${lines[4]!.charCodeAt(at).toString(16)}${lines[4]!.slice(at + 1)}`.replaceAll('/', '\\/')
      expect(JSON.parse(lines[4]!)).toEqual(JSON.parse(readFileSync(journal, 'utf8').split('\n')[4]!))
      writeFileSync(journal, lines.join('\n'))
      server.reset()
      const again = await run(args(file, out, more, { quiet: false }))
      expect(again.status, again.stderr).toBe(0)
      expect(again.stderr).not.toContain('warning')
      // Only the one never answered.
      expect(server.total).toBe(1)
      expect(server.asked.get('h4.journal.test')).toBe(1)
      if (format === 'bundle') {
        const store = RobotsStore.fromBytes(readFileSync(out))
        expect(store.size).toBe(5)
        for (const n of [1, 2, 3]) expect(store.get(`http://h${n}.journal.test:${server.port}`)!.isAllowed(`http://h${n}.journal.test:${server.port}/private/${n}`, 'bot')).toBe(false)
      } else {
        const records = readFileSync(out, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { origin: string; status: number })
        expect(records.map((r) => [r.origin, r.status])).toEqual(Array.from({ length: 5 }, (_, i) => [`http://h${i}.journal.test:${server.port}`, i === 0 ? 404 : 200]))
      }
      expect(existsSync(journal)).toBe(false)
    }
  })

  it('regression: journal lines that could not be taken up (an origin not in this run, one recorded twice, a name that is not ASCII) were dropped or mistaken for another origin without a word; now each kind is named in a warning with its line, and a record after a byte order mark is taken up', async () => {
    for (const format of ['bundle', 'jsonl']) {
      const file = input(`lines-${format}.txt`, 6)
      const out = tmp.path(`lines.${format}`)
      const more = ['--format', format]
      server.reset()
      const inner = server.handler
      server.handler = (host, req, res) => {
        if (host !== 'h5.journal.test') inner(host, req, res)
      }
      const first = await runKilledAfter(server, args(file, out, more, { concurrency: 1 }), 6, 'SIGKILL')
      server.handler = inner
      expect(first.signal).toBe('SIGKILL')
      const journal = `${out}.journal`
      const lines = readFileSync(journal, 'utf8').trimEnd().split('\n')
      expect(lines).toHaveLength(6)
      const origin = (n: number | string) => `http://h${n}.journal.test:${server.port}`
      const record = (n: number) => JSON.parse(lines[n + 1]!) as Record<string, unknown>
      const { origin: _o4, ...noOrigin } = record(4)
      // h2's record after a byte order mark (taken up, the mark left out of the output).
      lines[3] = `\uFEFF${lines[3]}`
      lines.push(
        // Line 7: h3's record again (the last one taken up, nothing fetched).
        lines[4]!,
        // Line 8: an origin the list lacks.
        JSON.stringify({ ...record(1), origin: origin('x') }),
        // Line 9: a name not ASCII, whose low bytes are h1's ('ı' is U+0131): not h1's record.
        JSON.stringify({ ...record(0), origin: origin('\u0131') }),
        // Line 10: an array; line 11: an origin only under "__proto__" (damaged: no "origin").
        JSON.stringify([record(1)]),
        JSON.stringify({ ['__proto__']: { origin: origin(4) }, ...noOrigin }),
      )
      expect(lines[10]).toContain('{"__proto__":{"origin":')
      writeFileSync(journal, `${lines.join('\n')}\n`)
      server.reset()
      const again = await run(args(file, out, more, { quiet: false }))
      expect(again.status, again.stderr).toBe(0)
      expect(again.stderr).toContain(`warning: the journal '${journal}' holds 2 damaged records (line 10: not an object): skipped, fetched again`)
      expect(again.stderr).toContain(`warning: the journal '${journal}' holds 2 records of origins not in this run (line 8: ${origin('x')}): left out`)
      expect(again.stderr).toContain(`warning: the journal '${journal}' holds 1 record of an origin recorded before (line 7: ${origin(3)}): the last record of each origin taken up`)
      expect(again.stderr).not.toContain('cut short')
      // Only the one never answered.
      expect(server.total).toBe(1)
      expect(server.asked.get('h5.journal.test')).toBe(1)
      const expected = Array.from({ length: 6 }, (_, i) => [origin(i), i === 0 ? 404 : 200])
      if (format === 'bundle') {
        const store = RobotsStore.fromBytes(readFileSync(out))
        expect([...store.keys()].map((k) => [k, store.fetchInfo(k)?.status])).toEqual(expected)
      } else {
        const text = readFileSync(out, 'utf8')
        expect(text).not.toContain('\uFEFF')
        const records = text.trimEnd().split('\n').map((l) => JSON.parse(l) as { origin: string; status: number })
        expect(records.map((r) => [r.origin, r.status])).toEqual(expected)
      }
      expect(existsSync(journal)).toBe(false)
    }
  })

  it('a record cut short by a kill is dropped and its origin fetched again; a run that fetches nothing leaves none', async () => {
    const file = input('torn.txt', 10)
    const out = tmp.path('torn.bundle')
    // One at a time; the last origin never answers, so the run is surely killed with nine in its journal.
    const inner = server.handler
    server.handler = (host, req, res) => {
      if (host !== 'h9.journal.test') inner(host, req, res)
    }
    const first = await runKilledAfter(server, args(file, out, [], { concurrency: 1 }), 10, 'SIGKILL')
    server.handler = inner
    expect(first.signal).toBe('SIGKILL')
    const journal = `${out}.journal`
    const text = readFileSync(journal, 'utf8')
    const lines = text.trimEnd().split('\n').length - 1
    expect(lines).toBe(9)
    // Cut the last record in the middle, as a kill while writing would.
    writeFileSync(journal, text.slice(0, text.length - 20))
    server.reset()
    const again = await run(args(file, out, [], { quiet: false }))
    expect(again.status, again.stderr).toBe(0)
    // Said (it was dropped in silence before).
    expect(again.stderr).toContain(`warning: the journal '${journal}' ends in a record cut short (a kill, a full disk): dropped, fetched again`)
    // The one never answered, and the one cut.
    expect(server.total).toBe(2)
    expect(RobotsStore.fromBytes(readFileSync(out)).size).toBe(10)
    // Nothing left to fetch: no journal is made.
    const noop = await run(['fetch', '--update', out, '-o', tmp.path('noop.bundle'), '-q', '--resolve', `*:${server.port}:127.0.0.1`])
    expect(noop.status, noop.stderr).toBe(0)
    expect(existsSync(tmp.path('noop.bundle.journal'))).toBe(false)
    expect(statSync(tmp.path('noop.bundle')).size).toBeGreaterThan(0)
  })
})
