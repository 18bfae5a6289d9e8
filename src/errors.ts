/**
 * The errors robots-automaton throws: one tree under {@link RobotsError}
 * (its comment draws it), every error with a stable `code`, the classes that
 * stand for a built-in error kind extending that kind. Content never throws:
 * a robots.txt body, however broken, parses, and problems in it are
 * diagnostics. {@link CliError} is the tools' error (the command line and
 * `compare`): it carries an exit status and never leaves their process.
 */

/** Error codes raised by robots-automaton. */
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
  | CliErrorCode

/** Codes of the tools' errors ({@link CliError}); ERR_FETCH, ERR_FORMAT and ERR_VERSION mean what they mean for the library. */
export type CliErrorCode =
  | 'ERR_USAGE' // bad arguments: exit 2
  | 'ERR_READ' // a file or stream could not be read: exit 1
  | 'ERR_WRITE' // stdout (other than a closed pipe) or an output file could not be written: exit 1
  | 'ERR_FETCH' // a robots.txt URL could not be fetched: exit 1
  | 'ERR_ADAPTER' // compare: the implementation under test could not be run or broke its protocol: exit 1
  | 'ERR_FORMAT' // a bundle (or pack input) that is not valid: exit 1
  | 'ERR_VERSION' // a bundle of a format version this build does not read: exit 1
  | 'ERR_WORKER' // a worker thread of filter --jobs failed: exit 1
  | 'ERR_LISTEN' // playground: its address could not be bound (a port in use): exit 1
  | 'ERR_NO_URL' // filter: no line of the input held a URL, or --invalid fail met a line without one: exit 4
  | 'ERR_LOCAL' // fetch: nothing could be fetched for a while, only failures of this machine (descriptors, memory, ports): exit 1

/** The brand every error class of the library carries on its prototype. */
const BRAND: unique symbol = Symbol.for('robots-automaton.error') as never

function brand(cls: { prototype: object }): void {
  Object.defineProperty(cls.prototype, BRAND, { value: true })
}

/**
 * Base of every error this library throws on purpose; `code` is stable.
 * `e instanceof RobotsError` holds for every class of the tree, also those
 * that extend TypeError or RangeError, so existing
 * `catch (e) { if (e instanceof RangeError) … }` code keeps working:
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
 * ├── RobotsError                            ERR_FETCH     no `fetch` to fetch robots.txt with
 * │                                          ERR_LOCAL     this machine failed while fetching (EMFILE, ENOMEM, no free
 * │                                                        local port, …): not the site's outcome; retry later
 * └── CliError           extends RobotsError ERR_USAGE …   the command line and `compare` (never thrown by the library API)
 * ```
 *
 * `instanceof RobotsError` recognises a brand that all these classes carry
 * (a registered symbol, so the ESM and CJS builds of the package recognise
 * each other's errors too).
 */
export class RobotsError extends Error {
  readonly code: RobotsErrorCode
  constructor(code: RobotsErrorCode, message: string) {
    super(message)
    this.name = 'RobotsError'
    this.code = code
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    // Subclasses inherit this method: for them, the ordinary prototype check.
    if (this !== RobotsError) return Function.prototype[Symbol.hasInstance].call(this, value)
    return typeof value === 'object' && value !== null && (value as { [BRAND]?: boolean })[BRAND] === true
  }
}
brand(RobotsError)

/** An argument of a type or form the library does not take (a TypeError). */
export class RobotsInputError extends TypeError {
  readonly code = 'ERR_INPUT' as const
  constructor(message: string) {
    super(message)
    this.name = 'RobotsInputError'
  }
}
brand(RobotsInputError)

/** A number out of its range: a budget, an output array's size, offsets into a buffer (a RangeError). */
export class RobotsRangeError extends RangeError {
  readonly code: 'ERR_LIMIT' | 'ERR_BUDGET' | 'ERR_CAPACITY' | 'ERR_RANGE'
  constructor(code: 'ERR_LIMIT' | 'ERR_BUDGET' | 'ERR_CAPACITY' | 'ERR_RANGE', message: string) {
    super(message)
    this.name = 'RobotsRangeError'
    this.code = code
  }
}
brand(RobotsRangeError)

/** The parsing limit out of range (RFC 9309 §2.5: at least 500 KiB). */
export class RobotsLimitError extends RobotsRangeError {
  declare readonly code: 'ERR_LIMIT'
  constructor(message: string) {
    super('ERR_LIMIT', message)
    this.name = 'RobotsLimitError'
  }
}

/** A buffer given to `Robots.fromBytes` that is not a serialised robots.txt of a supported version. */
export class RobotsFormatError extends RobotsError {
  declare readonly code: 'ERR_FORMAT' | 'ERR_VERSION'
  constructor(code: 'ERR_FORMAT' | 'ERR_VERSION', message: string) {
    super(code, message)
    this.name = 'RobotsFormatError'
  }
}

/** An error the command line (or `compare`) reports as one line on stderr before exiting with `exitCode`. */
export class CliError extends RobotsError {
  declare readonly code: CliErrorCode
  /** 1 a failure, 2 a usage error, 4 no line of the input held a URL (`filter`). */
  readonly exitCode: 1 | 2 | 4
  constructor(code: CliErrorCode, message: string, exitCode: 1 | 2 | 4 = 1) {
    super(code, message)
    this.name = 'CliError'
    this.exitCode = exitCode
  }
}

/** Bad command-line arguments (exit 2). */
export class UsageError extends CliError {
  constructor(message: string) {
    super('ERR_USAGE', message, 2)
    this.name = 'UsageError'
  }
}

/** Plain words for the system errors a user meets when naming files. */
const SYSTEM_WORDS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EISDIR: 'is a directory',
  ENOTDIR: 'not a directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENAMETOOLONG: 'file name too long',
  ELOOP: 'too many symbolic links',
  EMFILE: 'too many open files',
  EIO: 'input/output error',
  ENOSPC: 'no space left on device',
  Z_DATA_ERROR: 'not valid gzip data',
  Z_BUF_ERROR: 'gzip data is cut short',
}

/** A short description of a Node system error, e.g. "no such file or directory". */
export function describeSystemError(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown }
  if (typeof e?.code === 'string' && SYSTEM_WORDS[e.code] !== undefined) return SYSTEM_WORDS[e.code]
  const message = typeof e?.message === 'string' ? e.message : String(err)
  return message.split('\n')[0]
}

/** A `CliError` (exit 1) for a file that could not be read. */
export function readError(what: string, name: string, err: unknown): CliError {
  return new CliError('ERR_READ', `cannot read ${what} '${name}': ${describeSystemError(err)}`)
}

/**
 * An options argument: `undefined` (then `{}`), or an object; anything else
 * (null, a number, an array, ...) is a RobotsInputError naming `what`.
 */
export function optionsArgument<T extends object>(options: unknown, what: string): Partial<T> {
  if (options === undefined) return {}
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new RobotsInputError(`${what}: options must be an object, got ${describeValue(options)}`)
  }
  return options as Partial<T>
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
      return Object.prototype.toString.call(value)
    default:
      return `a ${typeof value}`
  }
}
