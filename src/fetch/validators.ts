/**
 * Conditional refresh (RFC 9110 §13.1, RFC 9111 §4.3): the validators of a
 * fetched robots.txt (`ETag`, `Last-Modified`), kept from its response and
 * sent back as `If-None-Match` / `If-Modified-Since` on the next fetch, which
 * a 304 answers without the body.
 */
import { describeValue, RobotsInputError } from '../errors.js'

/** The validators of a fetched robots.txt: what a refresh sends back. */
export interface FetchValidators {
  /** The `ETag` of the response, as sent (`"abc"`, `W/"abc"`); sent back as `If-None-Match`. */
  etag?: string
  /** Its `Last-Modified` (an HTTP-date), as sent; sent back as `If-Modified-Since`. */
  lastModified?: string
}

/** Longest validator kept or sent, in characters: a longer one is not kept from a response (and is an ERR_INPUT when passed in). */
export const MAX_VALIDATOR_LENGTH = 1024

/** Whether `v` is a validator worth keeping: 1 to MAX_VALIDATOR_LENGTH visible ASCII characters, spaces or tabs (what a header value may hold unencoded). */
export function isValidatorValue(v: unknown): v is string {
  if (typeof v !== 'string' || v.length === 0 || v.length > MAX_VALIDATOR_LENGTH) return false
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i)
    if ((c < 0x20 && c !== 0x09) || c > 0x7e) return false
  }
  return true
}

/** The validators of a response's headers (a value that is not a valid one is left out); undefined when it has none. */
export function validatorsOf(headers: { get(name: string): string | null }): FetchValidators | undefined {
  const etag = headers.get('etag')?.trim()
  const lastModified = headers.get('last-modified')?.trim()
  const out: FetchValidators = {}
  if (isValidatorValue(etag)) out.etag = etag
  if (isValidatorValue(lastModified)) out.lastModified = lastModified
  return out.etag === undefined && out.lastModified === undefined ? undefined : out
}

/** A 304's validators over the stored ones (RFC 9111 §4.3.4: the 304's header fields replace the stored ones). */
export function mergeValidators(fresh: FetchValidators | undefined, stored: FetchValidators | undefined): FetchValidators | undefined {
  if (fresh === undefined) return stored === undefined ? undefined : { ...stored }
  return { ...stored, ...fresh }
}

/** Checks validators passed in by a caller (`previous.validators`): a RobotsInputError (ERR_INPUT) unless each is absent or a valid value. */
export function checkValidators(v: unknown, where: string): FetchValidators | undefined {
  if (v === undefined) return undefined
  if (typeof v !== 'object' || v === null) throw new RobotsInputError(`${where} must be an object, got ${describeValue(v)}`)
  const o = v as Record<string, unknown>
  const out: FetchValidators = {}
  for (const name of ['etag', 'lastModified'] as const) {
    // Read once: the value checked is the value kept.
    const value = o[name]
    if (value === undefined) continue
    if (!isValidatorValue(value)) {
      throw new RobotsInputError(`${where}.${name} must be 1 to ${MAX_VALIDATOR_LENGTH} visible ASCII characters, spaces or tabs, got ${describeValue(value)}`)
    }
    out[name] = value
  }
  return out
}

/** The request headers of a conditional fetch: `If-None-Match` and `If-Modified-Since` for the validators given. */
export function conditionalHeaders(v: FetchValidators | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  if (v?.etag !== undefined) out['if-none-match'] = v.etag
  if (v?.lastModified !== undefined) out['if-modified-since'] = v.lastModified
  return out
}
