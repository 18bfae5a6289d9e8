/**
 * A bundle file read whole into a `RobotsStore` (`fetch --update`, `pack`'s
 * merges): loaded lazily (layout, keys, fetch info and checksums checked at
 * once, each form on its first use), a bad file one coded error naming it.
 */
import { readFileSync, statSync } from 'node:fs'
import { RobotsFormatError, RobotsStore } from '../../index.js'
import { BundleError } from '../hosts/bundle-rules.js'
import { CliError, readError } from '../common/cli-error.js'

/** The bundle magic, "RATB": how `pack` tells a bundle from JSON lines. */
export function isBundle(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x52 && bytes[1] === 0x41 && bytes[2] === 0x54 && bytes[3] === 0x42
}

/** Reads the bundle at `path` (ERR_READ when it cannot be read; ERR_FORMAT, ERR_VERSION when it is not a bundle this build reads). */
export function readBundleStore(path: string): RobotsStore {
  let bytes: Uint8Array
  try {
    const info = statSync(path)
    if (info.isDirectory()) throw new CliError('ERR_READ', `cannot read bundle '${path}': is a directory`)
    // A regular file, or a pipe (read to its end); a device such as /dev/zero would be read without end.
    if (!info.isFile() && !info.isFIFO()) throw new CliError('ERR_READ', `cannot read bundle '${path}': not a regular file`)
    bytes = readFileSync(path)
  } catch (err) {
    throw err instanceof CliError ? err : readError('bundle', path, err)
  }
  return bundleStoreOf(bytes, path)
}

/** The store of the bundle `bytes` (read from `name`), or a BundleError. */
export function bundleStoreOf(bytes: Uint8Array, name: string): RobotsStore {
  try {
    return RobotsStore.fromBytes(bytes, { lazy: true })
  } catch (err) {
    if (err instanceof RobotsFormatError) throw new BundleError(err.code, name, err.message.replace(/^RobotsStore\.fromBytes: /, ''))
    throw err
  }
}
