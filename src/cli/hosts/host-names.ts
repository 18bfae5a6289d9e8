/**
 * A file named after a host (`--robots-dir DIR/<host>`, `pack DIR`): its host
 * is the name as the WHATWG URL parser reads a host (the core's
 * `canonicalHost`: punycode, lowercase, canonical IP address), the form in
 * which every URL's host is looked up, so that `DIR/xn--bcher-kva.de` and
 * `DIR/Bücher.de` are both the file of `http://bücher.de/`. `canonical` says
 * whether the name is that form already: when two names claim one host, the
 * one written so wins (robots-dir.ts). A name that is no host is skipped,
 * and the warning says why.
 */
import { canonicalHost, RobotsInputError } from '../../index.js'

// A BOM that starts a name is kept (a default decoder drops it): the name is then no host's, and said so, not taken for the host after it.
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/** The host a directory entry's name is the file of (and whether the name is written as URLs give it), or why it is none. */
export function hostKeyOfName(name: Uint8Array): { key: string; canonical: boolean } | { reason: string } {
  let text: string
  try {
    text = UTF8.decode(name)
  } catch {
    return { reason: 'not a host name: the name is not UTF-8' }
  }
  let key: string
  try {
    key = canonicalHost(text)
  } catch (err) {
    if (!(err instanceof RobotsInputError)) throw err
    return { reason: `not a host name: ${err.message.replace(/^canonicalHost: .* is not a host: /s, '')}` }
  }
  return { key, canonical: key === text }
}
