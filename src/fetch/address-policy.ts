/**
 * Which addresses a fetch may connect to (SSRF): the `privateAddresses`
 * option of `fetchRobots`, applied to the first request and to every
 * redirect. A transport that resolves names (`checksAddresses`) asks for
 * each address it is about to connect to; otherwise the access method
 * checks each request's host as written in its URL. The classes are
 * address.ts's.
 */
import { describeValue, RobotsInputError } from '../errors.js'
import { classifyHost, classifyNormalHost, type HostClass } from './address.js'

/**
 * `fetchRobots`'s `privateAddresses`:
 * - `'refuse'`: every request must reach a public address, the origin's
 *   first one included (names that come from untrusted input: a crawl
 *   frontier, a log, a bundle made elsewhere). A refused origin is the
 *   outcome `refused`; a refused redirect is `redirect-blocked`.
 * - `'origin'` (the default): as `'refuse'`, except that an origin whose URL
 *   names a non-public host itself (`http://127.0.0.1:8080`, `localhost`,
 *   `intranet`, `printer.local`) is the caller's choice, and it and its
 *   redirects may reach non-public addresses. A public name that resolves
 *   to one is refused.
 * - `'allow'`: nothing is refused.
 *
 * Whatever the policy, a connection the user routed (curl's `--resolve`
 * and `--connect-to`: a transport's mapping) is never refused.
 */
export type PrivateAddressPolicy = 'refuse' | 'origin' | 'allow'

const POLICIES: readonly PrivateAddressPolicy[] = ['refuse', 'origin', 'allow']

/** A refusal of the address policy, thrown by a request's `checkAddress` and turned into an outcome by the access method. */
export class AddressRefusal extends Error {
  constructor(
    /** The class of what was refused. */
    readonly hostClass: HostClass,
    /** The host as written in the URL. */
    readonly host: string,
    /** The address refused, when it was a resolved one. */
    readonly address: string | undefined,
  ) {
    super(`${address === undefined || address === host ? host : `${host} (${address})`} is ${hostClass}: refused by the address policy`)
    this.name = 'AddressRefusal'
  }
}

/** The policy of one fetch. */
export interface AddressGuard {
  /** Whether anything can be refused (else no check is made). */
  readonly active: boolean
  /** The class that refuses `host` (as a URL writes it: `URL.hostname`) reached at `address` (a numeric one, as resolved; undefined: the host as written alone), or undefined when allowed. */
  refused(host: string, address: string | undefined, routed: boolean): HostClass | undefined
}

/** Checks the option's value (`allowPrivateRedirects: true` is the older spelling of `'allow'`). */
export function checkPrivateAddresses(value: unknown, allowPrivateRedirects: unknown): PrivateAddressPolicy {
  if (value === undefined) return allowPrivateRedirects === true ? 'allow' : 'origin'
  if (typeof value !== 'string' || !POLICIES.includes(value as PrivateAddressPolicy)) {
    throw new RobotsInputError(`fetchRobots: privateAddresses must be 'refuse', 'origin' or 'allow', got ${describeValue(value)}`)
  }
  return value as PrivateAddressPolicy
}

/** The guard of a fetch of `origin` (its URL as asked for) under `policy`. */
export function addressGuard(policy: PrivateAddressPolicy, origin: URL): AddressGuard {
  // 'origin': a non-public origin named by the caller opens the private space to it and its redirects.
  const active = policy === 'refuse' || (policy === 'origin' && classifyHost(origin) === undefined)
  return {
    active,
    refused(host, address, routed) {
      if (!active || routed) return undefined
      return classifyNormalHost(host) ?? (address === undefined ? undefined : classifyNormalHost(address))
    },
  }
}
