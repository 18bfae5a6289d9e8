/**
 * The line convention of batch input (`matchLines`, the CLI's `filter`), one
 * definition: LF ends a line, and a last line without LF counts too (`"/a\n/b"`
 * is two lines, `"/a\n"` one, `""` none); a CR right before the LF, or ending
 * the input, is not part of the URL (CRLF files), a CR anywhere else is; an
 * empty line is judged as the empty URL, that is as `/` (GetPathParamsQuery
 * of `""`), so no line is ever dropped. Its users and its copy: {@link lineEnd}.
 */

import { asBytes, describeValue, isIndex, RobotsInputError, RobotsRangeError } from '../errors.js'

/**
 * The two bytes of the convention. A `const enum`, so that the bundler
 * writes the numbers into the hot loops (a module-level `const` becomes a
 * variable the JIT reloads on every use).
 */
export const enum LineByte {
  /** Line feed: ends a line. */
  LF = 10,
  /** Carriage return: not part of the URL right before an LF or at the end of the input. */
  CR = 13,
}

/**
 * Index of the LF ending the line that starts at `start`, or `bytes.length`
 * for a last line without one.
 *
 * `AgentMatcher.matchLines` (for engines without a batch form) and the CLI's
 * per-block loop (cli/filter/judge-lines.ts) cut lines with this and
 * {@link urlEnd}. `AutomatonEngine.decideLines` applies the same rule inside
 * its fused one-pass loop: a copy kept for speed (bench/history/regressions.md)
 * and marked there. One data suite (test/support/line-cases.ts) runs
 * over every engine (test/match/match-lines.test.ts) and over the CLI's loop
 * (test/cli/units.test.ts).
 */
export function lineEnd(bytes: Uint8Array, start: number): number {
  // On a Node Buffer this is Buffer#indexOf (memchr), on a plain Uint8Array the engine's own.
  const lf = bytes.indexOf(LineByte.LF, start)
  return lf < 0 ? bytes.length : lf
}

/** End of the URL of the line `bytes[start, lf)` (`lf` from {@link lineEnd}): a CR right before `lf` is dropped. */
export function urlEnd(bytes: Uint8Array, start: number, lf: number): number {
  return lf > start && bytes[lf - 1] === LineByte.CR ? lf - 1 : lf
}

/**
 * {@link lineEnd} as the package exports it: `bytes` that is not a
 * Uint8Array is a RobotsInputError (ERR_INPUT), a `start` that is not an
 * offset of it (a negative one would search from the end) a RobotsRangeError
 * (ERR_RANGE).
 */
export function checkedLineEnd(bytes: Uint8Array, start: number): number {
  checkLine('lineEnd', bytes, start, start)
  // At the end, no search: a view of a detached buffer (length 0) cannot be searched.
  return start < bytes.length ? lineEnd(bytes, start) : bytes.length
}

/** {@link urlEnd} as the package exports it: checked as {@link checkedLineEnd}, and `start <= lf`. */
export function checkedUrlEnd(bytes: Uint8Array, start: number, lf: number): number {
  checkLine('urlEnd', bytes, start, lf)
  return urlEnd(bytes, start, lf)
}

function checkLine(what: string, bytes: Uint8Array, start: number, end: number): void {
  if (asBytes(bytes) === undefined) throw new RobotsInputError(`${what}: bytes must be a Uint8Array, got ${describeValue(bytes)}`)
  if (!(isIndex(start) && isIndex(end) && start <= end && end <= bytes.length)) {
    throw new RobotsRangeError('ERR_RANGE', `${what}: [${describeValue(start)}, ${describeValue(end)}] is not a range of a ${bytes.length}-byte buffer`)
  }
}

/** Number of lines in `bytes` by the convention above. */
export function countLines(bytes: Uint8Array): number {
  const n = bytes.length
  // A view of a detached buffer has no bytes, and cannot be searched.
  if (!n) return 0
  let count = 0
  for (let i = bytes.indexOf(LineByte.LF); i >= 0; i = bytes.indexOf(LineByte.LF, i + 1)) count++
  if (n > 0 && bytes[n - 1] !== LineByte.LF) count++
  return count
}

/** Throws a RobotsRangeError (ERR_CAPACITY) when `array` has no room at index `at` (a batch output array). */
export function checkRoom(array: ArrayLike<number>, at: number, name: string): void {
  if (at >= array.length) {
    throw new RobotsRangeError('ERR_CAPACITY', `matchLines: ${name} has room for ${array.length} lines, the input has more`)
  }
}
