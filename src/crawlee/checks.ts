/**
 * Argument checks of the crawlee entry, which reaches the core through the
 * package's entries only: a bad argument is a RobotsInputError (ERR_INPUT)
 * naming what was given.
 */
import { RobotsInputError } from '../index.js'

/** A bad argument, briefly: its type, and its value when short. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null'
  if (typeof value === 'string') return value.length <= 40 ? JSON.stringify(value) : `a string of ${value.length} chars`
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint' || value === undefined) return String(value)
  if (typeof value === 'object') return Object.prototype.toString.call(value)
  return `a ${typeof value}`
}

/** Throws a RobotsInputError `${what}: ${name} must be ${must}, got …` unless `ok`. */
export function mustBe(ok: boolean, what: string, name: string, must: string, value: unknown): void {
  if (!ok) throw new RobotsInputError(`${what}: ${name} must be ${must}, got ${describeValue(value)}`)
}

/** An options argument's members, to check: undefined gives none; anything but an object is an error. */
export function optionsObject(options: unknown, what: string): Record<string, unknown> {
  if (options === undefined) return {}
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new RobotsInputError(`${what}: options must be an object, got ${describeValue(options)}`)
  }
  return { ...options }
}

/** Whether `value` can be sent as an HTTP header's value (no CR, LF or NUL, no char past U+00FF), by the platform's own rule. */
export function isHeaderValue(value: string): boolean {
  try {
    new Headers([['user-agent', value]])
    return true
  } catch {
    return false
  }
}
