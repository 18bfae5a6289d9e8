/**
 * `--cases spec-test:PATH`: google/robotstxt-spec-test case files (one
 * `.textproto`, or every one under a folder), each a
 * `specification.RobotsTxtSpecification` in protobuf text format (read by
 * {@link parseTextFormat}; cases made by {@link specTestCases}):
 *     tests { robotstxt: "User-agent: *\n" "Disallow: /x\n" test_type: GOOGLE_SPECIFIC
 *             test_expectations { testurl: "http://a/x" useragent: "foo" expected_outcome: DISALLOWED } }
 */
import { readdirSync, statSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'
import type { CaseInput } from '../case.js'
import { CompareError, readError } from '../compare-error.js'
import { fileName, readInputFile, shownBytes } from '../input-file.js'

/** Largest .textproto file read (the spec-test's are a few KiB each). */
const MAX_TEXTPROTO_BYTES = 64 << 20
/** Deepest nesting of messages read, as protobuf's own text parser allows (its default recursion limit). */
const MAX_DEPTH = 100

/** A parsed value: bytes for a string, a name for an identifier (enum), text for a number, or a message. */
export type TextValue =
  | { readonly kind: 'string'; readonly bytes: Uint8Array; readonly line: number }
  | { readonly kind: 'ident'; readonly text: string; readonly line: number }
  | { readonly kind: 'number'; readonly text: string; readonly line: number }
  | { readonly kind: 'message'; readonly fields: TextMessage; readonly line: number }

/** A message: the values of each field name, in file order (repeated fields hold several). */
export type TextMessage = Map<string, TextValue[]>

/** A syntax error in a text-format file, with its position. */
export class TextFormatError extends CompareError {
  constructor(file: string, line: number, column: number, message: string) {
    super('ERR_READ', `${file}:${line}:${column}: ${message}`)
    this.name = 'TextFormatError'
  }
}

const SIMPLE_ESCAPES: Record<number, number> = {
  0x61: 7, 0x62: 8, 0x66: 12, 0x6e: 10, 0x72: 13, 0x74: 9, 0x76: 11, 0x3f: 0x3f, 0x5c: 0x5c, 0x27: 0x27, 0x22: 0x22,
}

function isIdentStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95
}
function isIdentPart(c: number): boolean {
  return isIdentStart(c) || (c >= 48 && c <= 57)
}
function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48
  const l = c | 32
  return l >= 97 && l <= 102 ? l - 87 : -1
}

/**
 * Parses protobuf text format into messages of raw values. The reader follows
 * the text format: `#` comments; `:` optional before a message; fields
 * separated by whitespace, `,` or `;`; messages in `{}` or `<>`; repeated
 * fields written one by one or as a `[a, b]` list; adjacent string literals
 * concatenate; escapes `\n \t \r \a \b \f \v \? \" \' \\`, octal `\ooo`, hex
 * `\xH(H)` stand for bytes and `\uXXXX`, `\UXXXXXXXX` for the UTF-8 of a
 * code point; other bytes of the file are taken as they are.
 */
export function parseTextFormat(bytes: Uint8Array, file = '<input>'): TextMessage {
  let pos = 0
  let line = 1
  let lineStart = 0
  const fail = (message: string, at = pos): never => {
    throw new TextFormatError(file, line, at - lineStart + 1, message)
  }
  const skip = (): void => {
    while (pos < bytes.length) {
      const c = bytes[pos]
      if (c === 10) {
        pos++
        line++
        lineStart = pos
      } else if (c === 32 || c === 9 || c === 13 || c === 11 || c === 12) pos++
      else if (c === 35) {
        while (pos < bytes.length && bytes[pos] !== 10) pos++
      } else break
    }
  }
  const peek = (): number => {
    skip()
    return pos < bytes.length ? bytes[pos] : -1
  }
  const expect = (c: number, what: string): void => {
    if (peek() !== c) fail(`expected ${what}`)
    pos++
  }
  const ident = (): string => {
    skip()
    const start = pos
    if (!isIdentStart(bytes[pos])) fail('expected a field name')
    while (pos < bytes.length && isIdentPart(bytes[pos])) pos++
    return Buffer.from(bytes.subarray(start, pos)).toString('latin1')
  }
  const stringLiteral = (out: number[]): void => {
    const open = pos
    const quote = bytes[pos++]
    for (;;) {
      if (pos >= bytes.length || bytes[pos] === 10) fail('unterminated string', open)
      const c = bytes[pos++]
      if (c === quote) return
      if (c !== 0x5c) {
        out.push(c)
        continue
      }
      if (pos >= bytes.length) fail('unterminated string', open)
      const e = bytes[pos++]
      if (SIMPLE_ESCAPES[e] !== undefined) out.push(SIMPLE_ESCAPES[e])
      else if (e >= 48 && e <= 55) {
        let v = e - 48
        for (let k = 0; k < 2 && bytes[pos] >= 48 && bytes[pos] <= 55; k++) v = v * 8 + (bytes[pos++] - 48)
        if (v > 255) fail('octal escape above \\377', pos - 4)
        out.push(v)
      } else if (e === 0x78 || e === 0x58) {
        let v = hexValue(bytes[pos])
        if (v < 0) fail('\\x needs a hex digit')
        pos++
        const h = hexValue(bytes[pos] ?? -1)
        if (h >= 0) {
          v = v * 16 + h
          pos++
        }
        out.push(v)
      } else if (e === 0x75 || e === 0x55) {
        const n = e === 0x75 ? 4 : 8
        let cp = 0
        for (let k = 0; k < n; k++) {
          const h = hexValue(bytes[pos] ?? -1)
          if (h < 0) fail(`\\${String.fromCharCode(e)} needs ${n} hex digits`)
          cp = cp * 16 + h
          pos++
        }
        if (cp > 0x10ffff) fail('code point above U+10FFFF')
        for (const b of Buffer.from(String.fromCodePoint(cp), 'utf8')) out.push(b)
      } else fail(`unknown escape \\${String.fromCharCode(e)}`, pos - 2)
    }
  }
  const scalar = (): TextValue => {
    const c = peek()
    const at = line
    if (c === 0x22 || c === 0x27) {
      const out: number[] = []
      while (peek() === 0x22 || peek() === 0x27) stringLiteral(out)
      return { kind: 'string', bytes: Uint8Array.from(out), line: at }
    }
    if (c === 45 || (c >= 48 && c <= 57) || c === 46) {
      const start = pos
      pos++
      while (pos < bytes.length && (isIdentPart(bytes[pos]) || bytes[pos] === 46 || bytes[pos] === 43 || bytes[pos] === 45)) pos++
      return { kind: 'number', text: Buffer.from(bytes.subarray(start, pos)).toString('latin1'), line: at }
    }
    if (c >= 0 && isIdentStart(c)) return { kind: 'ident', text: ident(), line: at }
    return fail('expected a value')
  }
  let depth = 0
  const messageBody = (close: number): TextMessage => {
    if (depth > MAX_DEPTH) fail(`messages nested deeper than ${MAX_DEPTH}`)
    const fields: TextMessage = new Map()
    for (;;) {
      const c = peek()
      if (c === close) {
        if (close !== -1) pos++
        return fields
      }
      if (c === -1) fail(`expected '${String.fromCharCode(close)}' before the end of the file`)
      if (c === 0x5b) fail('extension and Any fields ([...]) are not supported')
      const name = ident()
      const values = fields.get(name) ?? []
      fields.set(name, values)
      let colon = false
      if (peek() === 0x3a) {
        pos++
        colon = true
      }
      const one = (): void => {
        const v = peek()
        if (v === 0x7b || v === 0x3c) {
          const at = line
          pos++
          depth++
          values.push({ kind: 'message', fields: messageBody(v === 0x7b ? 0x7d : 0x3e), line: at })
          depth--
        } else {
          if (!colon) fail(`expected ':' after '${name}'`)
          values.push(scalar())
        }
      }
      if (peek() === 0x5b) {
        pos++
        if (peek() !== 0x5d) {
          one()
          while (peek() === 0x2c) {
            pos++
            one()
          }
        }
        expect(0x5d, "']' or ','")
      } else one()
      const sepChar = peek()
      if (sepChar === 0x2c || sepChar === 0x3b) pos++
    }
  }
  return messageBody(-1)
}

const utf8 = new TextDecoder('utf-8', { fatal: true })

/**
 * The cases of one `.textproto` file; `name` is its path shown in ids and
 * errors. Bodies are bytes (a body may hold a partial BOM); URLs and user
 * agents must be UTF-8. An expectation (or a test) with `test_type:
 * GOOGLE_SPECIFIC` gets the extra category `google-specific`.
 */
export function specTestCases(bytes: Uint8Array, name: string): CaseInput[] {
  const root = parseTextFormat(bytes, name)
  const cases: CaseInput[] = []
  const messages = (m: TextMessage, field: string): TextMessage[] =>
    (m.get(field) ?? []).map((v) => {
      if (v.kind !== 'message') throw new CompareError('ERR_READ', `${name}:${v.line}: '${field}' must be a message`)
      return v.fields
    })
  const single = (m: TextMessage, field: string, line: number): TextValue | undefined => {
    const values = m.get(field) ?? []
    if (values.length > 1) throw new CompareError('ERR_READ', `${name}:${values[1].line}: '${field}' given twice (line ${line})`)
    return values[0]
  }
  const text = (m: TextMessage, field: string, line: number): string => {
    const v = single(m, field, line)
    if (v === undefined) throw new CompareError('ERR_READ', `${name}:${line}: test expectation without '${field}'`)
    if (v.kind !== 'string') throw new CompareError('ERR_READ', `${name}:${v.line}: '${field}' must be a string`)
    try {
      return utf8.decode(v.bytes)
    } catch {
      throw new CompareError('ERR_READ', `${name}:${v.line}: '${field}' is not valid UTF-8`)
    }
  }
  const tests = root.get('tests') ?? []
  tests.forEach((t, ti) => {
    if (t.kind !== 'message') throw new CompareError('ERR_READ', `${name}:${t.line}: 'tests' must be a message`)
    const body = single(t.fields, 'robotstxt', t.line)
    if (body !== undefined && body.kind !== 'string') throw new CompareError('ERR_READ', `${name}:${body.line}: 'robotstxt' must be a string`)
    const robots = body?.bytes ?? new Uint8Array(0)
    const googleSpecific = (m: TextMessage, line: number): boolean => {
      const type = single(m, 'test_type', line)
      return type?.kind === 'ident' && type.text === 'GOOGLE_SPECIFIC'
    }
    const testGoogle = googleSpecific(t.fields, t.line)
    messages(t.fields, 'test_expectations').forEach((e, ei) => {
      const line = (t.fields.get('test_expectations') ?? [])[ei].line
      const outcome = single(e, 'expected_outcome', line)
      if (outcome === undefined) throw new CompareError('ERR_READ', `${name}:${line}: test expectation without 'expected_outcome'`)
      if (outcome.kind !== 'ident' || (outcome.text !== 'ALLOWED' && outcome.text !== 'DISALLOWED')) {
        throw new CompareError('ERR_READ', `${name}:${outcome.line}: expected_outcome must be ALLOWED or DISALLOWED`)
      }
      const explanation = single(e, 'additional_explanation', line)
      const why = explanation?.kind === 'string' && explanation.bytes.length > 0 ? Buffer.from(explanation.bytes).toString('utf8') : undefined
      cases.push({
        id: `spec-test:${name}#${ti + 1}.${ei + 1}`,
        robots,
        agents: [text(e, 'useragent', line)],
        url: text(e, 'testurl', line),
        stated: { allowed: outcome.text === 'ALLOWED' },
        source: `${name}:${body?.line ?? t.line}`,
        group: name,
        ...(why !== undefined ? { explanation: why } : {}),
        ...(testGoogle || googleSpecific(e, line) ? { extraCategories: ['google-specific'] } : {}),
      })
    })
  })
  return cases
}

/** Every `*.textproto` under `dir` (recursively, symlinked folders not followed), sorted by path. */
export function findTextprotoFiles(dir: string): string[] {
  const found: string[] = []
  const walk = (d: string): void => {
    let entries
    try {
      entries = readdirSync(d, { withFileTypes: true, encoding: 'buffer' })
    } catch (err) {
      throw readError('spec-test folder', d, err)
    }
    for (const e of entries) {
      const name = fileName(e.name)
      const wanted = e.isDirectory() || ((e.isFile() || e.isSymbolicLink()) && e.name.toString('latin1').endsWith('.textproto'))
      if (!wanted) continue
      if (name === undefined) throw new CompareError('ERR_READ', `cannot read '${join(d, shownBytes(e.name))}': its name is not UTF-8; rename it`)
      if (e.isDirectory()) walk(join(d, name))
      else found.push(join(d, name))
    }
  }
  walk(dir)
  return found.sort()
}

/**
 * The cases of `path`: one `.textproto` file (named by its base name), or
 * every `.textproto` file under a folder (named by their paths relative to
 * it); an error when there is none.
 */
export function specTestDirCases(path: string): CaseInput[] {
  let isFile: boolean
  try {
    isFile = statSync(path).isFile()
  } catch (err) {
    throw readError('spec-test folder', path, err)
  }
  const dir = isFile ? dirname(path) : path
  const files = isFile ? [path] : findTextprotoFiles(path)
  if (files.length === 0) throw new CompareError('ERR_READ', `no .textproto file under '${path}'`)
  const cases: CaseInput[] = []
  for (const f of files) {
    let bytes: Uint8Array
    try {
      bytes = readInputFile(f, 'spec-test file', { limit: MAX_TEXTPROTO_BYTES, regularOnly: true })
    } catch (err) {
      if (err instanceof CompareError) throw err
      throw readError('spec-test file', f, err)
    }
    const rel = relative(dir, f).split(sep).join('/')
    for (const c of specTestCases(bytes, rel)) cases.push(c)
  }
  return cases
}
