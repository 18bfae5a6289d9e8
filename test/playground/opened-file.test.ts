/**
 * An opened file's bytes against the text the page shows for them
 * (src/playground/opened-file.ts): the page judges the bytes as served
 * while the text is unedited, whenever the two differ.
 */
import { describe, expect, it } from 'vitest'
import { parseRobots } from '../../src/index.js'
import { bodyOf, cappedInsert, fileText, firstBytes, MAX_FILE_BYTES, openedFile } from '../../src/playground/opened-file.js'

const bytes = (...parts: (string | number[])[]): Uint8Array => Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...Buffer.from(p)] : p)))
/** What a text field holds once given `text`: line ends as LF. */
const field = (text: string): string => text.replace(/\r\n?/g, '\n')

describe('opened files: judged as their bytes until edited', () => {
  it('a file whose text is its bytes is judged as text (no bytes kept)', () => {
    const b = bytes('User-agent: *\nDisallow: /caf\u00e9\n')
    expect(openedFile(b, field(fileText(b)))).toBeUndefined()
  })

  it('invalid UTF-8 is kept as bytes: the verdict is the one of the bytes as served, not of U+FFFD', () => {
    const b = bytes('User-agent: *\nDisallow: /caf', [0xe9], '\n')
    const shown = field(fileText(b))
    expect(shown).toBe('User-agent: *\nDisallow: /caf\ufffd\n')
    const file = openedFile(b, shown)
    expect(file?.utf8).toBe(false)
    const body = bodyOf(file, shown)
    expect(body).toBe(b)
    expect(parseRobots(body!).agent('bot').isAllowed('/caf%E9')).toBe(false)
    expect(parseRobots(shown).agent('bot').isAllowed('/caf%E9')).toBe(true)
    // Edited: the text is judged.
    expect(bodyOf(file, shown + 'Allow: /x\n')).toBeUndefined()
  })

  it('two files that show the same text are told apart', () => {
    const a = openedFile(bytes('Disallow: /', [0xe9]), 'Disallow: /\ufffd')
    const b = openedFile(bytes('Disallow: /', [0xff]), 'Disallow: /\ufffd')
    expect(a?.serial).not.toBe(b?.serial)
  })

  it('CRLF lines past the parsing limit: the bytes are judged, since LF lines would let more of the file in', () => {
    // CRLF lines up to about 511,900 bytes, then a rule whose line crosses the 512,000-byte limit as
    // served (so it is dropped) but not once each CRLF is one LF (about 6,000 bytes fewer).
    const line = `Disallow: /filler/${'a'.repeat(66)}\r\n`
    const lines = Math.floor((511_900 - 15) / line.length)
    const text = 'User-agent: *\r\n' + line.repeat(lines) + `Disallow: /late # ${'x'.repeat(300)}\r\n`
    const b = bytes(text)
    const shown = field(fileText(b))
    const file = openedFile(b, shown)
    expect(file?.utf8).toBe(true)
    const served = parseRobots(bodyOf(file, shown)!)
    expect(served.truncated).toBe(true)
    expect(served.agent('bot').isAllowed('/late')).toBe(parseRobots(b).agent('bot').isAllowed('/late'))
    expect(parseRobots(shown).agent('bot').isAllowed('/late')).not.toBe(served.agent('bot').isAllowed('/late'))
  })

  it('a BOM, dropped from the text, keeps the bytes (the reference skips it too)', () => {
    const b = bytes([0xef, 0xbb, 0xbf], 'User-agent: *\nDisallow: /x\n')
    const shown = field(fileText(b))
    expect(shown.startsWith('User-agent')).toBe(true)
    expect(openedFile(b, shown)?.bytes).toBe(b)
  })

  it('a file past the limit is cut before a character the limit would split, so valid UTF-8 stays valid (the page called such a file invalid UTF-8)', () => {
    const e = [0xc3, 0xa9]
    const euro = [0xe2, 0x82, 0xac]
    const four = [0xf0, 0x9f, 0x98, 0x80]
    // limit 5 on 'abcd' + a character: cut before the character when it does not fit whole.
    expect([...firstBytes(bytes('abcd', e), 5)]).toEqual([...bytes('abcd')])
    expect([...firstBytes(bytes('abc', e, 'x'), 5)]).toEqual([...bytes('abc', e)])
    expect([...firstBytes(bytes('ab', euro, 'x'), 4)]).toEqual([...bytes('ab')])
    expect([...firstBytes(bytes('a', four, 'x'), 4)]).toEqual([...bytes('a')])
    expect([...firstBytes(bytes('a', four, 'x'), 5)]).toEqual([...bytes('a', four)])
    expect([...firstBytes(bytes('abcdef'), 4)]).toEqual([...bytes('abcd')])
    // Invalid bytes are left as they are (a lone continuation byte, a lead byte alone in the middle).
    expect([...firstBytes(bytes('ab', [0x80, 0x80, 0x80, 0x80], 'x'), 5)]).toEqual([...bytes('ab', [0x80, 0x80, 0x80])])
    const short = bytes('ab')
    expect(firstBytes(short, 4)).toBe(short)
    for (let limit = 1; limit < 12; limit++) {
      const cut = firstBytes(bytes('a', e, euro, four, 'z'), limit)
      expect(() => new TextDecoder('utf-8', { fatal: true }).decode(cut)).not.toThrow()
      expect(cut.length).toBeGreaterThan(limit - 4)
    }
  })

  it('text pasted past the limit was inserted whole (seconds, or a hang, for megabytes): the editor keeps its first bytes as for an opened file, and the verdicts are the library\'s for them', () => {
    // Short results are left to the field (it keeps undo).
    expect(cappedInsert('abc', 1, 2, 'xyz', 12)).toBeUndefined()
    expect(cappedInsert('abc', 3, 3, 'd', 4)).toBeUndefined()
    // The selection is replaced, line ends become LF, and the cut falls before a character it would split.
    expect(cappedInsert('ab', 1, 1, 'x\r\ny\rz', 5)).toEqual({ text: 'ax\ny\n', caret: 5, size: 7 })
    expect(cappedInsert('', 0, 0, 'abc\u00e9', 4)).toEqual({ text: 'abc', caret: 3, size: 5 })
    expect(cappedInsert('0123456789', 2, 8, 'abcdef', 8)).toEqual({ text: '01abcdef', caret: 8, size: 10 })
    // A leading BOM is kept, as the field keeps it.
    expect(cappedInsert('', 0, 0, '\ufeffab', 4)?.text).toBe('\ufeffa')
    // About 4 MB of rules, some with a two-byte character, pasted over a short text.
    const lines = ['User-agent: *', 'Disallow: /x']
    for (let i = 0, n = 0; n < 4_000_000; i++) {
      const line = `Disallow: /s\u00e9ction-${i}/*/page.html$`
      lines.push(line)
      n += line.length + 1
    }
    const pasted = lines.join('\r\n') + '\r\nDisallow: /y\r\n'
    const capped = cappedInsert('User-agent: *\nAllow: /\n', 0, 24, pasted, MAX_FILE_BYTES)!
    const kept = Buffer.from(capped.text)
    expect(kept.length).toBeLessThanOrEqual(MAX_FILE_BYTES)
    expect(kept.length).toBeGreaterThan(MAX_FILE_BYTES - 4)
    expect(capped.size).toBe(Buffer.byteLength(field(pasted)))
    expect(field(pasted).startsWith(capped.text)).toBe(true)
    expect(capped.caret).toBe(capped.text.length)
    // What the page judges is what the library reads of the whole paste: its first 500 KiB.
    for (const url of ['/x', '/y', '/s%C3%A9ction-5/a/page.html', '/s%C3%A9ction-99999/a/page.html', '/z']) {
      expect(parseRobots(capped.text).agent('bot').isAllowed(url)).toBe(parseRobots(field(pasted)).agent('bot').isAllowed(url))
    }
  })
})
