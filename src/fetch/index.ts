/** The access method (RFC 9309 §2.3) and a per-origin cache (§2.4), on the Web `fetch` API. */
export { fetchRobots, MAX_TIMEOUT_MS, type FetchLike, type FetchRobotsOptions } from './fetch-robots.js'
export type { RedirectFilter } from './redirect-guard.js'
export { classifyHost, type HostClass } from './address.js'
export type { FetchFailure, FetchOutcome, FetchReason, RedirectHop, RobotsFetchResult } from './outcome.js'
export {
  RobotsCache,
  type RobotsBasis,
  type RobotsCacheOptions,
  type RobotsCacheStats,
  type RobotsLookup,
} from './robots-cache.js'
export { robotsLocation, type RobotsLocation } from './origin.js'
export { describeFetchResult } from './describe.js'
