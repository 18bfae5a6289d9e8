/**
 * `filter --format jsonl`: one JSON object per line ({@link jsonRecord}
 * has the fields; docs/filter.md is the users' description),
 *
 *   {"url": "https://example.com/a", "allowed": false, "line": 4,
 *    "rule": {"kind": "disallow", "pattern": "/a"},
 *    "host": "example.com", "source": "robots/example.com", "input_line": 7}
 *
 * The rule is read from the rule set by the deciding rule's index (the
 * verdict carries it): nothing is matched a second time.
 */
import { isUtf8 } from 'node:buffer'
import { jsonLine } from '../../tools/printable.js'
import { inputText } from '../../tools/input-text.js'
import type { Decided } from './line-judge.js'
import { FAULT_CODES, type LineLocator } from './line-locator.js'
import type { CrawlerCodes } from './crawler-codes.js'

/** `--crawlers` in a record: the crawlers' names, the judge's codes of the line in hand, and `--require`. */
export interface RecordCrawlers {
  readonly names: readonly string[]
  readonly codes: CrawlerCodes
  readonly require: 'all' | 'any'
}

/**
 * The JSON object of one line (without its LF):
 *
 * - `url`: the URL judged (the `--field` column, a request line's target, or
 *   the line without its line ending). When its bytes are not valid UTF-8,
 *   `url` shows them with U+FFFD and `url_base64` holds them exactly.
 * - `allowed`: the verdict; `null` for a line that was not judged (no URL,
 *   or no host under per-host rules), which then has `reason` (`empty`,
 *   `no-field`, `no-request`, `not-url`, `no-host`, `bad-host`, `empty-request`,
 *   `cr`: FAULT_CODES) instead of a rule.
 * - `line`: the deciding rule's line in the robots.txt, 0 when none.
 * - `rule`: `{kind, pattern}` of the deciding rule (the pattern as matched:
 *   escaped), or null when no rule decided (an empty `Allow:`/`Disallow:`
 *   line that matched alone gives `pattern: ""`). For an entry that is a
 *   fetch outcome (a bundle packed from JSON lines) instead of a file,
 *   `{"kind": "disallow", "pattern": "/", "implied": "unreachable"}` or null
 *   for `unavailable`; likewise for a `--robots` URL whose fetch was
 *   unreachable (its `line` is 0: the rule is not a line of a file).
 * - `host`: the host the line was judged by (lowercased, without port), or
 *   null when the line has none.
 * - `source`: the robots.txt that decided: the `--robots` name, `DIR/<host>`,
 *   `BUNDLE#<key>`; null when the host has none (so a `line` of 0 with a
 *   `source` means "a file, but no rule matched", and with null "no file").
 * - `input_line`: the line's number in its input (from 1); `input`: the
 *   input's name, when the run reads several.
 *
 * With `--crawlers`, `line` and `rule` give way to `crawlers`, an object
 * with a member per crawler in the order given (`"GPTBot": {"allowed":
 * false, "line": 4, "rule": {...}}`), and `allowed` is the line's combined
 * verdict (`--require all`: every crawler allowed; `any`: one is); a line
 * not judged has `"crawlers": null`.
 */
export function jsonRecord(
  bytes: Uint8Array,
  start: number,
  end: number,
  code: number,
  decided: Decided | null,
  inputLine: number,
  input: string | undefined,
  locator: LineLocator,
  crawlers?: RecordCrawlers,
): string {
  const view = bytes.subarray(start, end)
  const record: Record<string, unknown> = { url: inputText(view) }
  if (!isUtf8(view)) record.url_base64 = Buffer.from(view.buffer, view.byteOffset, view.length).toString('base64')
  if (crawlers !== undefined) {
    if (code < 0 || decided === null) {
      Object.assign(record, { allowed: null, reason: FAULT_CODES[-code], crawlers: null, host: locator.hostText(), source: null })
    } else {
      const { codes, at, size } = crawlers.codes
      const each: Record<string, unknown> = {}
      let all = true
      let any = false
      for (let k = 0; k < size; k++) {
        const c = codes[at + k]
        const allowed = (c & 1) === 1
        all &&= allowed
        any ||= allowed
        const line = c >>> 1
        let rule: object | null = null
        if (decided.outcome === 'unreachable') rule = { kind: 'disallow', pattern: '/', implied: 'unreachable' }
        else if (line !== 0) {
          const r = decided.crawlers?.[k]?.rule
          if (r != null) rule = { kind: r.kind, pattern: r.pattern }
        }
        // A name that is an Object.prototype member (`__proto__`) is a member like any other.
        Object.defineProperty(each, crawlers.names[k], { value: { allowed, line, rule }, enumerable: true, writable: true, configurable: true })
      }
      Object.assign(record, { allowed: crawlers.require === 'all' ? all : any, crawlers: each, host: decided.host, source: decided.source })
    }
    if (input !== undefined) record.input = input
    record.input_line = inputLine
    return jsonLine(record)
  }
  if (code < 0 || decided === null) {
    record.allowed = null
    record.reason = FAULT_CODES[-code]
    record.line = 0
    record.rule = null
    record.host = locator.hostText()
    record.source = null
  } else {
    const line = code >>> 1
    let rule: object | null = null
    if (decided.outcome === 'unreachable') rule = { kind: 'disallow', pattern: '/', implied: 'unreachable' }
    else if (decided.matcher !== null && line !== 0) {
      const r = decided.rule
      if (r !== null) rule = { kind: r.kind, pattern: r.pattern }
    }
    record.allowed = (code & 1) === 1
    record.line = line
    record.rule = rule
    record.host = decided.host
    record.source = decided.source
  }
  if (input !== undefined) record.input = input
  record.input_line = inputLine
  return jsonLine(record)
}
