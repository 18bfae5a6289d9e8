/**
 * The argument checks of `fetchRobots` that are about types, not numbers
 * (those are checked where they are read, in fetch-robots.ts): an options
 * argument that is not an object, or a `fetch`, `signal`, `now`, `userAgent`
 * or `allowPrivateRedirects` of the wrong type, is a RobotsInputError
 * (ERR_INPUT) before any request, instead of a crash or a request that fails
 * as a "network error".
 */
import { describeValue, optionsArgument, RobotsInputError } from '../errors.js'
import type { FetchRobotsOptions } from './fetch-robots.js'

function expect(ok: boolean, name: string, what: string, value: unknown): void {
  if (!ok) throw new RobotsInputError(`fetchRobots: ${name} must be ${what}, got ${describeValue(value)}`)
}

/** Checks the options of `fetchRobots` (see the module comment); returns them (`{}` for undefined). */
export function checkFetchOptions(options: unknown): FetchRobotsOptions {
  const o = optionsArgument<FetchRobotsOptions>(options, 'fetchRobots') as FetchRobotsOptions
  expect(o.fetch === undefined || typeof o.fetch === 'function', 'fetch', 'a function', o.fetch)
  expect(o.now === undefined || typeof o.now === 'function', 'now', 'a function', o.now)
  expect(o.userAgent === undefined || typeof o.userAgent === 'string', 'userAgent', 'a string', o.userAgent)
  expect(o.allowPrivateRedirects === undefined || typeof o.allowPrivateRedirects === 'boolean', 'allowPrivateRedirects', 'a boolean', o.allowPrivateRedirects)
  const s = o.signal as unknown as Record<string, unknown> | null | undefined
  expect(
    s === undefined || (typeof s === 'object' && s !== null && typeof s.aborted === 'boolean' && typeof s.throwIfAborted === 'function' && typeof s.addEventListener === 'function'),
    'signal',
    'an AbortSignal',
    s,
  )
  return o
}
