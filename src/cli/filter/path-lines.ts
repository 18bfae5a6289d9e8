/**
 * The URLs of a block's lines that clients resolve to another path
 * (../common/client-path.ts), shown to `filter`'s {@link ClientPaths}
 * before the block may leave for a worker. Each mark (`/.`, `%2e`, `\`, and
 * `;` where a URL in a whole line may have it in its authority and its host
 * is not needed) is searched with native indexOf (a byte: memchr), each once
 * per block; only a line holding one is located, as the judging threads
 * locate it.
 */
import { lineEnd, urlEnd } from '../../index.js'
import type { ClientPaths } from '../common/client-path.js'
import { LineFault, type LineLocator } from './line-locator.js'
import { inputText } from '../../tools/input-text.js'

/** Shows `paths` the URL of each judged line of `bytes` (whole lines) that holds one of `marks` (a logged request's target as such: `locator.target`). */
export function seeBlockPaths(bytes: Buffer, locator: LineLocator, paths: ClientPaths, marks: readonly (string | number)[]): void {
  // Where each mark is next (2^32 - 1: nowhere after): each searched again only once passed.
  const at = marks.map(() => -1)
  for (let from = 0, mark; (mark = Math.min(...marks.map((m, k) => (at[k] < from ? (at[k] = bytes.indexOf(m, from, 'latin1') >>> 0) : at[k])))) < bytes.length; from++) {
    const start = bytes.lastIndexOf(10, mark) + 1
    from = lineEnd(bytes, mark)
    if (locator.locate(bytes, start, urlEnd(bytes, start, from)) === LineFault.None) paths.see(inputText(locator.shownUrl(bytes)), locator.target)
  }
}
