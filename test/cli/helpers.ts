/** Running the built CLI (`node dist/cli.js`) from the tests. */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildIfStale, ROOT } from '../support/build.js'

export { ROOT }

/** The built CLI. */
export const CLI = join(ROOT, 'dist/cli.js')

/**
 * Builds dist/ when it is missing or older than src/ (the global setup has
 * normally done so already; this covers a file run on its own).
 */
export function ensureBuilt(): void {
  buildIfStale()
}

/** What a run produced. */
export interface RunResult {
  status: number | null
  stdout: Buffer
  stderr: string
}

/** Options of `run`. */
export interface RunOptions {
  /** Bytes for stdin (default: none, stdin closed at once). */
  input?: string | Uint8Array
  cwd?: string
  env?: NodeJS.ProcessEnv
}

/** Runs `node dist/cli.js ...args` asynchronously (so an in-process test server can answer it). */
export function run(args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: options.cwd ?? ROOT,
      env: options.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    const out: Buffer[] = []
    const err: Buffer[] = []
    child.stdout.on('data', (c: Buffer) => out.push(c))
    child.stderr.on('data', (c: Buffer) => err.push(c))
    child.on('error', reject)
    child.on('close', (status) => {
      resolvePromise({ status, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') })
    })
    child.stdin.on('error', () => {})
    child.stdin.end(options.input ?? '')
  })
}

/** A fresh temporary directory; `cleanup()` removes it. */
export function tempDir(): { dir: string; path: (name: string) => string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'robots-cli-'))
  return { dir, path: (name) => join(dir, name), cleanup: () => rmSync(dir, { recursive: true, force: true }) }
}

/** Splits bytes into lines, each keeping its line ending (a last line may have none). */
export function splitKeepingEndings(bytes: Uint8Array): Buffer[] {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length)
  const lines: Buffer[] = []
  let pos = 0
  while (pos < b.length) {
    const lf = b.indexOf(10, pos)
    const next = lf < 0 ? b.length : lf + 1
    lines.push(b.subarray(pos, next))
    pos = next
  }
  return lines
}

/** The URL of a line as the CLI judges it: without its LF, and without a CR right before it (or ending the input). */
export function urlOf(line: Buffer): Buffer {
  let end = line.length
  if (end > 0 && line[end - 1] === 10) end--
  if (end > 0 && line[end - 1] === 13) end--
  return line.subarray(0, end)
}

/**
 * Whether `filter` reads the line's URL as one (docs/cli.md, "Lines without
 * a URL"): a path (`/…`), or an `http://` / `https://` URL (any case) with a
 * host: the authority (up to `/ ? # \`) after its last `@` holds a host
 * before any `:` (an IPv6 literal with its closing bracket); and no CR in it.
 */
export function isUrlLine(url: Uint8Array): boolean {
  const text = Buffer.from(url).toString('latin1')
  // A CR that ends no line: the input's lines may end with CR alone (reason `cr`).
  if (text.includes('\r')) return false
  if (text.startsWith('/')) return true
  const m = /^https?:\/\/([^/?#\\]*)/i.exec(text)
  if (m === null) return false
  const hostPort = m[1].slice(m[1].lastIndexOf('@') + 1)
  if (hostPort.startsWith('[')) return hostPort.indexOf(']') > 0
  return hostPort.split(':')[0] !== ''
}
