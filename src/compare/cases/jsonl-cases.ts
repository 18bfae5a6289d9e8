/**
 * `--cases FILE.jsonl` and `--export FILE.jsonl`: case sets as JSON Lines,
 * one case per line (the fields: {@link parseCaseLine}; export:
 * {@link caseLine}):
 *
 *     {"id": "mine#1", "robots": "User-agent: *\nDisallow: /x\n", "agent": "FooBot",
 *      "url": "https://example.com/x", "allowed": false, "line": 2, "categories": ["…"]}
 */
import { createReadStream } from 'node:fs'
import type { Writable } from 'node:stream'
import { withoutBom } from '../format.js'
import { dirname, resolve } from 'node:path'
import { readline } from '../../tools/built-ins.js'
import { agentField, isWellFormed, robotsFields, type Case, type CaseInput } from '../case.js'
import { STANDARDS } from '../categories.js'
import { CompareError, describeSystemError, readError } from '../compare-error.js'
import { reportStream } from '../output-files.js'
import { freeableOpen, readInputFile, sizeWords } from '../input-file.js'
import { jsonLine } from '../../tools/printable.js'
import { wideRefusal } from '../../tools/wide-text.js'

/** Longest line of a case file, and largest file a case's robots_path names: past them the file is refused. */
export const MAX_CASE_BYTES = 64 << 20

const FIELDS = new Set(['id', 'robots', 'robots_base64', 'robots_path', 'agent', 'url', 'allowed', 'line', 'categories', 'standard', 'rfc'])

/** Reads a whole JSONL case file (see jsonlCaseStream). */
export async function readJsonlCases(file: string): Promise<CaseInput[]> {
  const cases: CaseInput[] = []
  for await (const c of jsonlCaseStream(file)) cases.push(c)
  return cases
}

/**
 * The cases of a JSONL file ({@link parseCaseLine}), one at a time as the
 * file is read; errors name the file and line. Ids must be unique.
 */
export async function* jsonlCaseStream(file: string): AsyncGenerator<CaseInput> {
  const bodies = new Map<string, Uint8Array>()
  const ids = new Set<string>()
  // Read as latin1 (one char a byte), so that each line's bytes can be checked as UTF-8 below.
  const stream = createReadStream(file, { encoding: 'latin1' })
  // A FIFO waits for its writer in open(2): an interrupt frees it.
  freeableOpen(file, stream)
  const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
  const opened = new Promise<void>((ok, fail) => {
    stream.once('open', () => ok())
    stream.once('error', fail)
  })
  try {
    await opened
  } catch (err) {
    throw readError('case file', file, err)
  }
  // A line that never ends (/dev/zero as the case file) is refused at the limit, before it takes the memory of the run.
  let lineLength = 0
  let lineNumber = 1
  stream.on('data', (chunk: string | Buffer) => {
    const text = chunk as string
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lineNumber++
    const last = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r'))
    lineLength = last >= 0 ? text.length - last - 1 : lineLength + text.length
    if (lineLength > MAX_CASE_BYTES) stream.destroy(new CompareError('ERR_READ', `${file}:${lineNumber}: a line longer than ${sizeWords(MAX_CASE_BYTES)}`))
  })
  const lines = readline().createInterface({ input: stream, crlfDelay: Infinity })
  let n = 0
  try {
    for await (const bytes of lines) {
      n++
      if (n === 1) refuseWide(Buffer.from(bytes.slice(0, 64), 'latin1'), `${file}:1`, 'a case file')
      let text: string
      try {
        text = utf8.decode(Buffer.from(bytes, 'latin1'))
      } catch {
        // JSON is UTF-8: a byte that is not would be read as U+FFFD, a body or URL other than the one written.
        throw new CompareError('ERR_READ', `${file}:${n}: the line is not valid UTF-8 (give a body that is not UTF-8 as robots_base64, and percent-encode such bytes in a URL)`)
      }
      const line = n === 1 ? withoutBom(text) : text
      if (line.trim() === '') continue
      const c = parseCaseLine(line, `${file}:${n}`, n, dirname(file), bodies)
      if (ids.has(c.id)) throw new CompareError('ERR_READ', `${file}:${n}: id '${c.id}' was already used`)
      ids.add(c.id)
      yield c
    }
  } catch (err) {
    if (err instanceof CompareError) throw err
    throw readError('case file', file, err)
  } finally {
    lines.close()
    stream.destroy()
  }
}

/**
 * One case from one line; `where` prefixes errors, `folder` resolves
 * `robots_path`. The fields:
 *
 * - the body: `robots` (a string, written as its UTF-8 bytes), or
 *   `robots_base64` (the exact bytes, for bodies that are not UTF-8), or
 *   `robots_path` (a file, relative to the JSONL file's folder); exactly one.
 * - `agent`: a product token, or an array of tokens (a crawler answering to
 *   several: the reference's multi-agent form).
 * - `url`: the URL (or path) as a string.
 * - optional: `id` (default `line N`), `allowed` and `line` (a stated answer,
 *   checked against the reference's), `categories` (added to the automatic
 *   ones), `standard` and `rfc` (what `--export` writes: the oracle makes
 *   them again, so they are checked for their form only).
 */
export function parseCaseLine(text: string, where: string, lineNumber: number, folder: string, bodies = new Map<string, Uint8Array>()): CaseInput {
  const bad = (message: string): never => {
    throw new CompareError('ERR_READ', `${where}: ${message}`)
  }
  let o: unknown
  try {
    o = JSON.parse(text)
  } catch (err) {
    return bad(`not JSON (${(err as Error).message})`)
  }
  if (typeof o !== 'object' || o === null || Array.isArray(o)) return bad('a case must be a JSON object')
  const r = o as Record<string, unknown>
  for (const k of Object.keys(r)) if (!FIELDS.has(k)) bad(`unknown field '${k}' (fields: ${[...FIELDS].join(', ')})`)
  const given = ['robots', 'robots_base64', 'robots_path'].filter((k) => r[k] !== undefined)
  if (given.length !== 1) bad('give the body in exactly one of robots, robots_base64, robots_path')
  let robots: Uint8Array
  if (r.robots !== undefined) {
    if (typeof r.robots !== 'string') bad("'robots' must be a string")
    if (!isWellFormed(r.robots as string)) bad("'robots' holds a lone surrogate: it has no UTF-8 form; give bytes that are not UTF-8 as robots_base64")
    robots = new Uint8Array(Buffer.from(r.robots as string, 'utf8'))
  } else if (r.robots_base64 !== undefined) {
    const b64 = r.robots_base64
    if (typeof b64 !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 !== 0) bad("'robots_base64' must be base64")
    robots = new Uint8Array(Buffer.from(b64 as string, 'base64'))
  } else {
    if (typeof r.robots_path !== 'string' || r.robots_path === '') bad("'robots_path' must be a file name")
    const path = resolve(folder, r.robots_path as string)
    let body = bodies.get(path)
    if (body === undefined) {
      try {
        body = new Uint8Array(readInputFile(path, 'robots_path', { limit: MAX_CASE_BYTES, regularOnly: true }, r.robots_path as string))
      } catch (err) {
        return bad((err as Error).message)
      }
      bodies.set(path, body)
    }
    robots = body
  }
  const agent = r.agent
  let agents: string[]
  if (typeof agent === 'string') agents = [agent]
  else if (Array.isArray(agent) && agent.length > 0 && agent.every((a) => typeof a === 'string')) agents = agent as string[]
  else return bad("'agent' must be a string or a non-empty array of strings")
  if (typeof r.url !== 'string') bad("'url' must be a string")
  // Every string sent to an adapter must have a UTF-8 form: a lone surrogate (a JSON "\\ud83d" alone) has none.
  if (!isWellFormed(r.url as string)) bad("'url' holds a lone surrogate (an unpaired \\uD800–\\uDFFF escape): it has no UTF-8 form; percent-encode the bytes meant")
  if (!agents.every(isWellFormed)) bad("'agent' holds a lone surrogate (an unpaired \\uD800–\\uDFFF escape): it has no UTF-8 form")
  if (r.allowed !== undefined && typeof r.allowed !== 'boolean') bad("'allowed' must be true or false")
  if (r.line !== undefined && (!Number.isInteger(r.line) || (r.line as number) < 0)) bad("'line' must be a whole number ≥ 0")
  if (r.line !== undefined && r.allowed === undefined) bad("'line' needs 'allowed'")
  if (r.categories !== undefined && (!Array.isArray(r.categories) || !r.categories.every((c) => typeof c === 'string' && c !== ''))) {
    bad("'categories' must be an array of non-empty strings")
  }
  if (r.id !== undefined && (typeof r.id !== 'string' || r.id === '' || !isWellFormed(r.id))) bad("'id' must be a non-empty string (without lone surrogates)")
  if (r.standard !== undefined && !(STANDARDS as readonly unknown[]).includes(r.standard)) bad(`'standard' must be one of ${STANDARDS.join(', ')}`)
  if (r.rfc !== undefined) {
    const x = r.rfc as Record<string, unknown> | null
    if (typeof x !== 'object' || x === null || typeof x.allowed !== 'boolean' || !Number.isInteger(x.line)) bad("'rfc' must be {\"allowed\": true|false, \"line\": N}")
  }
  return {
    id: (r.id as string | undefined) ?? `line ${lineNumber}`,
    robots,
    agents,
    url: r.url as string,
    source: typeof r.robots_path === 'string' ? resolve(folder, r.robots_path) : where,
    ...(r.allowed !== undefined
      ? { stated: { allowed: r.allowed as boolean, ...(r.line !== undefined ? { line: r.line as number } : {}) } }
      : {}),
    ...(r.categories !== undefined ? { extraCategories: r.categories as string[] } : {}),
  }
}

/**
 * One case as a JSONL line (without the newline). Export writes every field:
 * `robots` when the bytes are UTF-8, else `robots_base64`, so any body
 * round-trips byte for byte; `allowed` and `line` are the reference's answer,
 * `rfc` RFC 9309's, `standard` which the answer follows, `categories` the
 * automatic ones.
 */
export function caseLine(c: Case): string {
  return jsonLine({
    id: c.id,
    ...robotsFields(c.robots),
    agent: agentField(c.agents),
    url: c.url,
    allowed: c.expected.allowed,
    line: c.expected.line,
    rfc: { allowed: c.rfc.allowed, line: c.rfc.line },
    standard: c.standard,
    categories: c.categories,
  })
}

/** Writes cases to a file as JSONL, in blocks, as they come. */
export class JsonlWriter {
  private readonly out: Writable
  private readonly done: Promise<void>
  private chunk = ''

  constructor(private readonly file: string) {
    this.out = reportStream(file, 'cases')
    this.done = new Promise<void>((ok, fail) => {
      this.out.once('finish', ok)
      this.out.once('error', fail)
    })
    this.done.catch(() => {}) // reported by write() or close()
  }

  /** Adds cases; waits while the file catches up. */
  async write(cases: Iterable<Case>): Promise<void> {
    for (const c of cases) {
      this.chunk += caseLine(c) + '\n'
      if (this.chunk.length > 1 << 20) await this.flush()
    }
  }

  /** Writes what is left and closes the file. */
  async close(): Promise<void> {
    try {
      this.out.end(this.chunk)
      this.chunk = ''
      await this.done
    } catch (err) {
      throw this.error(err)
    }
  }

  private async flush(): Promise<void> {
    const chunk = this.chunk
    this.chunk = ''
    try {
      if (!this.out.write(chunk)) await Promise.race([new Promise<void>((ok) => this.out.once('drain', ok)), this.done])
    } catch (err) {
      throw this.error(err)
    }
  }

  private error(err: unknown): CompareError {
    return err instanceof CompareError ? err : new CompareError('ERR_WRITE', `cannot write '${this.file}': ${describeSystemError(err)}`)
  }
}

/** Writes the cases to `file` as JSONL. */
export async function writeJsonlCases(cases: readonly Case[], file: string): Promise<void> {
  const w = new JsonlWriter(file)
  await w.write(cases)
  await w.close()
}

/** Refuses UTF-16 or UTF-32 text (a file saved so), naming it and the conversion, rather than one of its lines' symptoms; `what` names the file's kind. */
export function refuseWide(head: Uint8Array, where: string, what: string): void {
  const wide = wideRefusal(head, what)
  if (wide !== undefined) throw new CompareError('ERR_READ', `${where}: ${wide}`)
}
