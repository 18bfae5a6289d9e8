/**
 * The one place where the fetch layer touches the core: parsing entry points,
 * the `Robots` type and its rules' size, the store, and the two shared
 * fallback answers.
 */
import { parseRobots, rulesMemoryUsage, type Robots } from '../robots/robots.js'
import { parseRobotsStream } from '../robots/stream.js'
import { RobotsStore } from '../store/robots-store.js'

export { parseRobotsStream, RobotsStore, rulesMemoryUsage, type Robots }

let allowAllInstance: Robots | undefined
let disallowAllInstance: Robots | undefined

/** The answer for an unavailable robots.txt (RFC 9309 §2.3.1.3): everything allowed. One shared instance. */
export function allowAll(): Robots {
  return (allowAllInstance ??= parseRobots(''))
}

/** The answer for an unreachable robots.txt (RFC 9309 §2.3.1.4): everything disallowed. One shared instance. */
export function disallowAll(): Robots {
  return (disallowAllInstance ??= parseRobots('User-agent: *\nDisallow: /\n'))
}

/** True for the shared allow-all / disallow-all instances (not counted per cache entry). */
export function isShared(robots: Robots): boolean {
  return robots === allowAllInstance || robots === disallowAllInstance
}
