/**
 * Options checked by name and the injected clock: a name that is not an
 * option (`timeout` for `timeoutMs`) would be ignored in silence, and a
 * `now()` that gives NaN would make every lifetime NaN.
 */
import { describeValue, RobotsInputError } from '../errors.js'

/** The names of `FetchRobotsOptions` (options.ts). */
export const FETCH_OPTION_NAMES: readonly string[] = ['fetch', 'transport', 'privateAddresses', 'timeoutMs', 'maxRedirects', 'limit', 'userAgent', 'signal', 'now', 'maxTtlMs', 'minTtlMs', 'unreachableTtlMs', 'allowPrivateRedirects', 'redirectFilter', 'previous']

/**
 * Refuses an option of `o` not in `known` (ERR_INPUT): a name mistyped
 * (`timeout`) would be ignored in silence. One whose value is undefined is
 * none.
 */
export function checkOptionNames(o: object, known: readonly string[], what: string): void {
  for (const name of Object.keys(o)) {
    if (!known.includes(name) && (o as Record<string, unknown>)[name] !== undefined) throw new RobotsInputError(`${what}: ${JSON.stringify(name)} is not an option; the options are ${known.join(', ')}`)
  }
}

/**
 * `now()`, refused (ERR_INPUT) unless it is a time in ms since the epoch, as
 * `Date.now()` gives: NaN would make every lifetime NaN, a `Date` every
 * expiry a string.
 */
export function readClock(now: () => number, what: string): number {
  const t: unknown = now()
  if (typeof t === 'number' && Number.isFinite(t) && t >= 0) return t
  throw new RobotsInputError(`${what}: now() must return a finite number, got ${describeValue(t)}: a time in ms since the epoch, as Date.now() gives`)
}
