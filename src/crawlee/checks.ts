/**
 * Argument checks of the crawlee entry, which reaches the core through the
 * package's entries only: a bad argument is a RobotsInputError (ERR_INPUT)
 * naming what was given.
 */
import { RobotsError, RobotsInputError } from '../index.js'

/** A bad argument, briefly: its type, and its value when short. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null'
  if (typeof value === 'string') return value.length <= 40 ? JSON.stringify(value) : `a string of ${value.length} chars`
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint' || value === undefined) return String(value)
  if (typeof value === 'object') {
    try {
      return Object.prototype.toString.call(value)
    } catch {
      return 'an object that cannot be read' // a revoked Proxy, a throwing Symbol.toStringTag
    }
  }
  return `a ${typeof value}`
}

/**
 * `read()`, whose reading of an argument may throw (a revoked Proxy, a
 * throwing getter): such an error becomes a RobotsInputError naming `what`.
 */
export function readArgument<T>(what: string, read: () => T): T {
  try {
    return read()
  } catch (err) {
    if (err instanceof RobotsError) throw err
    throw new RobotsInputError(`${what} cannot be read: ${err instanceof Error ? err.message : describeValue(err)}`)
  }
}

/** Throws a RobotsInputError `${what}: ${name} must be ${must}, got …` unless `ok`. */
export function mustBe(ok: boolean, what: string, name: string, must: string, value: unknown): void {
  if (!ok) throw new RobotsInputError(`${what}: ${name} must be ${must}, got ${describeValue(value)}`)
}

/** An options argument's members, to check: undefined gives none; anything but an object is an error. */
export function optionsObject(options: unknown, what: string): Record<string, unknown> {
  if (options === undefined) return {}
  return readArgument(`${what}: options`, () => {
    if (typeof options !== 'object' || options === null || Array.isArray(options)) {
      throw new RobotsInputError(`${what}: options must be an object, got ${describeValue(options)}`)
    }
    // Each option read once; one the object inherits counts as its own would, as fetchRobots and RobotsCache read them.
    const copy: Record<string, unknown> = {}
    for (const name in options) {
      // Defined, not assigned: an own `__proto__` key stays a key (and is refused as no option), not the copy's prototype.
      Object.defineProperty(copy, name, { value: (options as Record<string, unknown>)[name], enumerable: true, writable: true, configurable: true })
    }
    return copy
  })
}

/**
 * Whether `value` can be sent as a User-Agent header: tab, space, visible
 * ASCII and U+0080–U+00FF (no control char, none past U+00FF), at most
 * 1,024 chars, the rule `fetchRobots` checks its `userAgent` by.
 */
export function isHeaderValue(value: string): boolean {
  return /^[\t\x20-\x7e\x80-\xff]{0,1024}$/.test(value)
}

/** `value instanceof cls`, where asking may throw (a revoked Proxy): then a RobotsInputError naming `what`. */
export function isInstance<T>(what: string, value: unknown, cls: abstract new (...args: never[]) => T): value is T {
  return readArgument(what, () => value instanceof cls)
}
