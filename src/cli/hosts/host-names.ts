/**
 * A file named after a host (`--robots-dir DIR/<host>`, `pack DIR`): the
 * name must be the host as the WHATWG URL parser writes it (the core's
 * `canonicalHost`: punycode, lowercase, canonical IP address), the form in
 * which every URL's host is looked up, so that `DIR/xn--bcher-kva.de` is the
 * file of `http://bücher.de/` and no two names can claim one host. Any other
 * name is skipped, and the warning says what to rename it to.
 */
import { canonicalHost, RobotsInputError } from '../../index.js'

// A BOM that starts a name is kept (a default decoder drops it): the name is then no host's, and said so, not taken for the host after it.
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/** The host a directory entry's name is the file of, or why it is none (a rename to suggest, or why no host has that name). */
export function hostKeyOfName(name: Uint8Array): { key: string } | { reason: string } {
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
  if (key === text) return { key }
  return { reason: `not named by its host as URLs give it (lowercase, punycode, canonical IP address): name the file '${key}'` }
}
