/**
 * A file written in chunks as a run goes: text is buffered in memory and
 * appended to the file at each `flush()` (the run flushes after every block
 * of cases) or when it grows past SYNC_AT, so that what was written survives
 * whatever ends the run later, and memory stays bounded.
 */
import { appendFileSync, writeFileSync } from 'node:fs'
import { appendFile, writeFile } from 'node:fs/promises'
import { CompareError, describeSystemError } from '../compare-error.js'

/** Buffered characters past which `write` writes them out synchronously. */
const SYNC_AT = 1 << 20

/** A file written in chunks (created, or emptied, by the first flush; no file handle is held between flushes). */
export class BufferedFile {
  private started = false
  private chunks: string[] = []
  private size = 0
  private failed: CompareError | undefined
  private closed = false

  /** `encoding`: how the text is written (latin1: one byte per character, for bytes held as text). */
  constructor(
    readonly file: string,
    private readonly encoding: BufferEncoding = 'utf8',
  ) {}

  /** Adds text (written at the next flush, or at once, synchronously, past SYNC_AT buffered characters: memory stays bounded). */
  write(text: string): void {
    if (this.closed) return
    this.chunks.push(text)
    this.size += text.length
    if (this.size >= SYNC_AT) this.flushSync()
  }

  private flushSync(): void {
    const text = this.chunks.join('')
    this.chunks = []
    this.size = 0
    try {
      if (!this.started) writeFileSync(this.file, text, this.encoding)
      else appendFileSync(this.file, text, this.encoding)
      this.started = true
    } catch (err) {
      // Thrown by the next flush(), which the run awaits (write() is called from an adapter's answer callback).
      this.failed ??= new CompareError('ERR_WRITE', `cannot write '${this.file}': ${describeSystemError(err)}`)
      this.closed = true
    }
  }

  /** Appends what was buffered to the file. */
  async flush(): Promise<void> {
    if (this.failed) throw this.failed
    if (this.closed) return
    const text = this.chunks.join('')
    this.chunks = []
    this.size = 0
    try {
      if (!this.started) await writeFile(this.file, text, this.encoding)
      else if (text !== '') await appendFile(this.file, text, this.encoding)
      this.started = true
    } catch (err) {
      throw new CompareError('ERR_WRITE', `cannot write '${this.file}': ${describeSystemError(err)}`)
    }
  }

  /** Flushes and stops: later writes are dropped. */
  async close(): Promise<void> {
    await this.flush()
    this.closed = true
  }
}
