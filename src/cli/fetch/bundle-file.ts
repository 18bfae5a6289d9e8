/**
 * A bundle file read whole into a `RobotsStore` (`fetch --update`, `pack`'s
 * merges): loaded lazily (layout, keys, fetch info and checksums checked at
 * once, each form on its first use), a bad file one coded error naming it;
 * or a bundle that comes as a stream (`pack`'s inputs), told from other
 * input by its first bytes.
 */
import { RobotsFormatError, RobotsStore } from '../../index.js'
import { BUNDLE_MAGIC_BYTES, bundleError, isBundle, MAX_BUNDLE_BYTES, readBundle } from '../hosts/bundle-rules.js'
import { CliError } from '../common/cli-error.js'
import { PeekedReader, type ByteReader } from '../filter/input.js'

/**
 * Reads the bundle at `path` (ERR_READ when it cannot be read; ERR_FORMAT,
 * ERR_VERSION when it is not a bundle this build reads). With `lazy` false,
 * every entry's rules are checked here too, so that one that is not valid
 * refuses the file instead of failing the entry's first use.
 */
export function readBundleStore(path: string, lazy = true): RobotsStore {
  return bundleStoreOf(readBundle(path), path, lazy)
}

/** The store of the bundle `bytes` (read from `name`; its forms checked on first use when `lazy`), or a BundleError. */
export function bundleStoreOf(bytes: Uint8Array, name: string, lazy = true): RobotsStore {
  try {
    return RobotsStore.fromBytes(bytes, { lazy })
  } catch (err) {
    if (err instanceof RobotsFormatError) throw bundleError(err, name, bytes)
    throw err
  }
}

/**
 * The store of the bundle `reader` holds when it starts as a bundle does
 * (read to its end and closed; a BundleError when it is no good bundle), or
 * else a reader of the same bytes from the first (`reader` left open).
 */
export async function bundleOrLines(reader: ByteReader, name: string): Promise<RobotsStore | ByteReader> {
  let head: Uint8Array
  try {
    head = await readHead(reader, BUNDLE_MAGIC_BYTES)
  } catch (err) {
    await reader.close()
    throw err
  }
  if (!isBundle(head)) return new PeekedReader(head, reader)
  return bundleStoreOf(await readRest(reader, head, name), name)
}

/** Up to `n` first bytes of `reader` (fewer at its end). */
async function readHead(reader: ByteReader, n: number): Promise<Uint8Array> {
  const head = new Uint8Array(n)
  let got = 0
  while (got < n) {
    const k = await reader.readInto(head, got, n - got)
    if (k === 0) break
    got += k
  }
  return head.subarray(0, got)
}

/** `head`, then the rest of `reader` to its end, in one buffer; closes `reader`. */
async function readRest(reader: ByteReader, head: Uint8Array, name: string): Promise<Uint8Array> {
  const parts: Uint8Array[] = [head]
  let size = head.length
  try {
    for (;;) {
      const chunk = new Uint8Array(1 << 20)
      const k = await reader.readInto(chunk, 0, chunk.length)
      if (k === 0) break
      parts.push(chunk.subarray(0, k))
      size += k
      if (size > MAX_BUNDLE_BYTES) throw new CliError('ERR_READ', `cannot read bundle '${name}': larger than one buffer holds (${MAX_BUNDLE_BYTES} bytes)`)
    }
  } finally {
    await reader.close()
  }
  return Buffer.concat(parts, size)
}
