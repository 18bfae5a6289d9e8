/**
 * `--robots-dir DIR`: one robots.txt per host, in the file `DIR/<host>`
 * (`DIR/www.example.com`, `DIR/[::1]`), holding that host's robots.txt as
 * served. DIR is listed once into a `HostIndex`, so a host with no file costs
 * one hash look-up; only regular files are ever opened, so nothing can block
 * ({@link DirectoryRules} says how).
 */
import { closeSync, constants, existsSync, fstatSync, opendirSync, openSync, readSync, statSync, type Stats } from 'node:fs'
import { parseRobots, type EngineOptions, type Robots } from '../../index.js'
import { allowsEverything, bodyProblem } from '../common/body-problems.js'
import { HostIndex, HostIndexBuilder, type HostIndexData } from './host-index.js'
import { crawlerList, FILTER_MATCHER_OPTIONS, type HostCrawlers, type HostEntry, type HostQuery, type HostRules, type HostRulesDescriptor } from './host-rules.js'
import { CliError, describeSystemError, readError } from '../common/cli-error.js'
import { printable } from '../../tools/printable.js'
import { printableBytes } from '../../tools/input-text.js'
import { wideWords } from '../../tools/wide-text.js'
import { hostKeyOfName } from './host-names.js'
import { NOT_REGULAR_WORDS, notRegular, notRegularText } from '../common/not-regular.js'

/** Skipped names kept with their reasons, for the warnings (the rest are counted). */
const NAMED_SKIPS = 100

/**
 * Bytes read from a host's file: the parser stops at its limit (512,000 bytes
 * by default) and needs at most one byte past it to see that the file goes
 * on, so reading more would change nothing.
 */
const READ_CAP = 1 << 20

/** The type of a directory entry, from the listing. */
export const enum EntryType {
  /** A regular file: opened when its host is first judged. */
  File = 1,
  /** A symbolic link, or a type the file system did not report: `stat`ed when first used. */
  Resolve = 2,
  Directory = 3,
  Fifo = 4,
  Socket = 5,
  Device = 6,
  /** No such file, but one named after the host with `.txt` after it: an entry of its own, so that a URL of the host finds it and says so. */
  Misnamed = 7,
  /** No file named as URLs give the host, but several other spellings of it (`Example.com`, `EXAMPLE.com`): none is taken over the others. */
  Ambiguous = 8,
}

/** The suffix of a file named `<host>.txt`, a common mistake for `<host>`. */
const TXT = Buffer.from('.txt')

/** Words for the types that are skipped. */
const TYPE_WORDS: Record<number, string> = {
  [EntryType.Directory]: NOT_REGULAR_WORDS.directory,
  [EntryType.Fifo]: NOT_REGULAR_WORDS.fifo,
  [EntryType.Socket]: NOT_REGULAR_WORDS.socket,
  [EntryType.Device]: NOT_REGULAR_WORDS.device,
}

function typeOfStats(s: Stats): EntryType {
  if (s.isFile()) return EntryType.File
  if (s.isDirectory()) return EntryType.Directory
  if (s.isFIFO()) return EntryType.Fifo
  if (s.isSocket()) return EntryType.Socket
  return EntryType.Device
}

/**
 * The robots.txt files of a directory, one per host.
 *
 * DIR is listed once, at the start, into a `HostIndex` of its names and
 * their file types (from the directory entries: nothing is opened), so a
 * host with no file costs one hash look-up. Only regular files are ever
 * opened: a FIFO, socket, device or directory named after a host is skipped
 * with a warning (opening a FIFO would block forever), and so is a file that
 * cannot be read. Symbolic links are followed wherever they point (also
 * outside DIR) when their target is a regular file; they are resolved with
 * `stat`, which never blocks. The file is opened with O_NONBLOCK and checked
 * again with `fstat`, so a file swapped for a FIFO after the listing cannot
 * block either.
 */
export class DirectoryRules implements HostRules {
  readonly dir: string
  /** A file applies to every scheme and port of its host. */
  readonly originKeys = false
  private readonly index: HostIndex
  /** Per entry id: its `EntryType` (shared with worker threads; `Resolve` entries are resolved per thread). */
  private readonly types: Uint8Array
  private readonly chunk = Buffer.allocUnsafe(READ_CAP)
  /** DIR with a `/` after it. */
  readonly dirPrefix: string
  /** Entries whose file is named by another spelling of their host (`Bücher.de` for `xn--bcher-kva.de`): id, the file's name; or, for an `Ambiguous` entry, the names that claim it. */
  private readonly spellings: ReadonlyMap<number, readonly Uint8Array[]>
  /**
   * Names in DIR that no URL is judged by (no host's name, or another
   * spelling of a host whose file is named as URLs give it): how many, and
   * the first {@link NAMED_SKIPS} of them (printable: a byte that is not
   * UTF-8 as `\xHH`, a BOM shown) with the reason.
   */
  skipped: { count: number; names: { name: string; reason: string }[] } = { count: 0, names: [] }

  private constructor(dir: string, index: HostIndex, types: Uint8Array, spellings: ReadonlyMap<number, readonly Uint8Array[]>) {
    this.dir = dir
    this.index = index
    this.types = types
    this.spellings = spellings
    this.dirPrefix = dir.endsWith('/') ? dir : `${dir}/`
  }

  /** Lists `dir` (a `CliError` when it is not a readable directory). */
  static open(dir: string): DirectoryRules {
    let isDir: boolean
    try {
      isDir = statSync(dir).isDirectory()
    } catch (err) {
      throw readError('robots directory', dir, err)
    }
    if (!isDir) throw new CliError('ERR_READ', `cannot read robots directory '${dir}': not a directory`)
    const builder = new HostIndexBuilder()
    const types: number[] = []
    const skipped: DirectoryRules['skipped'] = { count: 0, names: [] }
    /** Names `<host>.txt` (as their hosts): their hosts, unless a file has the host's name, get an entry that says what to rename. */
    const txtNames: Buffer[] = []
    /** Names that spell a host otherwise than URLs give it, by that host. */
    const respelled = new Map<string, { name: Buffer; type: EntryType }[]>()
    const skip = (name: Uint8Array, reason: string) => {
      skipped.count++
      if (skipped.names.length < NAMED_SKIPS) skipped.names.push({ name: printableBytes(name, false), reason })
    }
    let listing
    try {
      // Names as bytes: a file name need not be UTF-8 (Node's typings omit 'buffer', which opendir accepts).
      listing = opendirSync(dir, { encoding: 'buffer' as BufferEncoding, bufferSize: 256 })
    } catch (err) {
      throw readError('robots directory', dir, err)
    }
    try {
      for (let entry = listing.readSync(); entry !== null; entry = listing.readSync()) {
        const name = entry.name as unknown as Buffer
        const type = entry.isFile()
          ? EntryType.File
          : entry.isDirectory()
            ? EntryType.Directory
            : entry.isFIFO()
              ? EntryType.Fifo
              : entry.isSocket()
                ? EntryType.Socket
                : entry.isBlockDevice() || entry.isCharacterDevice()
                  ? EntryType.Device
                  : EntryType.Resolve
        const host = hostKeyOfName(name)
        if (!('key' in host)) skip(name, host.reason)
        else if (!host.canonical) {
          // Taken once the listing is done, when no file is named as URLs give the host.
          const file = { name: Buffer.from(name), type }
          const others = respelled.get(host.key)
          if (others === undefined) respelled.set(host.key, [file])
          else others.push(file)
        } else if (builder.add(name) >= 0) {
          types.push(type)
          if (name.length > TXT.length && name.subarray(name.length - TXT.length).equals(TXT)) txtNames.push(Buffer.from(name))
        } else skip(name, 'not a host name')
      }
    } catch (err) {
      throw readError('robots directory', dir, err)
    } finally {
      listing.closeSync()
    }
    let index = builder.build()
    const spellings = new Map<number, Buffer[]>()
    if (respelled.size > 0) {
      let added = 0
      for (const [key, files] of respelled) {
        const keyBytes = Buffer.from(key)
        if (index.find(keyBytes, 0, keyBytes.length) >= 0) {
          for (const f of files) skip(f.name, `another spelling of the host '${key}', whose own file '${key}' is used`)
          continue
        }
        const id = builder.add(keyBytes)
        if (id < 0) {
          for (const f of files) skip(f.name, 'not a host name')
          continue
        }
        types.push(files.length === 1 ? files[0].type : EntryType.Ambiguous)
        spellings.set(id, files.map((f) => f.name))
        added++
        if (key.endsWith('.txt')) txtNames.push(keyBytes)
      }
      if (added > 0) index = builder.build()
    }
    if (txtNames.length > 0) {
      let added = 0
      for (const name of txtNames) {
        const stem = name.subarray(0, name.length - TXT.length)
        if ('key' in hostKeyOfName(stem) && index.find(stem, 0, stem.length) < 0 && builder.add(stem) >= 0) {
          types.push(EntryType.Misnamed)
          added++
        }
      }
      if (added > 0) index = builder.build()
    }
    const shared = new Uint8Array(new SharedArrayBuffer(types.length))
    shared.set(types)
    const rules = new DirectoryRules(dir, index, shared, spellings)
    rules.skipped = skipped
    return rules
  }

  /** Rebuilds the directory's index in a worker thread (no listing). */
  static fromDescriptor(d: Extract<HostRulesDescriptor, { kind: 'dir' }>): DirectoryRules {
    // Each thread resolves links for itself: a private copy of the types.
    return new DirectoryRules(d.dir, HostIndex.fromData(d.index), new Uint8Array(d.kinds), new Map(d.spellings))
  }

  descriptor(): HostRulesDescriptor {
    return { kind: 'dir', dir: this.dir, index: this.index.data, kinds: this.types, spellings: [...this.spellings] }
  }

  get size(): number {
    return this.index.count
  }

  find(q: HostQuery): number {
    return this.index.find(q.bytes, q.hostStart, q.hostEnd, q.hash)
  }

  sourceName(id: number): string {
    return `${this.dirPrefix}${this.fileName(id)}`
  }

  /** The name of entry `id`'s file in DIR (printable): its host, or the other spelling of it the file is named by. */
  fileName(id: number): string {
    const files = this.spellings.get(id)
    return files?.length === 1 ? printableBytes(files[0], false) : this.index.name(id)
  }

  /** Entry `id`'s name: its host, as the URL parser writes it. */
  name(id: number): string {
    return this.index.name(id)
  }

  /** The warning about names skipped (see `skipped`), or undefined when none was. */
  skippedWarning(): string | undefined {
    const { count, names } = this.skipped
    if (count === 0) return undefined
    const shown = names.slice(0, 3).map((n) => `'${printable(n.name)}' (${printable(n.reason)})`).join(', ')
    const more = count > 3 ? ` and ${count - 3} more` : ''
    return `warning: ${count === 1 ? '1 file' : `${count} files`} of '${printable(this.dir)}' not used: ${shown}${more}`
  }

  /** The path of entry `id`, byte for byte (names need not be UTF-8). */
  private path(id: number): Buffer {
    const files = this.spellings.get(id)
    return Buffer.concat([Buffer.from(this.dirPrefix), files?.length === 1 ? files[0] : this.index.nameBytes(id)])
  }

  load(id: number, who: HostCrawlers, first: boolean): HostEntry {
    const read = this.read(id, FILTER_MATCHER_OPTIONS)
    if (!('robots' in read)) return { kind: 'unreadable', reason: read.reason }
    const robots = read.robots
    const judge = 'agent' in who ? robots.agents(who.agent) : robots.crawlers(who.crawlers)
    let problem = first ? bodyProblem(robots) : undefined
    if (problem === undefined) return { kind: 'rules', judge, bytesRead: robots.bytesRead }
    // UTF-16 or UTF-32 text is named so.
    const wide = problem === 'binary' || problem === 'utf16' ? wideWords(read.head) : undefined
    if (wide !== undefined) problem = bodyProblem(robots, wide)
    return { kind: 'rules', judge, problem, bytesRead: robots.bytesRead, allowsAll: allowsEverything(robots, crawlerList(who)), wide }
  }

  /** Reads and parses `DIR/<name of id>` (`options`: its matchers'), with its first bytes (`head`, enough to tell UTF-16 text), or says why it cannot be read. */
  read(id: number, options?: EngineOptions): { robots: Robots; head: Uint8Array } | { reason: string } {
    let type = this.types[id] as EntryType
    if (type === EntryType.Resolve) {
      try {
        type = typeOfStats(statSync(this.path(id)))
      } catch (err) {
        return { reason: describeSystemError(err) }
      }
      this.types[id] = type
    }
    if (type === EntryType.Ambiguous) {
      const names = this.spellings.get(id)!.map((n) => `'${this.dirPrefix}${printableBytes(n, false)}'`)
      return { reason: `${names.join(' and ')} ${names.length === 2 ? 'both' : 'all'} name this host: keep one, named '${this.index.name(id)}'` }
    }
    if (type === EntryType.Misnamed) {
      const name = this.index.name(id)
      const txt = Buffer.from(`${name}.txt`)
      return { reason: `no such file, but '${this.sourceName(this.index.find(txt, 0, txt.length))}' is: a file is named by its host alone (rename it '${name}')` }
    }
    if (type === EntryType.Directory && existsSync(Buffer.concat([this.path(id), Buffer.from('/robots.txt')]))) {
      return { reason: `a directory with a robots.txt in it: a host's robots.txt is read from the file '${this.sourceName(id)}' itself, not from a folder` }
    }
    if (type !== EntryType.File) return { reason: notRegularText(TYPE_WORDS[type]!) }
    let fd = -1
    let n = 0
    try {
      fd = openSync(this.path(id), constants.O_RDONLY | constants.O_NONBLOCK)
      const info = fstatSync(fd)
      if (!info.isFile()) return { reason: notRegular(info) }
      for (;;) {
        const got = readSync(fd, this.chunk, n, READ_CAP - n, null)
        if (got === 0) break
        n += got
        if (n === READ_CAP) break
      }
    } catch (err) {
      return { reason: describeSystemError(err) }
    } finally {
      if (fd >= 0) closeSync(fd)
    }
    // A copy: the read buffer is reused for the next host, the parsed rules must not depend on it.
    return { robots: parseRobots(new Uint8Array(this.chunk.subarray(0, n)), options), head: this.chunk.slice(0, Math.min(n, 64)) }
  }
}

export type { HostIndexData }
