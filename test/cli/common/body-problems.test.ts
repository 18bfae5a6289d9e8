// robots.txt bodies that are not robots.txt: HTML, UTF-16, binary, truncated (issue 12, item 3).
import { describe, expect, it } from 'vitest'
import { gzipSync } from 'node:zlib'
import { parseRobots } from '../../../src/index.js'
import { allowsEverything, bodyProblem, bodyWarning } from '../../../src/cli/common/body-problems.js'

describe('bodyProblem', () => {
  it('finds HTML, UTF-16, binary and truncated bodies; ordinary files have none', () => {
    expect(bodyProblem(parseRobots('User-agent: *\nDisallow: /x\n'))).toBeUndefined()
    expect(bodyProblem(parseRobots('User-agent: *\nDisallow: /x\n\u0001 a stray control line\n'))).toBeUndefined()
    expect(bodyProblem(parseRobots('<!DOCTYPE html>\n<html><body>Not found</body></html>\n'))).toBe('html')
    // UTF-16: the library's utf16-body where it has it, binary otherwise; either way a warning.
    const utf16 = parseRobots(Buffer.from('\ufeffUser-agent: *\nDisallow: /\n', 'utf16le'))
    expect(['utf16', 'binary']).toContain(bodyProblem(utf16))
    expect(bodyProblem(parseRobots(gzipSync('User-agent: *\nDisallow: /\n'.repeat(50))))).toBe('binary')
    const big = parseRobots(`User-agent: *\n${'Disallow: /a-long-enough-rule\n'.repeat(20_000)}`)
    expect(bodyProblem(big)).toBe('truncated')
    expect(bodyWarning('x.txt', 'truncated', big, true)).toMatch(/^warning: 'x\.txt' is larger than the parsing limit; only its first [\d,]+ bytes are read \[truncated\]$/)
  })

  it('a UTF-16 or HTML body the reference still reads rules from: its warning does not say URLs allowed', () => {
    const utf16 = parseRobots(new Uint8Array([0xff, 0xfe, ...Buffer.from('\nUser-agent: *\nDisallow: /\n')]))
    expect(bodyProblem(utf16)).toBe('utf16')
    expect(utf16.isAllowed('/x', 'bot')).toBe(false)
    expect(allowsEverything(utf16, [['bot']])).toBe(false)
    const u = bodyWarning('u.txt', 'utf16', utf16, false)
    expect(u).not.toContain('URLs allowed')
    expect(u).toContain('finds rules in it that disallow URLs')
    const pre = parseRobots('<!DOCTYPE html>\n<html><body><pre>\nUser-agent: *\nDisallow: /private\n</pre></body></html>\n')
    expect(bodyProblem(pre)).toBe('html')
    expect(allowsEverything(pre, [['bot'], ['other']])).toBe(false)
    expect(bodyWarning('p.txt', 'html', pre, false)).not.toContain('URLs allowed')
    // A crawler the rules leave alone may be told so, and a page without rules still says it.
    const named = parseRobots('<html>\nUser-agent: a\nDisallow: /\n')
    expect(allowsEverything(named, [['b']])).toBe(true)
    expect(allowsEverything(named, [['a'], ['b']])).toBe(false)
    const page = parseRobots('<!DOCTYPE html>\n<html><body>Not found</body></html>\n')
    expect(allowsEverything(page, [['bot']])).toBe(true)
    expect(bodyWarning('n.txt', 'html', page, true)).toMatch(/URLs allowed$/)
    expect(bodyWarning('n.txt', 'utf16', page, true)).toMatch(/URLs allowed$/)
    expect(bodyWarning('n.txt', 'html', page, undefined)).not.toContain('allowed')
  })

  it('binary data with more diagnostics than the list keeps is still binary', () => {
    let seed = 7
    const junk = new Uint8Array(200_000).map(() => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 24))
    expect(bodyProblem(parseRobots(junk))).toBe('binary')
  })
})
