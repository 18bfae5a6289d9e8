/**
 * The two answers that have no file of their own (RFC 9309 §2.3.1.3–4): one
 * home for both, used by the fetcher, the cache and the store.
 */
import { parseRobots, type Robots } from './robots.js'

let allowAllInstance: Robots | undefined
let disallowAllInstance: Robots | undefined

/** The answer for an unavailable robots.txt (§2.3.1.3): everything allowed. One shared instance. */
export function allowAll(): Robots {
  return (allowAllInstance ??= parseRobots(''))
}

/** The answer for an unreachable robots.txt (§2.3.1.4): everything disallowed. One shared instance. */
export function disallowAll(): Robots {
  return (disallowAllInstance ??= parseRobots('User-agent: *\nDisallow: /\n'))
}

/** True for the shared allow-all / disallow-all instances (not counted per cache entry). */
export function isShared(robots: Robots): boolean {
  return robots === allowAllInstance || robots === disallowAllInstance
}
