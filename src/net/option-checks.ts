/**
 * Checks of the Node entry's arguments (its transport, resolver and output
 * paths): a value of the wrong type or range is a RobotsInputError naming
 * it, before any look-up, connection or write (never a TypeError of Node's,
 * a call of the caller's own toString, nor a fetch that fails as if the
 * site had).
 */
import { RobotsInputError } from '../index.js'

/** A bad argument in words, without calling anything of it (its type, and its value when short). */
export function describeArgument(value: unknown): string {
  if (value === null || typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value)
  if (typeof value === 'string') return value.length <= 40 ? JSON.stringify(value) : `a string of ${value.length} chars`
  if (value === undefined) return 'undefined'
  return Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`
}

/**
 * `options` when it is undefined (then `{}`) or an object whose options
 * (with a value) are all in `names`; else a RobotsInputError naming `what`
 * (a name mistyped would be ignored in silence).
 */
export function optionsObject<T extends object>(options: unknown, what: string, names: readonly string[]): Partial<T> {
  if (options === undefined) return {}
  if (typeof options !== 'object' || options === null || Array.isArray(options)) throw new RobotsInputError(`${what}: options must be an object, got ${describeArgument(options)}`)
  for (const name of Object.keys(options)) {
    if (!names.includes(name) && (options as Record<string, unknown>)[name] !== undefined) throw new RobotsInputError(`${what}: ${JSON.stringify(name)} is not an option`)
  }
  return options as Partial<T>
}

/** `value` when it is undefined or a whole number of at least `min`; else a RobotsInputError naming `name`. */
export function wholeOption(value: unknown, name: string, min: number): number | undefined {
  if (value === undefined || (Number.isSafeInteger(value) && (value as number) >= min)) return value as number | undefined
  throw new RobotsInputError(`${name} must be a whole number >= ${min}, got ${describeArgument(value)}`)
}

/** `value` when it is a string; else a RobotsInputError naming `name`. */
export function stringArgument(value: unknown, name: string): string {
  if (typeof value === 'string') return value
  throw new RobotsInputError(`${name} must be a string, got ${describeArgument(value)}`)
}

/** True for an array whose every element, holes included, is a string. */
export function isStringArray(v: unknown): v is readonly string[] {
  if (!Array.isArray(v)) return false
  for (let i = 0; i < v.length; i++) if (typeof v[i] !== 'string') return false
  return true
}
