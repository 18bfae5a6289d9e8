/**
 * The caller's own say on redirects: `redirectFilter`, asked for every
 * redirect target that the address policy (address-policy.ts) let through.
 */
import { describeValue, RobotsInputError } from '../errors.js'

/** Decides whether a redirect may be followed; resolve to `true` to follow it. Gets a copy of the target URL. */
export type RedirectFilter = (url: URL) => boolean | Promise<boolean>

/** Checks `allowPrivateRedirects` and `redirectFilter` (types only: what they mean is read where they are used); the filter. */
export function redirectFilterOf(allowPrivateRedirects: unknown, redirectFilter: unknown): RedirectFilter | undefined {
  if (allowPrivateRedirects !== undefined && typeof allowPrivateRedirects !== 'boolean') {
    throw new RobotsInputError(`allowPrivateRedirects must be a boolean, got ${describeValue(allowPrivateRedirects)}`)
  }
  if (redirectFilter !== undefined && typeof redirectFilter !== 'function') {
    throw new RobotsInputError(`redirectFilter must be a function, got ${describeValue(redirectFilter)}`)
  }
  return redirectFilter as RedirectFilter | undefined
}
