/** Compact forms written by hand (rules/compact-rules.ts), for tests of what no parse produces. */
import { ByteBuffer } from '../../src/rules/byte-buffer.js'
import { CompactRules, EventWriter, formSize, writeForm, type FormParts } from '../../src/rules/compact-rules.js'

const enc = new TextEncoder()

/** Runs of bytes, each as a varint length and the bytes. */
function runs(list: readonly (string | Uint8Array)[]): Uint8Array {
  const b = new ByteBuffer()
  for (const x of list) {
    const bytes = typeof x === 'string' ? enc.encode(x) : x
    b.run(bytes, 0, bytes.length)
  }
  return b.bytes.slice(0, b.length)
}

/** A form from its events (written with an EventWriter) and sections; missing parts are empty. */
export function handForm(parts: {
  events: EventWriter
  patterns?: Uint8Array
  names?: readonly string[]
  sitemaps?: readonly string[]
  lineCount?: number
  bytesRead?: number
}): Uint8Array {
  const whole = (bytes: Uint8Array) => ({ bytes, length: bytes.length })
  const p: FormParts = {
    patterns: whole(parts.patterns ?? new Uint8Array(0)),
    events: parts.events.out,
    eventCount: parts.events.count,
    names: whole(runs(parts.names ?? [])),
    extensions: whole(new Uint8Array(0)),
    sitemaps: whole(runs(parts.sitemaps ?? [])),
    diagnostics: whole(new Uint8Array(0)),
    truncated: false,
    bytesRead: parts.bytesRead ?? 0,
    lineCount: parts.lineCount ?? 0,
  }
  const form = new Uint8Array(formSize(p))
  writeForm(form, 0, p)
  return form
}

/** A CompactRules view of {@link handForm}'s form. */
export function handRules(parts: Parameters<typeof handForm>[0]): CompactRules {
  return new CompactRules(handForm(parts))
}
