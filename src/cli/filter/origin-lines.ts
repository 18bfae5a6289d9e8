/**
 * The URLs of a block's lines as their input gives them, located as the judging threads locate them,
 * shown to a ROBOTS URL's {@link OriginScope} (`filter --robots URL`).
 */
import { lineEnd, urlEnd } from '../../index.js'
import type { OriginScope } from '../common/robots-origin.js'
import { LineFault, type LineLocator } from './line-locator.js'
import { inputText } from '../../tools/input-text.js'

/** Shows `scope` the URL of each line of `bytes` (whole lines) that has one (a logged request's target as such: `locator.target`), or for a path of a host column, that column. */
export function seeBlockOrigins(bytes: Uint8Array, locator: LineLocator, scope: OriginScope): void {
  for (let pos = 0; pos < bytes.length; ) {
    const lf = lineEnd(bytes, pos)
    const end = urlEnd(bytes, pos, lf)
    if (locator.locate(bytes, pos, end) === LineFault.None) {
      const column = locator.hostColumn()
      if (column !== undefined) scope.seeColumn(inputText(column))
      else {
        const url = locator.shownUrl(bytes)
        if (!startsWith(url, scope.prefix)) scope.see(inputText(url), locator.target)
      }
    }
    pos = lf + 1
  }
}

function startsWith(url: Uint8Array, prefix: Uint8Array): boolean {
  if (url.length < prefix.length) return false
  for (let i = 0; i < prefix.length; i++) if (url[i] !== prefix[i]) return false
  return true
}
