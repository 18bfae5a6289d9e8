/**
 * `filter --format jsonl`: one JSON object per judged line ({@link jsonRecord}
 * has the fields; docs/cli.md is the users' description),
 *
 *   {"url": "https://example.com/a", "allowed": false, "line": 4,
 *    "rule": {"kind": "disallow", "pattern": "/a"},
 *    "host": "example.com", "source": "robots/example.com"}
 */
import { isUtf8 } from 'node:buffer'
import type { AgentMatcher } from '../../index.js'
import { jsonLine } from '../common/printable.js'
import type { Decided } from '../hosts/host-judge.js'

const DECODER = new TextDecoder()

/** The deciding rule's kind and pattern (explain runs only on lines a rule decided). */
function ruleOf(matcher: AgentMatcher, bytes: Uint8Array, start: number, end: number, line: number): { kind: string; pattern: string } | null {
  if (line === 0) return null
  const rule = matcher.explain(bytes.subarray(start, end)).rule
  return rule === null ? null : { kind: rule.kind, pattern: rule.pattern }
}

/**
 * The JSON object of one line (without its LF):
 *
 * - `url`: the URL judged (the `--field` column, or the line without its
 *   line ending). When its bytes are not valid UTF-8, `url` shows them with
 *   U+FFFD and `url_base64` holds them exactly.
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
 *   `BUNDLE#<key>`; null when the host has no robots.txt (so a `line` of 0
 *   with a `source` means "a file, but no rule matched", and with null
 *   "no file").
 */
export function jsonRecord(bytes: Uint8Array, start: number, end: number, code: number, decided: Decided): string {
  const view = bytes.subarray(start, end)
  const valid = isUtf8(view)
  const url = DECODER.decode(view)
  const line = code >>> 1
  let rule: object | null = null
  if (decided.outcome === 'unreachable') rule = { kind: 'disallow', pattern: '/', implied: 'unreachable' }
  else if (decided.matcher !== null) rule = ruleOf(decided.matcher, bytes, start, end, line)
  const record: Record<string, unknown> = { url }
  if (!valid) record.url_base64 = Buffer.from(view.buffer, view.byteOffset, view.length).toString('base64')
  record.allowed = (code & 1) === 1
  record.line = line
  record.rule = rule
  record.host = decided.host
  record.source = decided.source
  return jsonLine(record)
}
