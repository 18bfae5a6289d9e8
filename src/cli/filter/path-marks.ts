/**
 * The lines of a block that may hold a URL a client requests as another
 * path (../common/client-path.ts): each mark (`/.`, `/%2`, `\`, and `;`
 * where a URL's own host is not needed) searched with native indexOf, each
 * at most once per byte of the block, so that the lines without one cost a
 * comparison.
 */
import type { FilterStats } from './filter-stats.js'
import type { LineLocator } from './line-locator.js'
import { clientPath, hasMark } from '../common/client-path.js'

const MARKS = ['/.', '/%2', '\\', ';']
const DECODER = new TextDecoder()

/** One block's marks: where each is next found. */
export class PathMarks {
  private readonly at = [0, 0, 0, 0]
  private bytes: Buffer = Buffer.alloc(0)
  private marks = 0

  /** Starts on `bytes`; the first mark's position (the block's length when none). */
  start(bytes: Buffer, locator: LineLocator): number {
    this.bytes = bytes
    // Where a host is needed, a ';' in the authority is a line with a host no URL has, never judged.
    this.marks = locator.needHost ? 3 : 4
    this.at.fill(-1)
    return this.next(0)
  }

  /** The first mark at or after `from` (the block's length when none). */
  next(from: number): number {
    const n = this.bytes.length
    let min = n
    for (let k = 0; k < this.marks; k++) {
      let a = this.at[k]
      if (a < from && a < n) a = this.at[k] = this.bytes.indexOf(MARKS[k], from, 'latin1') >>> 0
      if (a < min) min = a
    }
    return min
  }
}

/** Counts the judged line located last when a client requests its URL as another path (the block's first is kept). */
export function seeClientPath(bytes: Uint8Array, locator: LineLocator, stats: FilterStats): void {
  const u = locator.shownUrl(bytes)
  // The mark may be in another column of the line: the URL's own bytes are looked at first.
  if (!hasMark(u)) return
  const url = DECODER.decode(u)
  if (clientPath(url, locator.layout.request) === undefined) return
  if (stats.clientPaths++ === 0) stats.clientPathUrl = url
}
