/**
 * Which redirects `fetchRobots` refuses (SSRF): by default a redirect from a
 * public origin to a loopback, private, link-local or otherwise non-public
 * host (see address.ts), then whatever the caller's `redirectFilter` refuses.
 */
import { RobotsInputError } from '../errors.js'
import { classifyHost, type HostClass } from './address.js'

/** Decides whether a redirect may be followed; resolve to `true` to follow it. Gets a copy of the target URL. */
export type RedirectFilter = (url: URL) => boolean | Promise<boolean>

/** The redirect options of one fetch, checked. */
export interface RedirectGuard {
  /** Refuse targets on non-public hosts (the origin asked for is public and the caller did not opt out). */
  readonly refusePrivate: boolean
  readonly filter: RedirectFilter | undefined
}

/** Checks the options and sees whether the origin asked for is itself non-public (then redirects within private space are allowed). */
export function redirectGuard(
  origin: URL,
  allowPrivateRedirects: unknown,
  redirectFilter: unknown,
): RedirectGuard {
  if (allowPrivateRedirects !== undefined && typeof allowPrivateRedirects !== 'boolean') {
    throw new RobotsInputError(`allowPrivateRedirects must be a boolean, got ${String(allowPrivateRedirects)}`)
  }
  if (redirectFilter !== undefined && typeof redirectFilter !== 'function') {
    throw new RobotsInputError(`redirectFilter must be a function, got ${Object.prototype.toString.call(redirectFilter)}`)
  }
  return {
    refusePrivate: allowPrivateRedirects !== true && classifyHost(origin) === undefined,
    filter: redirectFilter as RedirectFilter | undefined,
  }
}

/** The class of `target`'s host when the guard refuses it by address, else undefined (the filter is asked separately). */
export function refusedHost(guard: RedirectGuard, target: URL): HostClass | undefined {
  return guard.refusePrivate ? classifyHost(target) : undefined
}
