/**
 * The origins `fetch` fetches: every line of URL lists and logs read and
 * located as `filter` reads them (filter/input-lines.ts, filter/line-locator.ts:
 * stdin or files, gzip, `--field`, `--host-field`, `--log-format`, `--host`),
 * one entry per distinct origin in the order first seen ({@link OriginList}),
 * keyed as `filter --bundle` looks lines up: a URL by its origin, a host
 * column or `--host` by its bare host.
 */
import { RobotsInputError, RobotsStore, UrlScan } from '../../index.js'
import { printable } from '../../tools/printable.js'
import { plural } from '../common/numbers.js'
import type { InputFile } from '../filter/input.js'
import { KeySet } from './key-set.js'
import { forEachInputLine } from '../filter/input-lines.js'
import { EVERY_REQUEST_EMPTY, faultSample, sampleText, warnedFault, type FaultSample } from '../filter/line-faults.js'
import { INPUT_OPTIONS, lineLayout, WHOLE_LINES, type LineLayout } from '../filter/line-layout.js'
import { optionValue, type ParsedArgs } from '../common/args.js'
import { FAULT_CODES, HostSource, LineFault, LineLocator } from '../filter/line-locator.js'

/** Most raw authorities remembered to skip the URL parser for hosts seen before (then forgotten all at once: bounded memory whatever the input). */
const RAW_CACHE_LIMIT = 1 << 16

const LATIN1 = new TextDecoder('latin1')
const UTF8 = new TextDecoder()

/**
 * The distinct origins of the input: bundle key → the origin to fetch
 * (`https://example.com:8443` for a URL line, keyed by that origin;
 * `example.com` for a host column, fetched at `https://example.com` or as
 * its port or scheme says). Memory grows with the origins, not the lines.
 */
export class OriginList {
  /** Bundle key → origin to fetch, in the order first seen (packed: key-set.ts). */
  readonly origins = new KeySet()
  /** Lines read. */
  lines = 0
  /** Lines without a URL or host, by fault (FAULT_CODES' names). */
  readonly faults = new Map<string, number>()
  /** The first line without a URL or host: where, what it holds, and why. */
  firstFault: FaultSample | undefined
  /** Lines whose host cannot be fetched from (a port that is not one, a host the URL parser refuses). */
  unusable = 0
  /** The first of them: where, what it holds, and why ({@link unusableAt}). */
  firstUnusable: { readonly input: string; readonly line: number; readonly text: string; readonly why: string } | undefined
  /** Lines whose host is keyed already with another origin to fetch (`a.test:8080` after `a.test:9090`): not fetched. */
  conflicts = 0
  /** The first of them: the key, the origin fetched for it, and the one not fetched. */
  firstConflict: { readonly key: string; readonly kept: string; readonly dropped: string } | undefined
  /** Raw authority → [key, origin] (strings of their own, not slices of a longer one: the keys are kept), or null when unusable. */
  private readonly raw = new Map<string, readonly [string, string] | null>()

  constructor(private readonly scheme: 'http' | 'https') {}

  /** Lines without a URL or host. */
  get faulty(): number {
    let n = 0
    for (const v of this.faults.values()) n += v
    return n
  }

  /** Why no line gave an origin when none is one a warning names ({@link firstFault} undefined): hosts that cannot be fetched from, requests that were `-`. */
  get noOriginWhy(): string {
    if (this.unusable === 0) return EVERY_REQUEST_EMPTY
    const hosts = 'every host named cannot be fetched from (a bad port, not a host name)'
    return this.faulty === 0 ? hosts : `${hosts}, and every request was "-"`
  }

  /** Counts a line `locator` found no URL or host in (`bytes[start, end)`, line `line` of `input`). */
  fault(fault: LineFault, input: string, line: number, bytes: Uint8Array, start: number, end: number, locator: LineLocator): void {
    const reason = FAULT_CODES[fault]
    this.faults.set(reason, (this.faults.get(reason) ?? 0) + 1)
    if (warnedFault(fault)) this.firstFault ??= faultSample(fault, input, line, bytes, start, end, locator)
  }

  /** Adds the origin of the host the locator found (its scan `h` of `bytes`), from a URL, a host column or `--host`; false when it cannot be fetched from (counted in {@link unusable}). */
  add(bytes: Uint8Array, h: UrlScan, source: HostSource): boolean {
    const fromUrl = source === HostSource.Url
    // The scheme when the host came with one (a URL, or a column written as a URL); '' for host[:port].
    const s = h.scheme
    const scheme = s === null ? '' : s === 'other' ? '?' : s
    const host = LATIN1.decode(bytes.subarray(h.hostStart, h.hostEnd))
    const port = h.port
    const raw = `${fromUrl ? 'u' : 'h'}${scheme} ${host} ${port}`
    let pair = this.raw.get(raw)
    if (pair === undefined) {
      // The host as the URL parser reads it (UTF-8, not the bytes one by one).
      pair = this.pairOf(UTF8.decode(bytes.subarray(h.hostStart, h.hostEnd)), scheme, port, fromUrl)
      if (this.raw.size >= RAW_CACHE_LIMIT) this.raw.clear()
      this.raw.set(raw, pair)
    }
    if (pair === null) {
      this.unusable++
      return false
    }
    const had = this.origins.size
    const i = this.origins.add(pair[0], pair[1])
    // A host keyed bare is one entry for every port: a second port of it is not fetched, and said.
    if (this.origins.size === had && this.origins.origin(i) !== pair[1]) {
      this.conflicts++
      this.firstConflict ??= { key: pair[0], kept: this.origins.origin(i), dropped: pair[1] }
    }
    return true
  }

  /** Names the line `bytes[start, end)` (line `line` of `input`) whose host `h` {@link add} just refused, when it is the first. */
  unusableAt(input: string, line: number, bytes: Uint8Array, start: number, end: number, h: UrlScan): void {
    if (this.firstUnusable !== undefined) return
    this.firstUnusable = { input, line, text: sampleText(bytes, start, end), why: unusableWhy(h) }
  }

  /** The warning about the lines whose host cannot be fetched from, naming the first. */
  get unusableNote(): string {
    const first = this.firstUnusable
    const where = first === undefined ? '' : `; line ${first.line} of '${printable(first.input)}': ${printable(first.text)} (${printable(first.why)})`
    return `warning: ${plural(this.unusable, 'line')} skipped: a host that cannot be fetched from (a bad port, not a host name)${where}`
  }

  /** The warning about the lines whose host was keyed already with another origin, naming the first. */
  get conflictNote(): string {
    const c = this.firstConflict!
    return `warning: ${plural(this.conflicts, 'line')} ${this.conflicts === 1 ? 'names' : 'name'} a host listed already at another port or scheme, not fetched: '${printable(c.key)}' is one entry, fetched at ${printable(c.kept)}, not at ${printable(c.dropped)} (a URL, ${printable(c.dropped)}/, is keyed by its origin)`
  }

  /**
   * [key, origin] for a host seen the first time (one string when they are
   * the same), or null when it cannot be
   * fetched from (another scheme, a port that is not one, a host the URL
   * parser refuses). Keys and origins are as the store writes them (the URL
   * parser's host, no default port). Without a scheme, port 80 is http and
   * 443 https; any other, or none, takes `--scheme`.
   */
  private pairOf(hostText: string, scheme: string, port: number, fromUrl: boolean): readonly [string, string] | null {
    if (port === UrlScan.BAD_PORT || scheme === '?') return null
    try {
      const host = RobotsStore.keyOf(hostText)
      let s = scheme
      if (s === '') s = port === 80 ? 'http' : port === 443 ? 'https' : this.scheme
      const origin = RobotsStore.keyOf(`${s}://${host}${port >= 0 ? `:${port}` : ''}`)
      return [fromUrl ? origin : host, origin]
    } catch {
      return null
    }
  }
}

/** Why no origin can be made of the host `h` scanned (one {@link OriginList.add} refused), in words. */
function unusableWhy(h: UrlScan): string {
  if (h.port === UrlScan.BAD_PORT) return 'its port is not a number from 0 to 65535'
  if (h.scheme === 'other') return 'a URL of a scheme other than http and https'
  try {
    h.canonicalHost()
  } catch (err) {
    if (err instanceof RobotsInputError) return err.message.replace(/^UrlScan\.canonicalHost: /, '')
    throw err
  }
  return 'its origin is longer than a key may be'
}

/** The layout of a list of origins: the input options' when one is given; undefined for a URL or a host alone a line. */
export function originListLayout(args: ParsedArgs): LineLayout | undefined {
  return INPUT_OPTIONS.some((o) => optionValue(args, o.name) !== undefined) ? lineLayout(args) : undefined
}

/**
 * Reads `inputs` as `filter` reads them (by `layout`) and adds every line's
 * origin to `list`; without a layout (no input option given), a line is a
 * URL or a host alone ({@link readHostList}).
 */
export async function readOrigins(inputs: readonly InputFile[], layout: LineLayout | undefined, list: OriginList): Promise<void> {
  if (layout === undefined) return readHostList(inputs, list)
  const locator = new LineLocator(layout, true)
  await forEachInputLine(
    inputs,
    locator,
    (bytes, start, end, fault, line, input) => {
      list.lines++
      if (fault !== LineFault.None) return list.fault(fault, input.name, line, bytes, start, end, locator)
      if (locator.sameHost) return
      if (!list.add(locator.hostBytes, locator.host, locator.hostSource)) list.unusableAt(input.name, line, bytes, start, end, locator.host)
    },
    async () => {},
  )
}

/**
 * Whether a line's text may be meant as a host: an IPv6 literal, or it does
 * not start with `-` or `.` and holds a letter, a digit or a byte past
 * ASCII. A log's `-` placeholder is no host; whether the rest is one, the
 * URL parser says (`OriginList.add`).
 */
function hostLike(bytes: Uint8Array, start: number, end: number): boolean {
  if (start >= end) return false
  if (bytes[start] === 0x5b) return true
  if (bytes[start] === 0x2d || bytes[start] === 0x2e) return false
  for (let i = start; i < end; i++) {
    const b = bytes[i]
    const l = b | 0x20
    if ((l >= 0x61 && l <= 0x7a) || (b >= 0x30 && b <= 0x39) || b >= 0x80) return true
  }
  return false
}

/** Blank bytes around a line's host. */
const isBlank = (b: number): boolean => b === 0x20 || b === 0x09 || b === 0x0d

/**
 * A list of hosts and URLs, one a line: a URL gives its origin (as `fetch`
 * reads a URL list), anything else is read as a host (`host`, `host:port`,
 * `[v6]:port`), fetched over the list's scheme, as a host column is.
 */
async function readHostList(inputs: readonly InputFile[], list: OriginList): Promise<void> {
  const locator = new LineLocator(WHOLE_LINES, true)
  const scan = new UrlScan()
  await forEachInputLine(
    inputs,
    locator,
    (bytes, start, end, fault, line, input) => {
      list.lines++
      if (fault === LineFault.None) {
        if (!locator.sameHost && !list.add(locator.hostBytes, locator.host, locator.hostSource)) list.unusableAt(input.name, line, bytes, start, end, locator.host)
        return
      }
      let s = start
      let e = end
      while (s < e && isBlank(bytes[s])) s++
      while (e > s && isBlank(bytes[e - 1])) e--
      // The whole line is host[:port] (the list adds it through the one host function: a name the URL parser refuses is counted as such).
      if (s < e && scan.scanHost(bytes, s, e) && scan.schemeEnd < 0 && scan.authorityEnd === e && hostLike(bytes, scan.hostStart, scan.hostEnd)) {
        if (!list.add(bytes, scan, HostSource.Column)) list.unusableAt(input.name, line, bytes, start, end, scan)
      } else list.fault(fault, input.name, line, bytes, start, end, locator)
    },
    async () => {},
  )
}
