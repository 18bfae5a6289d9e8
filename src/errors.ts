/**
 * The errors the library throws: one tree under {@link RobotsError} (its
 * comment draws it), every error with a stable `code`, the classes that
 * stand for a built-in error kind extending that kind. Content never throws:
 * a robots.txt body, however broken, parses, and problems in it are
 * diagnostics. Each layer owns its errors: this file the core's; the
 * command line's (`CliError`, with its exit codes) are in src/cli/common/,
 * `compare`'s in src/compare/, subclasses of {@link RobotsError} with codes
 * of their own.
 */

/** The codes of the errors the library throws (the core's layer; the command line and `compare` add their own). */
export type RobotsErrorCode =
  | 'ERR_INPUT'
  | 'ERR_LIMIT'
  | 'ERR_BUDGET'
  | 'ERR_CAPACITY'
  | 'ERR_RANGE'
  | 'ERR_FORMAT'
  | 'ERR_VERSION'
  | 'ERR_FETCH'
  | 'ERR_LOCAL'

/**
 * Base of every error this library throws on purpose; `code` is stable.
 * `e instanceof RobotsError` holds for every class of the tree, also those
 * that extend TypeError or RangeError (so existing
 * `catch (e) { if (e instanceof RangeError) … }` code keeps working): a
 * class has one parent, so `instanceof RobotsError` checks the prototypes of
 * the tree's three roots, RobotsError, RobotsInputError and RobotsRangeError:
 *
 * ```
 * RobotsError                              (instanceof RobotsError: any of the below)
 * ├── RobotsInputError   extends TypeError   ERR_INPUT     an argument of a type or form the library does not take
 * ├── RobotsRangeError   extends RangeError  ERR_BUDGET    a budget option out of range (matcherBudget, maxBytes)
 * │   │                                      ERR_CAPACITY  an output array too small for the result (matchLines)
 * │   │                                      ERR_RANGE     offsets outside their buffer (matchRange)
 * │   └── RobotsLimitError                   ERR_LIMIT     the parsing limit below 500 KiB (RFC 9309 §2.5)
 * ├── RobotsFormatError  extends RobotsError ERR_FORMAT    a buffer that is not a serialised robots.txt (fromBytes)
 * │                                          ERR_VERSION   a serialised robots.txt of a format version not read here
 * └── RobotsError                            ERR_FETCH     no `fetch` to fetch robots.txt with
 *                                            ERR_LOCAL     this machine failed while fetching (EMFILE, ENOMEM, no free
 *                                                          local port, …): not the site's outcome; retry later
 * ```
 *
 * The Node entry's outputs add `OutputError` (src/files/output-file.ts:
 * ERR_OUTPUT). The tools extend the tree with their own layers, never
 * thrown by the library API: `CliError` (src/cli/common/cli-error.ts: ERR_USAGE, ERR_READ,
 * …, each with an exit code) and `CompareError` (src/compare/compare-error.ts:
 * ERR_ADAPTER, …). `C`, the type of `code`, is the core's
 * {@link RobotsErrorCode} unless a subclass widens it.
 *
 * The entries of one module format share these classes (one module graph);
 * the ESM and the CommonJS builds are two graphs, each with its own classes.
 */
export class RobotsError<C extends string = RobotsErrorCode> extends Error {
  readonly code: C
  constructor(code: C, message: string) {
    super(message)
    this.name = 'RobotsError'
    this.code = code
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    // Subclasses inherit this method: for them, the ordinary prototype check.
    const plain = Function.prototype[Symbol.hasInstance]
    if (this !== RobotsError) return plain.call(this, value)
    // The tree's three roots, by their prototypes: this class, and the two that extend a built-in kind.
    return plain.call(RobotsError, value) || plain.call(RobotsInputError, value) || plain.call(RobotsRangeError, value)
  }
}

/** An argument of a type or form the library does not take (a TypeError). */
export class RobotsInputError extends TypeError {
  readonly code = 'ERR_INPUT' as const
  constructor(message: string) {
    super(message)
    this.name = 'RobotsInputError'
  }
}

/** A number out of its range: a budget, an output array's size, offsets into a buffer (a RangeError). */
export class RobotsRangeError extends RangeError {
  readonly code: 'ERR_LIMIT' | 'ERR_BUDGET' | 'ERR_CAPACITY' | 'ERR_RANGE'
  constructor(code: 'ERR_LIMIT' | 'ERR_BUDGET' | 'ERR_CAPACITY' | 'ERR_RANGE', message: string) {
    super(message)
    this.name = 'RobotsRangeError'
    this.code = code
  }
}

/** The parsing limit out of range (RFC 9309 §2.5: at least 500 KiB). */
export class RobotsLimitError extends RobotsRangeError {
  declare readonly code: 'ERR_LIMIT'
  constructor(message: string) {
    super('ERR_LIMIT', message)
    this.name = 'RobotsLimitError'
  }
}

/** A buffer given to `Robots.fromBytes` that is not a serialised robots.txt of a supported version. */
export class RobotsFormatError extends RobotsError<'ERR_FORMAT' | 'ERR_VERSION'> {
  constructor(code: 'ERR_FORMAT' | 'ERR_VERSION', message: string) {
    super(code, message)
    this.name = 'RobotsFormatError'
  }
}

/**
 * The first argument of a private constructor (the typings offer none,
 * JavaScript can still call it), given by its class's own factory: see
 * {@link checkOpened}.
 */
export const OPENED: unique symbol = Symbol('robots-automaton')

/** In a private constructor: a call without {@link OPENED} is a RobotsInputError naming the class, not an object that fails later. */
export function checkOpened(key: unknown, name: string): void {
  if (key !== OPENED) throw new RobotsInputError(`${name} has no public constructor`)
}

/**
 * An options argument: `undefined` (then `{}`), or an object; anything else
 * (null, a number, an array, ...) is a RobotsInputError naming `what`. With
 * `names`, a plain copy of those options (own or inherited), each read once:
 * the value checked is then the value used, whatever a getter gives later.
 */
export function optionsArgument<T extends object>(options: unknown, what: string, names?: readonly string[]): Partial<T> {
  if (options === undefined) return {}
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new RobotsInputError(`${what}: options must be an object, got ${describeValue(options)}`)
  }
  if (names === undefined) return options as Partial<T>
  const copy: Record<string, unknown> = {}
  for (const name of names) {
    const value = (options as Record<string, unknown>)[name]
    if (value !== undefined) copy[name] = value
  }
  return copy as Partial<T>
}

/**
 * `value` as a Uint8Array of this realm, or undefined when it is none. A
 * Uint8Array of another realm (a `vm` context, an iframe, a test runner that
 * runs modules in a context of their own, where Node's Buffers are foreign),
 * which `instanceof` does not see, is viewed again here.
 */
export function asBytes(value: unknown): Uint8Array | undefined {
  if (value instanceof Uint8Array) return value
  if (!ArrayBuffer.isView(value)) return undefined
  let tag = ''
  try {
    tag = Object.prototype.toString.call(value)
  } catch {
    // A throwing Symbol.toStringTag getter: not bytes.
  }
  return tag === '[object Uint8Array]' ? new Uint8Array(value.buffer, value.byteOffset, value.byteLength) : undefined
}

/** True for a whole number in [0, 2^32): an offset or an index (never a BigInt, a Symbol or an object, whose coercion throws or lies). */
export function isIndex(v: unknown): v is number {
  return typeof v === 'number' && v >>> 0 === v
}

/** True for an array whose every element, holes included, is a string (`every` skips holes). */
export function isStrings(v: unknown): v is readonly string[] {
  if (!Array.isArray(v)) return false
  for (let i = 0; i < v.length; i++) if (typeof v[i] !== 'string') return false
  return true
}

/** A short description of a bad argument for error messages: its type, and its value when short. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null'
  switch (typeof value) {
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(value)
    case 'string':
      return value.length <= 40 ? JSON.stringify(value) : `a string of ${value.length} chars`
    case 'undefined':
      return 'undefined'
    case 'object':
      // A throwing Symbol.toStringTag getter (or a revoked Proxy) must not replace the error being described.
      try {
        return Object.prototype.toString.call(value)
      } catch {
        return 'an object'
      }
    default:
      return `a ${typeof value}`
  }
}
