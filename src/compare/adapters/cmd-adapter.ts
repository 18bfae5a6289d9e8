/**
 * `--cmd 'TEMPLATE'`: one process per case, as google/robotstxt-spec-test
 * runs an implementation.
 *
 * The template is split into words like a shell would split it (spaces
 * separate words; '…' and "…" quote; a backslash escapes the next character)
 * but no shell runs: the first word is the program. In every word,
 * `%robots%` becomes the path of a temporary file holding the body's exact
 * bytes, `%url%` the URL and `%user-agent%` the product token, each as one
 * argument whatever it holds (no quoting needed, no shell injection). The
 * same values are in the environment as COMPARE_ROBOTS, COMPARE_URL and
 * COMPARE_USER_AGENT (for `sh -c '…"$COMPARE_URL"…'`). A crawler with several
 * tokens cannot be passed this way: multi-agent cases are skipped; a URL or
 * token holding a NUL byte cannot be an argument: such a case is an error.
 *
 * The outcome comes from the exit status (`--allowed-exit`, default 0;
 * `--disallowed-exit`, default 1; any other status is an error) or, when
 * `--allowed-pattern` and/or `--disallowed-pattern` are given, from regular
 * expressions on stdout (JavaScript syntax, multiline: `^` and `$` match at
 * line ends): with both, exactly one must match; with one, a match means that
 * outcome and no match the other. `--line-pattern` reads the deciding line
 * from stdout (its first capture group; no match: line 0).
 *
 * Cases run `--concurrency` at a time; a case that runs longer than
 * `--timeout` ms is killed and counted as an error. Before the run the
 * command runs once alone on an empty robots.txt: that time is the process
 * start-up, reported apart from the per-case times (wall time of each
 * process, start-up included).
 */
import { spawn } from 'node:child_process'
import { CliError, describeSystemError, UsageError } from '../../internals.js'
import type { Adapter, AdapterTimings, Answer, OnAnswer, Request } from './adapter.js'
import { BodyFiles } from './body-files.js'

/** Options of the command adapter. */
export interface CmdOptions {
  readonly template: string
  readonly allowedExit: number
  readonly disallowedExit: number
  readonly allowedPattern?: RegExp
  readonly disallowedPattern?: RegExp
  readonly linePattern?: RegExp
  readonly concurrency: number
  readonly timeoutMs: number
}

/** Splits a command template into words (see the module comment). */
export function splitWords(template: string): string[] {
  const words: string[] = []
  let word = ''
  let inWord = false
  let i = 0
  while (i < template.length) {
    const c = template[i++]
    if (c === ' ' || c === '\t' || c === '\n') {
      if (inWord) words.push(word)
      word = ''
      inWord = false
    } else if (c === "'") {
      const end = template.indexOf("'", i)
      if (end < 0) throw new UsageError(`option '--cmd': unterminated ' quote`)
      word += template.slice(i, end)
      i = end + 1
      inWord = true
    } else if (c === '"') {
      inWord = true
      for (;;) {
        if (i >= template.length) throw new UsageError(`option '--cmd': unterminated " quote`)
        const d = template[i++]
        if (d === '"') break
        if (d === '\\' && i < template.length && '"\\$`'.includes(template[i])) word += template[i++]
        else word += d
      }
    } else if (c === '\\') {
      if (i < template.length) word += template[i++]
      inWord = true
    } else {
      word += c
      inWord = true
    }
  }
  if (inWord) words.push(word)
  if (words.length === 0) throw new UsageError("option '--cmd' needs a command")
  return words
}

/** The outcome of one process. */
export function outcomeOf(options: CmdOptions, status: number | null, signal: string | null, stdout: string, stderr: string): Answer {
  const tail = stderr.trim().split('\n').slice(-2).join(' | ').slice(0, 300)
  const more = tail ? `; stderr: ${tail}` : ''
  if (signal !== null) return { error: `killed by ${signal}${more}` }
  let allowed: boolean
  const a = options.allowedPattern
  const d = options.disallowedPattern
  if (a || d) {
    const isA = a ? a.test(stdout) : !d!.test(stdout)
    const isD = d ? d.test(stdout) : !isA
    if (isA === isD) return { error: `stdout matches ${isA ? 'both patterns' : 'neither pattern'} (exit status ${status})${more}` }
    allowed = isA
  } else if (status === options.allowedExit) allowed = true
  else if (status === options.disallowedExit) allowed = false
  else return { error: `exit status ${status} is neither --allowed-exit ${options.allowedExit} nor --disallowed-exit ${options.disallowedExit}${more}` }
  if (options.linePattern === undefined) return { allowed }
  const m = options.linePattern.exec(stdout)
  const line = m && m[1] !== undefined ? Number.parseInt(m[1], 10) : 0
  return { allowed, line: Number.isFinite(line) ? line : 0 }
}

/** Most stdout kept per process (the rest is dropped before matching). */
const STDOUT_CAP = 1 << 20

/** The command adapter. */
export class CmdAdapter implements Adapter {
  readonly kind = 'cmd'
  readonly multiAgent = false
  readonly description: string
  private readonly words: string[]
  private readonly files = new BodyFiles()
  private startupMs: number | undefined

  constructor(private readonly options: CmdOptions) {
    this.words = splitWords(options.template)
    this.description = `--cmd ${options.template}`
  }

  async start(): Promise<void> {
    const t0 = performance.now()
    await this.run({ robots: new Uint8Array(0), agents: ['ExampleBot'], url: '/' }, true)
    this.startupMs = performance.now() - t0
  }

  async judgeAll(requests: readonly Request[], onAnswer: OnAnswer): Promise<void> {
    let next = 0
    const worker = async (): Promise<void> => {
      while (next < requests.length) {
        const index = next++
        const t0 = performance.now()
        const answer = await this.run(requests[index], false)
        onAnswer(index, answer, performance.now() - t0)
      }
    }
    await Promise.all(Array.from({ length: Math.min(this.options.concurrency, requests.length) }, worker))
  }

  judge(request: Request): Promise<Answer> {
    return this.run(request, false)
  }

  timings(): AdapterTimings {
    return { startupMs: this.startupMs, caseTime: 'wall time of one process, start-up included' }
  }

  async close(): Promise<void> {
    this.files.remove()
  }

  /** Runs the command for one request. `fatalSpawn`: a program that cannot start is a fatal error, not an answer. */
  private run(request: Request, fatalSpawn: boolean): Promise<Answer> {
    const robots = this.files.path(request.robots)
    const agent = request.agents[0]
    const fillIn = (w: string): string =>
      w.split('%robots%').join(robots).split('%url%').join(request.url).split('%user-agent%').join(agent)
    const [program, ...args] = this.words.map(fillIn)
    // An argument or environment value cannot hold a NUL byte: no process can be given this case.
    if (request.url.includes('\0') || agent.includes('\0')) {
      return Promise.resolve({ error: `a ${request.url.includes('\0') ? 'URL' : 'user agent'} with a NUL byte cannot be passed to a command` })
    }
    return new Promise((resolve, reject) => {
      let stdout = ''
      let stderr = ''
      let timedOut = false
      let settled = false
      const child = spawn(program, args, {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, COMPARE_ROBOTS: robots, COMPARE_URL: request.url, COMPARE_USER_AGENT: agent },
      })
      const timer = setTimeout(() => {
        timedOut = true
        child.kill('SIGKILL')
      }, this.options.timeoutMs)
      child.stdout.setEncoding('utf8')
      child.stderr.setEncoding('utf8')
      child.stdout.on('data', (s: string) => {
        if (stdout.length < STDOUT_CAP) stdout += s
      })
      child.stderr.on('data', (s: string) => {
        stderr = (stderr + s).slice(-4096)
      })
      child.on('error', (err) => {
        clearTimeout(timer)
        if (settled) return
        settled = true
        const message = `cannot run '${program}': ${describeSystemError(err)}`
        if (fatalSpawn) reject(new CliError('ERR_ADAPTER', `--cmd: ${message}`))
        else resolve({ error: message })
      })
      child.on('close', (status, signal) => {
        clearTimeout(timer)
        if (settled) return
        settled = true
        if (timedOut) resolve({ error: `timed out after ${this.options.timeoutMs} ms` })
        else resolve(outcomeOf(this.options, status, signal, stdout, stderr))
      })
    })
  }
}
