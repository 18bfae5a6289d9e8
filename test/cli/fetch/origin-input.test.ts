/**
 * The origins `fetch` collects, read as `filter` reads lines: one per
 * distinct origin in the order first seen, keyed as `filter --bundle` looks
 * lines up (a URL by its origin, a host column or --host by its bare host),
 * whatever the case, user info or default port; a bare host's port picks
 * its scheme; lines without a URL or host and unusable hosts are counted,
 * not fetched; memory bounded by the origins, not the lines.
 */
import { writeFileSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { parseArgs } from '../../../src/cli/common/args.js'
import { OriginList, readOrigins } from '../../../src/cli/fetch/origin-input.js'
import { resolveInputs } from '../../../src/cli/filter/input.js'
import { INPUT_OPTIONS, lineLayout } from '../../../src/cli/filter/line-layout.js'
import { LineFault } from '../../../src/cli/filter/line-locator.js'
import { tempDir } from '../helpers.js'

const tmp = tempDir()
afterAll(() => tmp.cleanup())

/** The OriginList of `text` read with the input options `options`. */
async function origins(text: string, options: string[] = [], scheme: 'http' | 'https' = 'https'): Promise<OriginList> {
  const file = tmp.path(`in-${Math.random().toString(36).slice(2)}.txt`)
  writeFileSync(file, text)
  const list = new OriginList(scheme)
  await readOrigins(await resolveInputs([file]), lineLayout(parseArgs(options, INPUT_OPTIONS)), list)
  return list
}

describe('readOrigins', () => {
  it('URL lines: one origin each, canonical keys, in the order first seen', async () => {
    const list = await origins(
      [
        'https://B.test/a',
        'https://b.test:443/b?x',
        'https://user@b.test/c',
        'http://b.test/d',
        'https://b.test:8443/e',
        'https://[::1]:8080/f',
        'https://xn--bcher-kva.test/g',
        'https://b.test:99999/bad-port',
        'ftp://c.test/x',
        '/path/only',
        '',
        'https://b.test',
      ].join('\n') + '\n',
    )
    expect([...list.origins]).toEqual([
      ['https://b.test', 'https://b.test'],
      ['http://b.test', 'http://b.test'],
      ['https://b.test:8443', 'https://b.test:8443'],
      ['https://[::1]:8080', 'https://[::1]:8080'],
      ['https://xn--bcher-kva.test', 'https://xn--bcher-kva.test'],
    ])
    expect(list.lines).toBe(12)
    // A port that is not one: the URL parser refuses the URL, a line named as such.
    expect(Object.fromEntries(list.faults)).toEqual({ 'bad-host': 1, 'not-url': 1, 'no-host': 1, empty: 1 })
    expect(list.firstFault).toEqual({ fault: LineFault.BadHost, input: expect.stringMatching(/in-/), line: 8, text: 'https://b.test:99999/bad-port', detail: 'its port is not a number from 0 to 65535' })
    expect(list.unusable).toBe(0)
  })

  it('host columns: bare-host keys; :80 is http, :443 https, another port or none the scheme given', async () => {
    const log = ['a.test:80', 'A.TEST:443', 'b.test:443', 'c.test', 'd.test:8080', 'https://e.test:444/x', '[::1]:80']
      .map((h) => `${h} "GET /p HTTP/1.1" 200`)
      .join('\n')
    const list = await origins(`${log}\n`, ['--field', '2', '--host-field', '1'])
    expect([...list.origins]).toEqual([
      ['a.test', 'http://a.test'],
      ['b.test', 'https://b.test'],
      ['c.test', 'https://c.test'],
      ['d.test', 'https://d.test:8080'],
      ['e.test', 'https://e.test:444'],
      ['[::1]', 'http://[::1]'],
    ])
    const plain = await origins('f.test:8081 "GET /p HTTP/1.1"\ng.test "GET /q HTTP/1.1"\n', ['--field', '2', '--host-field', '1'], 'http')
    expect([...plain.origins]).toEqual([
      ['f.test', 'http://f.test:8081'],
      ['g.test', 'http://g.test'],
    ])
  })

  it('log formats and --host, as filter reads them', async () => {
    const vhost = 'www.example.test:443 192.0.2.1 - - [23/Nov/2026:10:00:00 +0000] "GET /a?b HTTP/1.1" 200 512 "-" "M"\n'
    expect([...(await origins(vhost, ['--log-format', 'vhost_combined'])).origins]).toEqual([['www.example.test', 'https://www.example.test']])
    const combined = '192.0.2.1 - - [23/Nov/2026:10:00:00 +0000] "GET /a HTTP/1.1" 200 512 "-" "M"\n'
    const noHost = await origins(combined, ['--log-format', 'combined'])
    expect(noHost.origins.size).toBe(0)
    expect(Object.fromEntries(noHost.faults)).toEqual({ 'no-host': 1 })
    expect([...(await origins(combined, ['--log-format', 'combined', '--host', 'http://one.test:8080'])).origins]).toEqual([['one.test', 'http://one.test:8080']])
    // A proxy's absolute URL in the request line is its own origin.
    const proxy = '192.0.2.1 - - [23/Nov/2026:10:00:00 +0000] "GET http://p.test/x HTTP/1.1" 200 512 "-" "M"\n'
    expect([...(await origins(proxy, ['--log-format', 'combined'])).origins]).toEqual([['http://p.test', 'http://p.test']])
    // Read without a log format, a log line holds no URL: counted, and named.
    const misread = await origins(combined)
    expect(misread.origins.size).toBe(0)
    expect(misread.firstFault?.fault).toBe(LineFault.NotUrl)
  })

  it('regression: many raw spellings of few origins do not grow memory without bound (the cache is cleared when full)', async () => {
    const lines: string[] = []
    for (let i = 0; i < 100_000; i++) lines.push(`https://A${i % 7 === 0 ? 'X' : ''}.test:${1000 + (i % 60_000)}/x`)
    const list = await origins(lines.join('\n') + '\n')
    expect(list.origins.size).toBe(new Set(lines.map((l) => new URL(l).origin)).size)
    expect((list as unknown as { raw: Map<string, string> }).raw.size).toBeLessThanOrEqual(1 << 16)
  })
})
