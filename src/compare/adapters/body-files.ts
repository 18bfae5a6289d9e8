/**
 * Bodies as temporary files, for `%robots%` (cmd) and `robots_path` (batch):
 * each distinct body is written once, named by its SHA-1, in a fresh folder
 * that `remove()` deletes, so an adapter may cache its parse by path. At
 * most `capacity` files are kept (see {@link BodyFiles}).
 */
import { nodeCrypto } from '../../tools/built-ins.js'
import { unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { CompareError, describeSystemError } from '../compare-error.js'
import { makeTempFolder, removeTempFolder } from '../../tools/temp-folders.js'

/** Files kept by default. */
export const DEFAULT_CAPACITY = 4096

/**
 * A folder of body files. At most `capacity` are kept: the least recently
 * used one is deleted (and written again if its body comes back). Callers
 * keep `capacity` well above the requests they have in flight, so a file is
 * never deleted before the request that names it has been answered.
 */
export class BodyFiles {
  private dir: string | undefined
  private hashes = new WeakMap<Uint8Array, string>()
  /** Paths by hash, least recently used first. */
  private readonly paths = new Map<string, string>()

  constructor(private readonly capacity = DEFAULT_CAPACITY) {}

  /** The path of a file holding exactly `body`. */
  path(body: Uint8Array): string {
    let hash = this.hashes.get(body)
    if (hash === undefined) {
      hash = nodeCrypto().createHash('sha1').update(body).digest('hex')
      this.hashes.set(body, hash)
    }
    let path = this.paths.get(hash)
    if (path !== undefined) {
      this.paths.delete(hash)
      this.paths.set(hash, path)
      return path
    }
    try {
      this.dir ??= makeTempFolder('robots-compare-')
      path = join(this.dir, `${hash}.txt`)
      writeFileSync(path, body)
      if (this.paths.size >= this.capacity) {
        const [oldest, oldPath] = this.paths.entries().next().value!
        this.paths.delete(oldest)
        unlinkSync(oldPath)
      }
    } catch (err) {
      throw new CompareError('ERR_WRITE', `cannot write a temporary robots.txt file: ${describeSystemError(err)}`)
    }
    this.paths.set(hash, path)
    return path
  }

  /** Files on disk now. */
  get size(): number {
    return this.paths.size
  }

  /** Deletes the folder. */
  remove(): void {
    if (this.dir !== undefined) removeTempFolder(this.dir)
    this.dir = undefined
    this.paths.clear()
    this.hashes = new WeakMap()
  }
}
