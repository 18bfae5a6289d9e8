/**
 * `robots-automaton playground`: serves the tester page (src/playground/,
 * built into dist/playground/ by `npm run playground` and `npm run build`)
 * on 127.0.0.1, or writes its two files to a folder (`--out DIR`). The page
 * does all the work in the browser; the server hands out two files and
 * nothing else (docs/playground.md).
 */
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, statSync } from 'node:fs'
import { checkOutput, willWrite, writeOutput } from '../common/output-file.js'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { http } from '../../tools/built-ins.js'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { COMMON_OPTIONS, helpOrVersion, optionValue, parseArgs, type OptionSpec } from '../common/args.js'
import { note } from '../common/stdio.js'
import { DEFAULT_PORT, PLAYGROUND_HELP } from './playground-help.js'
import { printable } from '../../tools/printable.js'
import { CliError, describeSystemError, UsageError } from '../common/cli-error.js'

/** The options `playground` accepts (its help, playground-help.ts, names each of them). */
export const PLAYGROUND_OPTIONS: readonly OptionSpec[] = [{ name: 'port', value: true }, { name: 'out', short: 'o', value: true }, ...COMMON_OPTIONS]

/** The page's files and their types; everything else is a 404. */
const FILES: Record<string, string> = {
  'index.html': 'text/html; charset=utf-8',
  'playground.js': 'text/javascript; charset=utf-8',
}

/** The same policy as the page's own meta tag, plus what only a header can say. */
const POLICY = "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

/** dist/playground/, next to dist/cli.js (this module is bundled into it). */
function pageDir(): string {
  const dir = fileURLToPath(new URL('./playground/', import.meta.url))
  if (!existsSync(join(dir, 'index.html')) || !existsSync(join(dir, 'playground.js'))) {
    throw new CliError('ERR_READ', `the tester page is not built (${dir} has no index.html and playground.js): run 'npm run playground' in the source tree`)
  }
  return dir
}

function parsePort(value: string | undefined): number {
  if (value === undefined) return DEFAULT_PORT
  const port = /^[0-9]{1,5}$/.test(value) ? Number(value) : NaN
  if (!(port >= 0 && port <= 65535)) throw new UsageError(`option '--port' must be an integer from 0 to 65535 (got '${value}')`)
  return port
}

/** A folder to make is a symbolic link to a path that does not exist. */
class DanglingLink extends Error {
  constructor(
    readonly path: string,
    readonly target: string,
  ) {
    super(`'${path}' is a link to a missing path`)
  }
}

/**
 * Makes the folder `dir` and its missing parents, each once. Not
 * `mkdirSync(dir, { recursive: true })`: where mkdir says ENOENT under a
 * folder that exists (`/proc/x`), Node's loop tries again for ever.
 */
function makeFolder(dir: string): void {
  const missing: string[] = []
  for (let p = resolve(dir); ; p = dirname(p)) {
    let isDir
    try {
      isDir = statSync(p).isDirectory()
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(p) === p) throw err
      // A link to nothing: mkdir cannot make it (EEXIST), and it is no file either.
      if (lstatSync(p, { throwIfNoEntry: false })?.isSymbolicLink()) throw new DanglingLink(p, readlinkSync(p))
      missing.push(p)
      continue
    }
    // A file where a folder is needed: what mkdir would say (EEXIST).
    if (!isDir) throw Object.assign(new Error(`'${p}' is not a folder`), { code: 'EEXIST' })
    break
  }
  for (const p of missing.reverse()) mkdirSync(p)
}

/** Writes the page's files into the folder `out` (made if need be), each as an output: replaced atomically, through a link. */
async function writeFiles(dir: string, out: string): Promise<void> {
  try {
    makeFolder(out)
  } catch (err) {
    // mkdir says EEXIST when a file (not a folder) has the name.
    const why =
      err instanceof DanglingLink
        ? `${err.path === resolve(out) ? 'it' : printable(err.path)} is a link to ${printable(err.target)}, which does not exist`
        : (err as NodeJS.ErrnoException).code === 'EEXIST'
          ? 'not a directory'
          : describeSystemError(err)
    throw new CliError('ERR_WRITE', `cannot write the page into ${printable(out)}: ${why}`)
  }
  const targets = Object.keys(FILES).map((name) => [name, willWrite(checkOutput(join(out, name), 'page file'))] as const)
  // The script first, the page last: a write that fails (a full disk) leaves no page that loads a missing script.
  for (const [name, target] of targets.reverse()) await writeOutput(target, readFileSync(join(dir, name)))
  note(`wrote ${printable(join(out, 'index.html'))} and ${printable(join(out, 'playground.js'))}`)
}

/** Answers one request: GET or HEAD of the page's two files, from the loopback address it listens on. */
function answer(files: Map<string, Buffer>, port: () => number, req: IncomingMessage, res: ServerResponse): void {
  const send = (status: number, type: string, body: Buffer | string): void => {
    // A 405 names the methods that are answered (RFC 9110 §15.5.6).
    if (status === 405) res.setHeader('Allow', 'GET, HEAD')
    res.writeHead(status, {
      'Content-Type': type,
      'Content-Length': Buffer.byteLength(body),
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Content-Security-Policy': POLICY,
    })
    res.end(req.method === 'HEAD' ? undefined : body)
  }
  // The absolute form (`GET http://127.0.0.1:PORT/ HTTP/1.1`, as a proxy sends it): its authority stands for the Host (RFC 9112 §3.2.2).
  let target = req.url ?? '/'
  let host = req.headers.host ?? ''
  const absolute = /^http:\/\/([^/?#]*)(.*)$/i.exec(target)
  if (absolute !== null) {
    host = absolute[1].toLowerCase()
    target = absolute[2] === '' ? '/' : absolute[2]
  }
  // A page of another site that a rebound DNS name points here gets nothing (DNS rebinding).
  if (host !== `127.0.0.1:${port()}` && host !== `localhost:${port()}`) return send(421, 'text/plain; charset=utf-8', 'wrong Host\n')
  if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'text/plain; charset=utf-8', 'only GET and HEAD\n')
  const path = target.split(/[?#]/)[0]
  const name = path === '/' ? 'index.html' : path.slice(1)
  const body = Object.hasOwn(FILES, name) ? files.get(name) : undefined
  if (body === undefined) return send(404, 'text/plain; charset=utf-8', 'not found\n')
  send(200, FILES[name], body)
}

/** Serves the page until SIGINT or SIGTERM; resolves to 0 then. */
async function serve(dir: string, port: number): Promise<number> {
  const files = new Map(Object.keys(FILES).map((name) => [name, readFileSync(join(dir, name))]))
  let bound = port
  const server = http().createServer((req, res) => answer(files, () => bound, req, res))
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      const why = err.code === 'EADDRINUSE' ? `port ${port} is in use (pick another with --port; 0: any free port)` : describeSystemError(err)
      reject(new CliError('ERR_LISTEN', `cannot listen on 127.0.0.1:${port}: ${why}`))
    })
    server.listen(port, '127.0.0.1', () => resolve())
  })
  const address = server.address()
  bound = typeof address === 'object' && address !== null ? address.port : port
  const url = `http://127.0.0.1:${bound}/`
  process.stdout.write(`${url}\n`)
  note(`serving the robots.txt tester on ${url} (Ctrl-C stops it)`)
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      server.close(() => resolve())
      server.closeAllConnections()
    }
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
  })
  return 0
}

/** Runs `playground` with the arguments after the command name; resolves to the exit code. */
export async function runPlayground(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, PLAYGROUND_OPTIONS)
  if (helpOrVersion(args, PLAYGROUND_HELP)) return 0
  if (args.positionals.length > 0) throw new UsageError(`takes no arguments (got '${args.positionals[0]}')`)
  const out = optionValue(args, 'out')
  const portValue = optionValue(args, 'port')
  if (out !== undefined && portValue !== undefined) throw new UsageError(`'--out' writes the files and serves nothing: it takes no '--port'`)
  // Elsewhere '-' is stdout; two files cannot go there, and a folder named '-' is never what was meant.
  if (out === '-') throw new UsageError(`'--out' takes a directory for the page's two files: stdout ('-') cannot hold them`)
  // Every usage error comes before the page's files are looked for.
  const port = out === undefined ? parsePort(portValue) : 0
  const dir = pageDir()
  if (out !== undefined) {
    await writeFiles(dir, out)
    return 0
  }
  return serve(dir, port)
}
