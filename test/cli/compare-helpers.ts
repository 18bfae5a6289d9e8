/** Running `compare` (dist/cli.js) with a JSON report, and reading the outputs it writes, for the tests of test/cli/commands/compare-*.test.ts. */
import { existsSync, readFileSync } from 'node:fs'
import type { Report, ReportedCase } from '../../src/compare/report/report-model.js'
import { run } from './helpers.js'

/** What a run gave: its exit status, stdout, stderr, and the report (undefined when none was written). */
export interface CompareRun {
  status: number | null
  stdout: string
  stderr: string
  report: Report & { cases: ReportedCase[] }
}

/** Runs `compare ARGS --json FILE` and reads the report back. */
export async function compareWithJson(args: readonly string[], json: string, env?: NodeJS.ProcessEnv): Promise<CompareRun> {
  const r = await run(['compare', ...args, '--json', json], env ? { env: { ...process.env, ...env } } : {})
  if (!existsSync(json)) throw new Error(`no report (exit ${r.status}): ${r.stderr}`)
  return { status: r.status, stdout: r.stdout.toString(), stderr: r.stderr, report: JSON.parse(readFileSync(json, 'utf8')) as CompareRun['report'] }
}

/** Per category: [cases, verdict, line, errors]. */
export function byCategory(r: Report): Record<string, number[]> {
  return Object.fromEntries(r.categories.map((c) => [c.id, [c.cases, c.verdict, c.line, c.errors]]))
}

/** One XML element as the well-formedness check reads it. */
export interface XmlElement {
  name: string
  attributes: Record<string, string>
  children: XmlElement[]
  text: string
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }

/**
 * Text or an attribute value as an XML parser gives it: line breaks
 * normalised (CR LF and CR to LF; in an attribute, tab and line breaks to
 * spaces), then entities and character references replaced.
 */
function unescapeXml(s: string, where: string): string {
  s = s.replace(/\r\n?/g, '\n')
  if (where !== 'text') s = s.replace(/[\t\n]/g, ' ')
  return s.replace(/&([^;]*);/g, (_, e: string) => {
    const ref = /^#(?:x([0-9a-fA-F]+)|([0-9]+))$/.exec(e)
    if (ref) return String.fromCodePoint(ref[1] ? parseInt(ref[1], 16) : Number(ref[2]))
    if (!(e in ENTITIES)) throw new Error(`unknown entity &${e}; in ${where}`)
    return ENTITIES[e]
  })
}

/**
 * Parses the XML the reports write (a declaration, elements, attributes in
 * double quotes, text; no comments, CDATA or DTD) and throws on anything not
 * well-formed: an unbalanced tag, a raw `<` or `&` in text or attributes, a
 * character XML cannot hold.
 */
export function parseXml(xml: string): XmlElement {
  if (/[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]/.test(xml)) throw new Error('a character XML 1.0 cannot hold')
  let pos = 0
  const decl = /^<\?xml [^?]*\?>\s*/.exec(xml)
  if (decl) pos = decl[0].length
  const stack: XmlElement[] = []
  let root: XmlElement | undefined
  while (pos < xml.length) {
    const lt = xml.indexOf('<', pos)
    const text = xml.slice(pos, lt < 0 ? xml.length : lt)
    if (text.trim() !== '') {
      if (stack.length === 0) throw new Error(`text outside the root: ${text.slice(0, 40)}`)
      stack[stack.length - 1].text += unescapeXml(text, 'text')
    }
    if (lt < 0) break
    const gt = xml.indexOf('>', lt)
    if (gt < 0) throw new Error('an unterminated tag')
    const tag = xml.slice(lt + 1, gt)
    pos = gt + 1
    if (tag.startsWith('/')) {
      const open = stack.pop()
      if (open?.name !== tag.slice(1)) throw new Error(`</${tag.slice(1)}> closes <${open?.name}>`)
      continue
    }
    const m = /^([A-Za-z][\w-]*)((?:\s+[\w-]+="[^"<]*")*)\s*(\/?)$/.exec(tag)
    if (!m) throw new Error(`a malformed tag: <${tag.slice(0, 80)}>`)
    const attributes: Record<string, string> = {}
    for (const a of m[2].matchAll(/([\w-]+)="([^"]*)"/g)) attributes[a[1]] = unescapeXml(a[2], `attribute ${a[1]}`)
    const el: XmlElement = { name: m[1], attributes, children: [], text: '' }
    if (stack.length > 0) stack[stack.length - 1].children.push(el)
    else if (root) throw new Error('two root elements')
    else root = el
    if (m[3] !== '/') stack.push(el)
  }
  if (stack.length > 0 || !root) throw new Error(`unclosed <${stack.at(-1)?.name}>`)
  return root
}

/** Parses CSV as RFC 4180 writes it (quoted fields may hold commas, quotes doubled, line breaks). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let i = 0
  let quoted = false
  while (i < text.length) {
    const c = text[i]
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"'
        i += 2
      } else if (c === '"') {
        quoted = false
        i++
      } else field += text[i++]
    } else if (c === '"' && field === '') {
      quoted = true
      i++
    } else if (c === ',') {
      row.push(field)
      field = ''
      i++
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field)
      rows.push(row)
      row = []
      field = ''
      i += 2
    } else field += text[i++]
  }
  if (field !== '' || row.length > 0) {
    row.push(field)
    rows.push(row)
  }
  return rows
}
