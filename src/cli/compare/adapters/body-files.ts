/**
 * Bodies as temporary files, for `%robots%` (cmd) and `robots_path` (batch):
 * each distinct body is written once, named by its SHA-1, in a fresh folder
 * that `remove()` deletes, so an adapter may cache its parse by path.
 */
import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CliError, describeSystemError } from '../../errors.js'

/** A folder of body files. */
export class BodyFiles {
  private dir: string | undefined
  private byIdentity = new WeakMap<Uint8Array, string>()
  private readonly byHash = new Map<string, string>()

  /** The path of a file holding exactly `body`. */
  path(body: Uint8Array): string {
    const known = this.byIdentity.get(body)
    if (known !== undefined) return known
    const hash = createHash('sha1').update(body).digest('hex')
    let path = this.byHash.get(hash)
    if (path === undefined) {
      try {
        this.dir ??= mkdtempSync(join(tmpdir(), 'robots-compare-'))
        path = join(this.dir, `${hash}.txt`)
        writeFileSync(path, body)
      } catch (err) {
        throw new CliError('ERR_WRITE', `cannot write a temporary robots.txt file: ${describeSystemError(err)}`)
      }
      this.byHash.set(hash, path)
    }
    this.byIdentity.set(body, path)
    return path
  }

  /** Deletes the folder. */
  remove(): void {
    if (this.dir !== undefined) rmSync(this.dir, { recursive: true, force: true })
    this.dir = undefined
    this.byHash.clear()
    this.byIdentity = new WeakMap()
  }
}
