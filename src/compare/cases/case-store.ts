/**
 * Prepared cases kept for several runs (`--matrix`): a set's cases are read
 * or generated, answered and tagged once, spooled to a temporary folder, and
 * replayed block by block for each implementation, so that every one gets
 * the same cases and none pays for making them. Memory stays bounded: the
 * cases are on disk, each distinct body once (read back through a small
 * cache, the same array for the same body while it is cached).
 */
import { nodeCrypto, readline } from '../../tools/built-ins.js'
import { closeSync, createReadStream, openSync, readSync } from 'node:fs'
import { join } from 'node:path'
import type { Case, Expected } from '../case.js'
import type { Standard } from '../categories.js'
import { BufferedFile } from '../report/buffered-file.js'
import { BLOCK } from '../run.js'
import { makeTempFolder, removeTempFolder } from '../../tools/temp-folders.js'

/** Bodies kept in memory while replaying (least recently used dropped first). */
const BODIES_CACHED = 512

type StoredExpected = [allowed: boolean, line: number, rule: [line: number, kind: 'allow' | 'disallow', pattern: string] | null]

function storeExpected(e: Expected): StoredExpected {
  return [e.allowed, e.line, e.rule ? [e.rule.line, e.rule.kind, e.rule.pattern] : null]
}

function readExpected(s: StoredExpected): Expected {
  return { allowed: s[0], line: s[1], rule: s[2] ? { line: s[2][0], kind: s[2][1], pattern: s[2][2] } : null }
}

/** A case as one JSON line, its body by number. */
interface StoredCase {
  i: string
  b: number
  a: string[]
  u: string
  k: string
  c: string[]
  st: Standard
  e: StoredExpected
  r: StoredExpected
  s?: { allowed: boolean; line?: number }
  x?: string[]
  src?: string
  g?: string
  why?: string
}

/** The cases of one set, on disk. */
export class CaseStore {
  private readonly dir = makeTempFolder('robots-compare-cases-')
  private readonly casesFile = new BufferedFile(join(this.dir, 'cases.jsonl'))
  private readonly bodiesPath = join(this.dir, 'bodies.bin')
  private readonly bodiesFile = new BufferedFile(this.bodiesPath, 'latin1')
  private readonly bodyIndex = new Map<string, number>()
  private readonly bodyHashes = new WeakMap<Uint8Array, string>()
  private readonly offsets: number[] = []
  private readonly lengths: number[] = []
  private bodyBytes = 0
  /** Cases stored. */
  count = 0
  /** A digest of the stored cases' keys, in order: equal digests, equal cases. */
  private readonly hash = nodeCrypto().createHash('sha1')

  /** Stores every case of `blocks`. */
  async fill(blocks: AsyncIterable<Case[]>): Promise<void> {
    for await (const cases of blocks) {
      for (const c of cases) this.add(c)
      await this.bodiesFile.flush()
      await this.casesFile.flush()
    }
    await this.bodiesFile.close()
    await this.casesFile.close()
  }

  /** The digest of the cases' keys (hex). */
  digest(): string {
    return this.hash.copy().digest('hex').slice(0, 16)
  }

  private body(bytes: Uint8Array): number {
    let h = this.bodyHashes.get(bytes)
    if (h === undefined) this.bodyHashes.set(bytes, (h = nodeCrypto().createHash('sha1').update(bytes).digest('base64')))
    let n = this.bodyIndex.get(h)
    if (n === undefined) {
      n = this.offsets.length
      this.bodyIndex.set(h, n)
      this.offsets.push(this.bodyBytes)
      this.lengths.push(bytes.length)
      this.bodyBytes += bytes.length
      this.bodiesFile.write(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1'))
    }
    return n
  }

  private add(c: Case): void {
    const s: StoredCase = {
      i: c.id,
      b: this.body(c.robots),
      a: [...c.agents],
      u: c.url,
      k: c.key,
      c: [...c.categories],
      st: c.standard,
      e: storeExpected(c.expected),
      r: storeExpected(c.rfc),
      ...(c.stated ? { s: c.stated } : {}),
      ...(c.extraCategories ? { x: [...c.extraCategories] } : {}),
      ...(c.source !== undefined ? { src: c.source } : {}),
      ...(c.group !== undefined ? { g: c.group } : {}),
      ...(c.explanation !== undefined ? { why: c.explanation } : {}),
    }
    this.casesFile.write(JSON.stringify(s) + '\n')
    this.hash.update(c.key)
    this.count++
  }

  /** The stored cases, in blocks of at most BLOCK, as they were stored. */
  async *blocks(): AsyncGenerator<Case[]> {
    const cache = new Map<number, Uint8Array>()
    const fd = this.count > 0 ? openSync(this.bodiesPath, 'r') : -1
    const bodyOf = (n: number): Uint8Array => {
      let b = cache.get(n)
      if (b !== undefined) {
        cache.delete(n)
        cache.set(n, b)
        return b
      }
      b = new Uint8Array(this.lengths[n])
      let got = 0
      while (got < b.length) {
        const r = readSync(fd, b, got, b.length - got, this.offsets[n] + got)
        if (r === 0) break
        got += r
      }
      if (cache.size >= BODIES_CACHED) cache.delete(cache.keys().next().value!)
      cache.set(n, b)
      return b
    }
    try {
      if (this.count === 0) return
      const lines = readline().createInterface({ input: createReadStream(this.casesFile.file), crlfDelay: Infinity })
      let block: Case[] = []
      for await (const line of lines) {
        if (line === '') continue
        const s = JSON.parse(line) as StoredCase
        block.push({
          id: s.i,
          robots: bodyOf(s.b),
          agents: s.a,
          url: s.u,
          key: s.k,
          categories: s.c,
          standard: s.st,
          expected: readExpected(s.e),
          rfc: readExpected(s.r),
          ...(s.s ? { stated: s.s } : {}),
          ...(s.x ? { extraCategories: s.x } : {}),
          ...(s.src !== undefined ? { source: s.src } : {}),
          ...(s.g !== undefined ? { group: s.g } : {}),
          ...(s.why !== undefined ? { explanation: s.why } : {}),
        })
        if (block.length >= BLOCK) {
          yield block
          block = []
        }
      }
      if (block.length > 0) yield block
    } finally {
      if (fd >= 0) closeSync(fd)
    }
  }

  /** Deletes the folder. */
  remove(): void {
    removeTempFolder(this.dir)
  }
}
