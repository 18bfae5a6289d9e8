// What compare's outputs make of hostile values: case ids, agents, URLs and
// categories from a case file, error messages from the implementation, names
// from a matrix file. Each output stays well-formed and shows every value
// (CSV lossless, no formula cells; JUnit with lone surrogates shown, not
// turned into U+FFFD; HTML and Markdown with controls and bidi overrides
// shown; a text report where no value starts a line of its own).
import { readFileSync, writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseCsv, parseXml, type XmlElement } from '../compare-helpers.js'
import { ensureBuilt, run, tempDir, type RunResult } from '../helpers.js'

const NODE = process.execPath
const FORGED = '✗ forged:case  (verdict differs)  [none]'

/** The cases: ids, agents and categories a spreadsheet would run, a line break, a bidi override, a literal `\x09`. */
const CASES = [
  { id: '=HYPERLINK("http://x.test","y")', agent: '@SUM(1)', url: 'https://example.com/p', categories: ['+cat'] },
  { id: '-1', agent: 'FooBot', url: 'https://example.com/err' },
  { id: `real\n${FORGED}`, agent: 'FooBot', url: 'https://example.com/p/\u202egnp.exe\u001b[2J' },
  { id: '-x\\x09', agent: 'Foo\tBot', url: 'https://example.com/p,"q"\r\n' },
].map((c) => ({ ...c, robots: 'User-agent: *\nDisallow: /p\n' }))

/** The implementation's error: a lone surrogate, NUL, ESC, a line break that forges a line, `]]>`, U+2028, a formula. */
const ERROR = `=1+1\u0000\ud800 \u001b[2J]]>\u2028\n${FORGED}`

/** A batch adapter that answers allowed (line 0), or the error for a URL ending in /err. */
const ADAPTER = `import { createInterface } from 'node:readline'
createInterface({ input: process.stdin }).on('line', (line) => {
  const r = JSON.parse(line)
  process.stdout.write(JSON.stringify(r.url.endsWith('/err') ? { id: r.id, error: ${JSON.stringify(ERROR)} } : { id: r.id, allowed: true, line: 0 }) + '\\n')
})
`

/** Undoes the escapes of printable text (`\xHH`, `\u{H…}`, `\\`). */
function unescape(s: string): string {
  return s.replace(/\\(\\|x([0-9a-f]{2})|u\{([0-9a-f]+)\})/gi, (_, e: string, x?: string, u?: string) => (e === '\\' ? '\\' : String.fromCodePoint(parseInt((x ?? u)!, 16))))
}

/** The cells of a Markdown table row as GFM splits them: a pipe ends a cell unless a backslash escapes it (`\\` is an escaped backslash). */
function mdCells(row: string): string[] {
  const cells: string[] = []
  let cell = ''
  for (let i = 1; i < row.length; i++) {
    if (row[i] === '\\' && i + 1 < row.length) cell += row[i] + row[++i]
    else if (row[i] === '|') (cells.push(cell.trim()), (cell = ''))
    else cell += row[i]
  }
  return cells
}

function all(e: XmlElement): XmlElement[] {
  return [e, ...e.children.flatMap(all)]
}

const tmp = tempDir()
let r: RunResult
beforeAll(async () => {
  ensureBuilt()
  writeFileSync(tmp.path('cases.jsonl'), CASES.map((c) => JSON.stringify(c)).join('\n') + '\n')
  writeFileSync(tmp.path('adapter.mjs'), ADAPTER)
  const o = (ext: string): string[] => [`--${ext === 'xml' ? 'junit' : ext}`, tmp.path(`out.${ext}`)]
  r = await run(['compare', '--cases', tmp.path('cases.jsonl'), '--batch', `${NODE} ${tmp.path('adapter.mjs')}`, '--minimise', '0', ...o('csv'), ...o('xml'), ...o('html'), ...o('json'), '--export', tmp.path('export.jsonl')])
})
afterAll(() => tmp.cleanup())

describe('compare outputs with hostile values', () => {
  it('csv formula cells: a value starting with = + - @ is written \\x3d, \\x2b, \\x2d, \\x40 (a number as it is), and every value comes back whole', () => {
    expect(r.status).toBe(3)
    const text = readFileSync(tmp.path('out.csv'), 'utf8')
    expect(text).not.toContain('\ufffd')
    const [header, ...rows] = parseCsv(text)
    expect(rows).toHaveLength(CASES.length)
    for (const row of rows) {
      expect(row).toHaveLength(header.length)
      for (const cell of row) expect(/^[=+@]|^-(?![\d.])/.test(cell), cell).toBe(false)
    }
    const col = (row: string[], name: string): string => unescape(row[header.indexOf(name)])
    CASES.forEach((c, i) => {
      expect(col(rows[i], 'id')).toBe(c.id)
      expect(col(rows[i], 'agent')).toBe(c.agent)
      expect(col(rows[i], 'url')).toBe(c.url)
    })
    expect(rows[0][header.indexOf('id')]).toBe('\\x3dHYPERLINK("http://x.test","y")')
    expect(rows[0][header.indexOf('agent')]).toBe('\\x40SUM(1)')
    expect(rows[1][header.indexOf('id')]).toBe('-1')
    expect(rows[3][header.indexOf('id')]).toBe('\\x2dx\\\\x09')
    expect(col(rows[1], 'error')).toBe(ERROR)
  })

  it('junit lone surrogate: shown as \\u{d800} (not turned into U+FFFD), the file well-formed', () => {
    const text = readFileSync(tmp.path('out.xml'), 'utf8')
    expect(text).not.toContain('\ufffd')
    const errors = all(parseXml(text)).filter((e) => e.name === 'error')
    expect(errors).toHaveLength(1)
    expect(errors[0].attributes.message).toContain('=1+1\\x00\\u{d800} \\x1B[2J]]>')
  })

  it('html controls and bidi overrides: shown as escapes, none written raw', () => {
    const page = readFileSync(tmp.path('out.html'), 'utf8')
    expect(page).not.toMatch(/[\u0000\u001b\u202e\ufffd]/)
    expect(page).toMatch(/\\u\{202e\}gnp\.exe\\x1b\[2J/i)
    expect(page).toMatch(/=1\+1\\x00\\u\{d800\} \\x1b\[2J/i)
  })

  it('json bidi overrides and separators: the report and --export write them as \\u escapes (the same JSON value, safe on a terminal)', () => {
    const report = readFileSync(tmp.path('out.json'), 'utf8')
    const exported = readFileSync(tmp.path('export.jsonl'), 'utf8')
    for (const text of [report, exported]) expect(text).not.toMatch(/[\u2028\u202e\u0085\u009b]/)
    expect((JSON.parse(report) as { cases: { id: string }[] }).cases.map((c) => c.id)).toEqual(CASES.map((c) => c.id))
    expect(exported.trimEnd().split('\n').map((l) => (JSON.parse(l) as { url: string }).url)).toEqual(CASES.map((c) => c.url))
    expect(report).toContain('\\u2028')
  })

  it('terminal line forging: a line break in a case id or an error does not start a line of its own', () => {
    const out = r.stdout.toString()
    expect(out).not.toMatch(/^✗ forged/m)
    expect(out).toContain('✗ real\\x0A✗ forged')
    expect(out).toContain('error: =1+1\\x00\\u{d800} \\x1B[2J]]>\\u{2028}\\x0A✗ forged')
  })
})

describe('compare --matrix outputs with hostile names', () => {
  const names = ['__proto__', 'a\\|b', `x\ny ${FORGED}`, 'r\u202eeverse', '# head']
  let text: RunResult
  let jsonl: RunResult
  beforeAll(async () => {
    const adapters = names.map((name) => ({ name, batch: `${NODE} ${tmp.path('adapter.mjs')}`, note: `# ${name}` }))
    writeFileSync(tmp.path('matrix.json'), JSON.stringify({ sets: [tmp.path('cases.jsonl')], adapters }))
    ;[text, jsonl] = await Promise.all([
      run(['compare', '--matrix', tmp.path('matrix.json'), '--markdown', tmp.path('board.md'), '-q']),
      run(['compare', '--matrix', tmp.path('matrix.json'), '--format', 'jsonl', '-q']),
    ])
  })

  it('markdown cells: a name is text (no bold, no heading), its pipe, backslash and line break keep the row whole', () => {
    expect(text.status).toBe(0)
    const md = readFileSync(tmp.path('board.md'), 'utf8')
    for (const table of md.split('\n\n').filter((b) => b.startsWith('| '))) {
      const lines = table.trim().split('\n')
      for (const l of lines) expect(mdCells(l), l).toHaveLength(mdCells(lines[0]).length)
    }
    expect(md).not.toMatch(/[^\\]__proto/)
    expect(md).toContain('\\_\\_proto\\_\\_')
    expect(md).toContain('a\\\\\\|b')
    expect(md).toContain('- \\# head: # # head\n')
    expect(md).not.toMatch(/\u202e|^✗/m)
  })

  it('matrix text and jsonl: a name holding a line break stays on its row; no bidi override written raw', () => {
    const out = text.stdout.toString()
    expect(out).not.toMatch(/^y ✗|^✗ forged/m)
    expect(out).toContain('x\\x0Ay ✗ forged')
    const lines = jsonl.stdout.toString().trimEnd().split('\n')
    expect(lines.length).toBeGreaterThan(0)
    expect(jsonl.stdout.toString()).not.toContain('\u202e')
    expect(lines.map((l) => JSON.parse(l).implementation ?? JSON.parse(l).name)).toContain('r\u202eeverse')
  })
})
