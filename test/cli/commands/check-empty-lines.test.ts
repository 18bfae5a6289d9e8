/**
 * An empty line of `check`'s stdin (a blank line, a list ending in two line
 * ends) is judged, as the reference judges any string, and in its place, so
 * that outputs stay aligned with inputs; but it is no URL a user meant, so it
 * is never judged in silence: the first gets a warning naming its line, and
 * the count says how many there were.
 */
import { writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, run, tempDir } from '../helpers.js'

const tmp = tempDir()
beforeAll(() => {
  ensureBuilt()
  // The empty URL is the path /, which only "Allow: /$" allows here.
  writeFileSync(tmp.path('r.txt'), 'User-agent: *\nDisallow: /\nAllow: /$\n')
})
afterAll(() => tmp.cleanup())

describe('check: empty lines of stdin', () => {
  it("regression: a blank stdin line was judged 'allowed' with no word said; now it is judged in its place and named in a warning and the count", async () => {
    for (const input of ['/x\n\n/y\n\n', '/x\r\n\r\n/y\r\n\r\n']) {
      const r = await run(['check', tmp.path('r.txt'), '--agent', 'A'], { input })
      expect(r.status).toBe(0)
      expect(r.stdout.toString()).toBe('disallowed\t/x\tline 2: Disallow: /\nallowed\t\tline 3: Allow: /$\ndisallowed\t/y\tline 2: Disallow: /\nallowed\t\tline 3: Allow: /$\n')
      expect(r.stderr).toBe(
        'robots-automaton: warning: line 2 of stdin is empty: judged as the empty URL (the reference reads it as the path /), as every empty line is\n' +
          'robots-automaton: 4 URLs checked (2 empty lines of stdin among them): 2 allowed, 2 disallowed\n',
      )
    }
  })

  it("regression: stdin whose lines end with CR alone was judged as one URL with no word said; it is still judged whole (check judges any string), and named in a warning", async () => {
    const r = await run(['check', tmp.path('r.txt'), '--agent', 'A'], { input: '/x\r/y\r' })
    expect(r.stdout.toString()).toBe('disallowed\t/x\\x0d/y\tline 2: Disallow: /\n')
    expect(r.stderr).toBe(
      "robots-automaton: warning: line 1 of stdin holds a CR that ends no line: judged whole, as one URL (lines that end with CR alone? convert them: tr '\\r' '\\n')\n" +
        // A client strips the CR, and asks for another path: named and counted as such too.
        "robots-automaton: warning: '/x\\x0d/y' is judged as written; clients and servers resolve it to '/x/y'\n" +
        'robots-automaton: 1 URL checked: 0 allowed, 1 disallowed; 1 URL that clients resolve to another path\n',
    )
    const crlf = await run(['check', tmp.path('r.txt'), '--agent', 'A'], { input: '/x\r\n/y\r\n' })
    expect(crlf.stderr).toBe('robots-automaton: 2 URLs checked: 0 allowed, 2 disallowed\n')
  })

  it('JSON lines and --crawlers alike; --quiet drops the warning with the count; no empty line, no word', async () => {
    const json = await run(['check', tmp.path('r.txt'), '--agent', 'A', '--json'], { input: '\n/x\n' })
    expect(json.stdout.toString().split('\n')[0]).toBe('{"url":"","allowed":true,"rule":{"line":3,"kind":"allow","pattern":"/$"}}')
    expect(json.stderr).toMatch(/^robots-automaton: warning: line 1 of stdin is empty: /)
    const set = await run(['check', tmp.path('r.txt'), '--crawlers', 'A,B'], { input: '/x\n\n' })
    expect(set.stderr).toMatch(/warning: line 2 of stdin is empty: .*\n.*2 URLs checked \(1 empty line of stdin among them\): 1 allowed for every crawler/)
    const quiet = await run(['check', tmp.path('r.txt'), '--agent', 'A', '-q'], { input: '\n' })
    expect([quiet.stdout.toString(), quiet.stderr]).toEqual(['allowed\t\tline 3: Allow: /$\n', ''])
    const none = await run(['check', tmp.path('r.txt'), '--agent', 'A'], { input: '/x\n/y' })
    expect(none.stderr).toBe('robots-automaton: 2 URLs checked: 0 allowed, 2 disallowed\n')
  })
})

describe('check: lines and arguments that are no URL', () => {
  const LOG = '127.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "GET /x HTTP/1.1" 200 5 "-" "curl/8"'
  it("regression: an access log's lines (or example.com/x) were judged by a path the reference cut from them with no word said; still judged, the first named with a hint, the count says how many", async () => {
    const r = await run(['check', tmp.path('r.txt'), '--agent', 'A'], { input: `/x\n${LOG}\n${LOG}\n` })
    expect(r.status).toBe(0)
    // The reference's reading of the whole line: its path starts at 10/Oct's '/'.
    expect(r.stdout.toString().split('\n')[1]).toBe(`disallowed\t${LOG}\tline 2: Disallow: /`)
    expect(r.stderr).toBe(
      `robots-automaton: warning: line 2 of stdin is neither a path (/…) nor an http(s) URL with a host: ${LOG}; judged as the reference reads any string, its path from the first '/', '?' or ';'; it is a log line: filter --log-format combined judges a log's requests\n` +
        'robots-automaton: 3 URLs checked: 0 allowed, 3 disallowed; 2 neither a path nor an http(s) URL\n',
    )
    const args = await run(['check', tmp.path('r.txt'), '--agent', 'A', 'example.com/x', 'http://example.com/x', '/x', '', 'ftp://example.com/'])
    expect(args.stderr).toBe(
      "robots-automaton: warning: URL 'example.com/x' is neither a path (/…) nor an http(s) URL with a host: judged as the reference reads any string, its path from the first '/', '?' or ';'\n" +
        'robots-automaton: 5 URLs checked: 2 allowed, 3 disallowed; 2 neither a path nor an http(s) URL\n',
    )
  })
})
