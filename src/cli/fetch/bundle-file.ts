/**
 * A bundle file read whole into a `RobotsStore` (`fetch --update`, `pack`'s
 * merges): loaded lazily (layout, keys, fetch info and checksums checked at
 * once, each form on its first use), a bad file one coded error naming it;
 * or a bundle that comes as a stream (`pack`'s inputs), told from other
 * input by its first bytes.
 */
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs'
import { RobotsFormatError, RobotsStore } from '../../index.js'
import { bundleError } from '../hosts/bundle-rules.js'
import { CliError, readError } from '../common/cli-error.js'
import { PeekedReader, type ByteReader } from '../filter/input.js'

/** The bundle magic, "RATB": how `pack` tells a bundle from JSON lines. */
export function isBundle(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x52 && bytes[1] === 0x41 && bytes[2] === 0x54 && bytes[3] === 0x42
}

/**
 * Reads the bundle at `path` (ERR_READ when it cannot be read; ERR_FORMAT,
 * ERR_VERSION when it is not a bundle this build reads). With `lazy` false,
 * every entry's rules are checked here too, so that one that is not valid
 * refuses the file instead of failing the entry's first use.
 */
export function readBundleStore(path: string, lazy = true): RobotsStore {
  let bytes: Uint8Array
  try {
    const info = statSync(path)
    if (info.isDirectory()) throw new CliError('ERR_READ', `cannot read bundle '${path}': is a directory`)
    // A regular file, or a pipe (read up to the size its header gives); a device such as /dev/zero would be read without end.
    if (!info.isFile() && !info.isFIFO()) throw new CliError('ERR_READ', `cannot read bundle '${path}': not a regular file`)
    bytes = info.isFile() ? readFileSync(path) : readPipe(path)
  } catch (err) {
    throw err instanceof CliError ? err : readError('bundle', path, err)
  }
  return bundleStoreOf(bytes, path, lazy)
}

/**
 * A pipe's bytes, up to the size a bundle's header gives (its first 32
 * bytes: the magic, D at 20, L at 24): a stream that is no bundle stops
 * there, and one longer than its header says is refused, so that neither
 * is read without end.
 */
function readPipe(path: string): Uint8Array {
  const fd = openSync(path, 'r')
  try {
    const chunks: Buffer[] = []
    let size = 0
    let limit = 32
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(1 << 20, limit + 1 - size))
      const k = readSync(fd, chunk)
      if (k === 0) break
      chunks.push(chunk.subarray(0, k))
      size += k
      if (limit === 32 && size >= 32) {
        const head = Buffer.concat(chunks)
        if (!isBundle(head)) break
        limit = Math.min(head.readUInt32LE(20) + head.readUInt32LE(24) + head.readUInt32LE(28) * 2 ** 32, MAX_BUNDLE_BYTES)
      }
      if (size > limit) throw new CliError('ERR_READ', `cannot read bundle '${path}': ${limit < MAX_BUNDLE_BYTES ? 'longer than its header says' : 'larger than one buffer holds'}`)
    }
    return Buffer.concat(chunks, size)
  } finally {
    closeSync(fd)
  }
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

/** Bytes of the bundle magic ("RATB"), read first to tell a bundle from JSON lines. */
const BUNDLE_MAGIC_BYTES = 4

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

/** Most bytes of a bundle read from a stream: what one buffer holds. */
const MAX_BUNDLE_BYTES = 2 ** 31 - 1
