/** Locating ../shared (the conformance vectors and the real corpus) from the tests. */
import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'

/** Path of the shared folder beside the repository. */
export const SHARED = resolve(__dirname, '../../../shared')

/** True when ../shared is present (CI has it; a bare clone may not). */
export const HAS_SHARED = existsSync(resolve(SHARED, 'conformance'))

/** Reads a JSON file under ../shared. */
export function sharedJson<T>(rel: string): T {
  return JSON.parse(readFileSync(resolve(SHARED, rel), 'utf8')) as T
}

/** Bytes of a vector's field: `<name>_base64` is authoritative when present. */
export function vectorBytes(record: Record<string, unknown>, name: string): Uint8Array {
  const b64 = record[`${name}_base64`]
  if (typeof b64 === 'string') return new Uint8Array(Buffer.from(b64, 'base64'))
  return new TextEncoder().encode(String(record[name] ?? ''))
}
