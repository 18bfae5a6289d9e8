/**
 * The inputs of `--cases corpus`: a folder of robots.txt files, one per host
 * and named after it (`--robots-dir`), checked so that a wrong folder is
 * refused or named, never silently read; and a URL list grouped by host
 * (`--urls`).
 */
import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { parseInto, type ParseHandler } from '../../internals.js'
import { canonicalHost, UrlScan } from '../../index.js'
import { plural, withoutBom } from '../format.js'
import { CompareError, readError } from '../compare-error.js'

/** Bytes read per file: past the parsing limit (so the `parsing-limit` category can occur), bounded. */
const READ_CAP = 2 * 1024 * 1024

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
function hostOfName(name: string): string {
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
 * listed. A folder with no file holding a directive is refused, naming what
 * it holds instead (a folder of folders, data files).
 */
export function readRobotsDir(dir: string): RobotsDir {
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch (err) {
    throw readError('robots.txt folder', dir, err)
  }
  const files: RobotsFile[] = []
  const skipped: string[] = []
  const noDirective: string[] = []
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
      files.push({ host: hostOfName(name), path, body })
    } catch (err) {
      throw readError('robots.txt file', path, err)
    }
  }
  if (files.length === noDirective.length) {
    const held = [
      skipped.length > 0 ? `${skipped.length} ${skipped.length === 1 ? 'entry that is not a file' : 'entries that are not files'} (${nameSome(skipped)})` : '',
      noDirective.length > 0 ? `${plural(noDirective.length, 'file')} without a robots.txt directive (${nameSome(noDirective)})` : '',
    ].filter((s) => s !== '')
    throw new CompareError(
      'ERR_READ',
      `no robots.txt files in '${dir}'${held.length > 0 ? `: it holds ${held.join(' and ')}` : ': it is empty'}; ` +
        'give a folder of robots.txt files, one per host, named after it',
    )
  }
  return { files, skipped, noDirective }
}

/** Warnings about a folder that was read (what was skipped, what holds no directive), one line each. */
export function robotsDirNotes(dir: string, read: RobotsDir): string[] {
  const notes: string[] = []
  if (read.skipped.length > 0) notes.push(`--robots-dir: skipped ${read.skipped.length === 1 ? `1 entry of '${dir}' that is not a file` : `${read.skipped.length} entries of '${dir}' that are not files`}: ${nameSome(read.skipped)}`)
  if (read.noDirective.length > 0) {
    const n = read.noDirective.length
    notes.push(`--robots-dir: ${plural(n, 'file')} of '${dir}' ${n === 1 ? 'holds' : 'hold'} no robots.txt directive (read as allowing everything): ${nameSome(read.noDirective)}`)
  }
  return notes
}

/** URLs of the list grouped by host. */
export function readUrlList(file: string): Map<string, string[]> {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (err) {
    throw readError('URL list', file, err)
  }
  const byHost = new Map<string, string[]>()
  for (const raw of withoutBom(text).split('\n')) {
    const url = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    const host = hostOf(url)
    if (host === '') continue
    let list = byHost.get(host)
    if (!list) byHost.set(host, (list = []))
    list.push(url)
  }
  return byHost
}
