/**
 * The drop-in package's entry (packages/robots-automaton-compat, bundled by
 * scripts/dropin.mjs): the compat entry for a dependency that requires
 * robots-parser, such as Crawlee, which fetches the URL parser's form of the
 * URL it checked. Each URL is judged in that form (`http://a\private` as
 * `/private`), as `useWithCrawlee` judges it.
 */
import { compatToken, robotsParser as compat, type Robot } from '../compat.js'
import { requestedUrlView } from './requested-url.js'

export { compatToken, type Robot }

/** robots-parser's function (see `robots-automaton/compat`), judging URLs as they are requested. */
export function robotsParser(url: string | URL | null | undefined, contents: string | Uint8Array | null | undefined): Robot {
  return requestedUrlView(compat(url, contents))
}

export default robotsParser
