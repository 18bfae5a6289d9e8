/** Error codes raised by robots-automaton. */
export type RobotsErrorCode =
  | 'ERR_LIMIT'
  | 'ERR_INPUT'
  | 'ERR_BUDGET'
  | 'ERR_FORMAT'
  | 'ERR_VERSION'
  | 'ERR_FETCH'

/** Base class of every error this library throws on purpose; `code` is stable. */
export class RobotsError extends Error {
  readonly code: RobotsErrorCode
  constructor(code: RobotsErrorCode, message: string) {
    super(message)
    this.name = 'RobotsError'
    this.code = code
  }
}

/** A limit option out of range (RFC 9309 §2.5: the parsing limit is at least 500 KiB). */
export class RobotsLimitError extends RangeError {
  readonly code = 'ERR_LIMIT' as const
  constructor(message: string) {
    super(message)
    this.name = 'RobotsLimitError'
  }
}

/** Input of a type the reader does not accept. */
export class RobotsInputError extends TypeError {
  readonly code = 'ERR_INPUT' as const
  constructor(message: string) {
    super(message)
    this.name = 'RobotsInputError'
  }
}

/** A buffer given to `Robots.fromBytes` that is not a serialised robots.txt of a supported version. */
export class RobotsFormatError extends RobotsError {
  constructor(code: 'ERR_FORMAT' | 'ERR_VERSION', message: string) {
    super(code, message)
    this.name = 'RobotsFormatError'
  }
}
