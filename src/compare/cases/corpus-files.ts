/**
 * The inputs of `--cases corpus`: a folder of robots.txt files, one per host
 * and named after it (`--robots-dir`), checked so that a wrong folder is
 * refused or named, never silently read; and a URL list grouped by host
 * (`--urls`: one URL a line, or a column of a TSV or CSV file), whose lines
 * that are not URLs are counted and named, and refused when they are most.
 * Hosts are those of the WHATWG URL parser (the core's one host function).
 */
import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs'
import { basename, join } from 'node:path'
import { parseInto, type ParseHandler } from '../../internals.js'
import { canonicalHost, UrlScan } from '../../index.js'
import { plural } from '../format.js'
import { mapUtf8 } from '../../tools/input-text.js'
import { CompareError, readError } from '../compare-error.js'
import { fileName, isFifo, shownBytes, readInputFile, readInputFileFreeable, sizeWords } from '../input-file.js'
import { zlib } from '../../tools/built-ins.js'
import { refuseWide } from './jsonl-cases.js'

/** Bytes read per file: past the parsing limit (so the `parsing-limit` category can occur), bounded. */
const READ_CAP = 2 * 1024 * 1024
/** The highest field `--urls-field` names. */
export const MAX_URLS_FIELD = 1000
/** Largest URL list read (read whole, it is held as one string). */
const MAX_URL_LIST_BYTES = 256 << 20

/** Names listed at most in a message (the rest are counted). */
const NAMED = 5

/** One robots.txt file of the folder. */
export interface RobotsFile {
  /** The host its URLs are drawn for: its name as the URL parser writes a host (else lowercased). */
  readonly host: string
  readonly path: string
  readonly body: Uint8Array
}

/** What a folder holds: the files used, and what was skipped or looks wrong (each list sorted). */
export interface RobotsDir {
  readonly files: readonly RobotsFile[]
  /** Entries that are not regular files (subfolders first of all): skipped. */
  readonly skipped: readonly string[]
  /** Files with no line the reference reads as a directive: used (they allow everything), and named in a warning. */
  readonly noDirective: readonly string[]
  /** Names that are not UTF-8 (no host is named so), shown with `\xHH` escapes: skipped. */
  readonly notUtf8: readonly string[]
}

const SCAN = new UrlScan()

/** The host of an absolute URL as the WHATWG URL parser gives it (the core's one host function), without userinfo and port ('' when none, or when the parser refuses it). */
export function hostOf(url: string): string {
  if (!SCAN.scanString(url) || SCAN.port === UrlScan.BAD_PORT) return ''
  try {
    return SCAN.canonicalHost() ?? ''
  } catch {
    return ''
  }
}

/** The host a file named `name` is for: the name as the URL parser writes a host (`Bücher.DE` is `xn--bcher-kva.de`), or the name lowercased when it is no host. */
export function fileHost(name: string): string {
  try {
    return canonicalHost(name)
  } catch {
    return name.toLowerCase()
  }
}

function readCapped(path: string): Uint8Array {
  const fd = openSync(path, 'r')
  try {
    const size = Math.min(statSync(path).size, READ_CAP)
    const buf = new Uint8Array(size)
    let n = 0
    while (n < size) {
      const got = readSync(fd, buf, n, size - n, null)
      if (got === 0) break
      n += got
    }
    return buf.subarray(0, n)
  } finally {
    closeSync(fd)
  }
}

/** Whether the reference reads some line of `body` as a user-agent, allow, disallow or sitemap directive. */
export function hasDirective(body: Uint8Array): boolean {
  let found = false
  const yes = (): void => {
    found = true
  }
  const handler: ParseHandler = { userAgent: yes, allow: yes, disallow: yes, sitemap: yes, unknown: () => {} }
  parseInto(body, handler)
  return found
}

/** `a, b, c` or `a, b, c, d, e and 3 more`. */
export function nameSome(names: readonly string[]): string {
  const shown = names.slice(0, NAMED).join(', ')
  return names.length > NAMED ? `${shown} and ${names.length - NAMED} more` : shown
}

/**
 * The robots.txt files of a folder, sorted by name. Hidden names are passed
 * over; subfolders and other entries that are not files are skipped and
 * listed, and so are names that are not UTF-8 (read by their bytes: a name
 * decoded with U+FFFD in it is no file's). A folder with no file holding a directive is refused, naming what
 * it holds instead (a folder of folders, data files).
 */
export function readRobotsDir(dir: string): RobotsDir {
  let raw: Buffer[]
  try {
    raw = readdirSync(dir, { encoding: 'buffer' })
  } catch (err) {
    throw readError('robots.txt folder', dir, err)
  }
  const files: RobotsFile[] = []
  const skipped: string[] = []
  const noDirective: string[] = []
  const notUtf8: string[] = []
  const names: string[] = []
  for (const bytes of raw) {
    const name = fileName(bytes)
    if (name !== undefined) names.push(name)
    else if (bytes[0] !== 0x2e) notUtf8.push(shownBytes(bytes))
  }
  for (const name of names.sort()) {
    if (name.startsWith('.')) continue
    const path = join(dir, name)
    try {
      const st = statSync(path)
      if (!st.isFile()) {
        skipped.push(st.isDirectory() ? `${name}/` : name)
        continue
      }
      const body = readCapped(path)
      if (!hasDirective(body)) noDirective.push(name)
      files.push({ host: fileHost(name), path, body })
    } catch (err) {
      throw readError('robots.txt file', path, err)
    }
  }
  if (files.length === noDirective.length) {
    const held = [
      notUtf8.length > 0 ? `${notUtf8.length} ${notUtf8.length === 1 ? 'name' : 'names'} that ${notUtf8.length === 1 ? 'is' : 'are'} not UTF-8 (${nameSome(notUtf8)})` : '',
      skipped.length > 0 ? `${skipped.length} ${skipped.length === 1 ? 'entry that is not a file' : 'entries that are not files'} (${nameSome(skipped)})` : '',
      noDirective.length > 0 ? `${plural(noDirective.length, 'file')} without a robots.txt directive (${nameSome(noDirective)})` : '',
    ].filter((s) => s !== '')
    throw new CompareError(
      'ERR_READ',
      `no robots.txt files in '${dir}'${held.length > 0 ? `: it holds ${held.join(' and ')}` : ': it is empty'}; ` +
        'give a folder of robots.txt files, one per host, named after it',
    )
  }
  return { files, skipped, noDirective, notUtf8 }
}

/** Warnings about a folder that was read (what was skipped, what holds no directive), one line each. */
export function robotsDirNotes(dir: string, read: RobotsDir): string[] {
  const notes: string[] = []
  if (read.skipped.length > 0) notes.push(`--robots-dir: skipped ${read.skipped.length === 1 ? `1 entry of '${dir}' that is not a file` : `${read.skipped.length} entries of '${dir}' that are not files`}: ${nameSome(read.skipped)}`)
  if (read.notUtf8.length > 0) notes.push(`--robots-dir: skipped ${plural(read.notUtf8.length, 'file')} of '${dir}' whose name is not UTF-8, so no host's: ${nameSome(read.notUtf8)}`)
  if (read.noDirective.length > 0) {
    const n = read.noDirective.length
    notes.push(`--robots-dir: ${plural(n, 'file')} of '${dir}' ${n === 1 ? 'holds' : 'hold'} no robots.txt directive (read as allowing everything): ${nameSome(read.noDirective)}`)
  }
  return notes
}

/** How `--urls` is read: the whole line, or field N (1-based) of a TSV file (a CSV file, `.csv`, with quoting). */
export interface UrlListOptions {
  readonly field?: number
  /** The list's bytes, read already ({@link readFifoUrlList}). */
  readonly bytes?: Buffer
}

/** A URL list read: its URLs by host, and the lines that are not URLs. */
export interface UrlList {
  readonly byHost: Map<string, string[]>
  readonly urls: number
  /** Lines (or fields) that are not absolute URLs with a host, counted; the first few with their line number. */
  readonly notUrls: number
  readonly firstNotUrls: readonly { line: number; text: string }[]
}

/** The fields of a CSV line (RFC 4180 quoting; a line ends a record). */
export function csvFields(line: string): string[] {
  const out: string[] = []
  let i = 0
  for (;;) {
    let field = ''
    if (line[i] === '"') {
      i++
      for (;;) {
        if (i >= line.length) break
        if (line[i] === '"') {
          if (line[i + 1] === '"') {
            field += '"'
            i += 2
            continue
          }
          i++
          break
        }
        field += line[i++]
      }
      while (i < line.length && line[i] !== ',') field += line[i++]
    } else {
      const end = line.indexOf(',', i)
      field = line.slice(i, end < 0 ? line.length : end)
      i = end < 0 ? line.length : end
    }
    out.push(field)
    if (i >= line.length) return out
    i++ // the comma
  }
}

/** The field `field` (1-based) of a line, '' when it has fewer. */
function fieldOf(line: string, field: number, csv: boolean): string {
  const fields = csv ? csvFields(line) : line.split('\t')
  return fields[field - 1] ?? ''
}

/** The bytes of a URL list that is a FIFO, read where a signal can free its open; undefined for any other file ({@link readUrlList} reads it). */
export async function readFifoUrlList(file: string): Promise<Buffer | undefined> {
  return isFifo(file) ? readInputFileFreeable(file, 'URL list', { limit: MAX_URL_LIST_BYTES }) : undefined
}

/**
 * The URLs of a list, grouped by host. Each line (or its field `--urls-field
 * N`: tab-separated, or comma-separated with quoting in a `.csv` file) that
 * is not an absolute URL with a host is counted and the first few named; a
 * list where they are most is refused, and a hint names the field that holds
 * URLs when some field does. Empty lines are passed over; a BOM is skipped.
 */
export function readUrlList(file: string, options: UrlListOptions = {}): UrlList {
  let text: string
  try {
    let bytes = options.bytes ?? readInputFile(file, 'URL list', { limit: MAX_URL_LIST_BYTES })
    // A gzipped list (as filter reads one), within the same limit once inflated.
    if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
      try {
        bytes = zlib().gunzipSync(bytes, { maxOutputLength: MAX_URL_LIST_BYTES })
      } catch (err) {
        if ((err as { code?: unknown }).code !== 'ERR_BUFFER_TOO_LARGE') throw err
        throw new CompareError('ERR_READ', `cannot read URL list '${file}': larger than ${sizeWords(MAX_URL_LIST_BYTES)} once inflated`)
      }
    }
    refuseWide(bytes, `--urls '${file}'`, 'a URL list')
    text = wireText(bytes)
  } catch (err) {
    if (err instanceof CompareError) throw err
    throw readError('URL list', file, err)
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
  const csv = /\.csv$/i.test(file)
  const field = options.field
  const byHost = new Map<string, string[]>()
  let urls = 0
  let notUrls = 0
  const firstNotUrls: { line: number; text: string }[] = []
  const lines = text.split('\n')
  for (let n = 0; n < lines.length; n++) {
    const raw = lines[n].endsWith('\r') ? lines[n].slice(0, -1) : lines[n]
    if (raw.trim() === '') continue
    const url = (field === undefined ? raw : fieldOf(raw, field, csv)).trim()
    const host = hostOf(url)
    if (host === '') {
      if (notUrls++ < NAMED) firstNotUrls.push({ line: n + 1, text: raw.length > 80 ? `${raw.slice(0, 80)}…` : raw })
      continue
    }
    urls++
    let list = byHost.get(host)
    if (!list) byHost.set(host, (list = []))
    list.push(url)
  }
  if (notUrls > urls) {
    const shown = firstNotUrls.map((l) => `line ${l.line}: ${JSON.stringify(l.text)}`).join('; ')
    const hint = field === undefined ? urlFieldHint(lines, csv) : ''
    throw new CompareError(
      'ERR_READ',
      `--urls: ${plural(notUrls, 'line')} of ${plural(urls + notUrls, 'line')} of '${file}' ${notUrls === 1 ? 'is' : 'are'} not ${field === undefined ? 'a URL' : `a URL in field ${field}`} ` +
        `(an absolute URL with a host: https://host/path); ${shown}${hint}`,
    )
  }
  return { byHost, urls, notUrls, firstNotUrls }
}

/** A hint naming a field of the first lines that holds URLs (`; field 3 holds URLs: --urls-field 3`), or ''. */
function urlFieldHint(lines: readonly string[], csv: boolean): string {
  const sample = lines.filter((l) => l.trim() !== '').slice(0, 200)
  const sep = csv ? ',' : '\t'
  if (!sample.some((l) => l.includes(sep))) return ''
  // Each line split once, and the fields --urls-field can name counted: a line of 100,000 tabs is read once, not once a field.
  const hits = new Array<number>(MAX_URLS_FIELD).fill(0)
  for (const l of sample) {
    const fields = csv ? csvFields(l.replace(/\r$/, '')) : l.replace(/\r$/, '').split('\t')
    for (let f = 0; f < Math.min(fields.length, MAX_URLS_FIELD); f++) if (hostOf(fields[f].trim()) !== '') hits[f]++
  }
  const f = hits.findIndex((h) => h * 2 > sample.length) + 1
  return f > 0 ? `; it reads as ${csv ? 'CSV' : 'TSV'} and field ${f} holds URLs: give --urls-field ${f}` : ''
}

/** Notes about a URL list that was read: the lines that are not URLs, and how many URLs are on hosts of the folder. */
export function urlListNotes(file: string, list: UrlList, matched: { urls: number; hosts: number }): string[] {
  const notes: string[] = []
  const name = basename(file)
  if (list.notUrls > 0) {
    const shown = list.firstNotUrls.map((l) => `line ${l.line} (${JSON.stringify(l.text)})`).join(', ')
    notes.push(`--urls: ${plural(list.notUrls, 'line')} of '${name}' ${list.notUrls === 1 ? 'is' : 'are'} not a URL, skipped: ${shown}${list.notUrls > list.firstNotUrls.length ? ' …' : ''}`)
  }
  const other = list.urls - matched.urls
  if (other > 0) {
    notes.push(`--urls: ${plural(matched.urls, 'URL')} of '${name}' ${matched.urls === 1 ? 'is' : 'are'} on ${plural(matched.hosts, 'host')} of --robots-dir; ${plural(other, 'URL')} on hosts without a file there ${other === 1 ? 'is' : 'are'} not used`)
  }
  return notes
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/**
 * A URL list's text: UTF-8, and each byte of an invalid sequence (a log's
 * Latin-1 URL) as its `%XX` escape, the form it has on the wire, so that a
 * URL keeps its bytes (U+FFFD would make it another URL).
 */
export function wireText(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes)
  } catch {
    // Invalid somewhere: decode the valid runs, escape the bytes between them.
  }
  return mapUtf8(bytes, (text) => text, (b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`)
}
