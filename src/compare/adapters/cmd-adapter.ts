/**
 * `--cmd 'TEMPLATE'`: one process per case, as google/robotstxt-spec-test
 * runs an implementation. The template is split into words as a shell would
 * but no shell runs; `%robots%`, `%url%` and `%user-agent%` are filled in
 * each word. The outcome is read from the exit status or from stdout; the
 * process start-up, measured alone, is taken off each case's time. Each
 * process leads a process group of its own: when it exits, or `--timeout`
 * passes, the whole group is killed, so nothing it started outlives its case
 * and a background process holding its stdout cannot hold the case. The
 * details: docs/compare-reference.md, "--cmd".
 */
import type { ChildProcess } from 'node:child_process'
import { childProcess } from '../../tools/built-ins.js'
import { AdapterFailure, evidenceText, stderrLines, type Adapter, type AdapterTimings, type Answer, type Evidence, type OnAnswer, type Request } from './adapter.js'
import { BodyFiles } from './body-files.js'
import { killGroup, localSpawnFailure, trackGroup } from './process-group.js'
import { describeSystemError, usageError } from '../compare-error.js'

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

/**
 * Splits a command template into words as a shell would (spaces separate
 * words; '…' and "…" quote; a backslash escapes the next character).
 */
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
      if (end < 0) throw usageError(`option '--cmd': unterminated ' quote`)
      word += template.slice(i, end)
      i = end + 1
      inWord = true
    } else if (c === '"') {
      inWord = true
      for (;;) {
        if (i >= template.length) throw usageError(`option '--cmd': unterminated " quote`)
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
  if (words.length === 0) throw usageError("option '--cmd' needs a command")
  return words
}

/**
 * The outcome of one process: from the exit status (`--allowed-exit`,
 * `--disallowed-exit`; any other status is an error), or with patterns, from
 * stdout (with both, exactly one must match; with one, a match means that
 * outcome and no match the other, if the status is one of those two);
 * `--line-pattern`'s first group is the deciding line (no match: 0).
 */
export function outcomeOf(options: CmdOptions, status: number | null, signal: string | null, stdout: string, stderr: string, stdoutCut = false): Answer {
  const evidence: Evidence = { status, signal, stdout: evidenceText(stdout), stderr: evidenceText(stderr) }
  const answer = readOutcome(options, status, signal, stdout, stderr, stdoutCut)
  return { ...answer, evidence }
}

function readOutcome(options: CmdOptions, status: number | null, signal: string | null, stdout: string, stderr: string, stdoutCut: boolean): Answer {
  const tail = stderrLines(stderr, 4, 600)
  const more = tail ? `; stderr: ${tail}` : ''
  if (signal !== null) return { error: `killed by ${signal}${more}` }
  let allowed: boolean
  const a = options.allowedPattern
  const d = options.disallowedPattern
  // Patterns read stdout: past the part kept, what decides could be in the part dropped.
  if (stdoutCut && (a || d || options.linePattern)) return { error: `stdout longer than ${STDOUT_CAP / (1 << 20)} MiB: the patterns cannot read it whole (exit status ${status})${more}` }
  const known = status === options.allowedExit || status === options.disallowedExit
  if (a || d) {
    const matchA = a?.test(stdout) ?? false
    const matchD = d?.test(stdout) ?? false
    // No match read as the other outcome only from a process that exited as an answer: a crash prints nothing that matches.
    if (!matchA && !matchD && !(a && d) && !known) return { error: `exit status ${status} and stdout matches no pattern${more}` }
    const isA = a ? matchA : !matchD
    const isD = d ? matchD : !isA
    if (isA === isD) return { error: `stdout matches ${isA ? 'both patterns' : 'neither pattern'} (exit status ${status})${more}` }
    allowed = isA
  } else if (known) allowed = status === options.allowedExit
  else return { error: `exit status ${status} is neither --allowed-exit ${options.allowedExit} nor --disallowed-exit ${options.disallowedExit}${more}` }
  if (options.linePattern === undefined) return { allowed }
  const m = options.linePattern.exec(stdout)
  const line = m && m[1] !== undefined ? Number.parseInt(m[1], 10) : 0
  // Digits past 2^53 parse to another number (or Infinity): the reports would show a line the command never printed.
  if (!Number.isNaN(line) && !Number.isSafeInteger(line)) return { error: `--line-pattern read a line number past 2^53: ${m![1].slice(0, 40)}${more}` }
  return { allowed, line: Number.isFinite(line) ? line : 0 }
}

/** Most stdout kept per process: the rest is dropped, and an outcome read by patterns from a longer one is an error. */
const STDOUT_CAP = 1 << 20
/** Most stderr kept per process (its start for the evidence, and its end for messages). */
const STDERR_CAP = 64 * 1024

/** Processes run alone to measure the start-up (the median is kept). */
const STARTUP_RUNS = 3

/** The command adapter. */
/** A case whose URL or agent (in the arguments and the COMPARE_* variables) is past what the system passes to a program: the case's failing, not the program's. */
const TOO_LONG = 'the case cannot be passed to a command: its URL or user agent is longer than the system passes in one argument or variable (E2BIG)'

export class CmdAdapter implements Adapter {
  readonly kind = 'cmd'
  readonly multiAgent = false
  readonly description: string
  private readonly words: string[]
  private readonly files = new BodyFiles()
  private startupMs: number | undefined
  private startupTimedOut = false
  private closed = false
  /** Processes running now (killed by close). */
  private readonly running = new Set<ChildProcess>()

  constructor(private readonly options: CmdOptions) {
    this.words = splitWords(options.template)
    this.description = `--cmd ${options.template}`
  }

  /**
   * Runs the command STARTUP_RUNS times alone on an empty robots.txt: the
   * median is the start-up. A run that times out measures the time-out, not
   * the start-up: none is then taken off the cases, and the timings say so.
   */
  async start(): Promise<void> {
    const times: number[] = []
    for (let i = 0; i < STARTUP_RUNS; i++) {
      const t0 = performance.now()
      const answer = await this.run({ robots: new Uint8Array(0), agents: ['ExampleBot'], url: '/' }, true)
      if (answer.error?.startsWith('timed out')) {
        this.startupTimedOut = true
        return
      }
      times.push(performance.now() - t0)
    }
    this.startupMs = times.sort((a, b) => a - b)[STARTUP_RUNS >> 1]
  }

  /** Runs `--concurrency` processes at a time; each case's time is its process's wall time less the start-up (at least 0). */
  async judgeAll(requests: readonly Request[], onAnswer: OnAnswer): Promise<void> {
    let next = 0
    const startup = this.startupMs ?? 0
    const worker = async (): Promise<void> => {
      while (next < requests.length && !this.closed) {
        const index = next++
        const t0 = performance.now()
        const answer = await this.run(requests[index], false)
        if (this.closed) return
        onAnswer(index, answer, Math.max(0, performance.now() - t0 - startup))
      }
    }
    await Promise.all(Array.from({ length: Math.min(this.options.concurrency, requests.length) }, worker))
    if (this.closed && next < requests.length) throw new AdapterFailure('--cmd: the run was stopped')
  }

  judge(request: Request): Promise<Answer> {
    return this.run(request, false)
  }

  timings(): AdapterTimings {
    if (this.startupTimedOut) return { caseTime: `wall time of one process (no start-up taken off: run alone on an empty robots.txt, it timed out after ${this.options.timeoutMs} ms)` }
    return { startupMs: this.startupMs, startupSubtracted: true, caseTime: 'wall time of one process less the start-up measured alone' }
  }

  async close(): Promise<void> {
    this.closed = true
    for (const child of this.running) killGroup(child)
    this.files.remove()
  }

  /** Runs the command for one request. `fatalSpawn`: a program that cannot start is a fatal error, not an answer. */
  private run(request: Request, fatalSpawn: boolean): Promise<Answer> {
    const robots = this.files.path(request.robots)
    const agent = request.agents[0]
    // One pass: a URL holding '%user-agent%' is passed as it is, not filled in again.
    const values: Record<string, string> = { '%robots%': robots, '%url%': request.url, '%user-agent%': agent }
    const fillIn = (w: string): string => w.replace(/%robots%|%url%|%user-agent%/g, (p) => values[p])
    const [program, ...args] = this.words.map(fillIn)
    // An argument or environment value cannot hold a NUL byte: no process can be given this case.
    if (request.url.includes('\0') || agent.includes('\0')) {
      return Promise.resolve({ error: `a ${request.url.includes('\0') ? 'URL' : 'user agent'} with a NUL byte cannot be passed to a command` })
    }
    return new Promise((resolve, reject) => {
      let stdout = ''
      let stdoutCut = false
      let stderr = ''
      let timedOut = false
      let settled = false
      let exit: { status: number | null; signal: string | null } | undefined
      let child: ChildProcess
      try {
        child = childProcess().spawn(program, args, {
          stdio: ['ignore', 'pipe', 'pipe'],
          detached: true,
          env: { ...process.env, COMPARE_ROBOTS: robots, COMPARE_URL: request.url, COMPARE_USER_AGENT: agent },
        })
      } catch (err) {
        // Node throws some failures at once (E2BIG) rather than as the child's 'error'.
        if ((err as NodeJS.ErrnoException).code === 'E2BIG') resolve({ error: TOO_LONG })
        else reject(localSpawnFailure(err, `'${program}'`) ?? new AdapterFailure(`--cmd: cannot run '${program}': ${describeSystemError(err)}`))
        return
      }
      trackGroup(child)
      this.running.add(child)
      const settle = (answer: Answer): void => {
        clearTimeout(timer)
        this.running.delete(child)
        if (settled) return
        settled = true
        resolve(answer)
      }
      const timer = setTimeout(() => {
        timedOut = true
        killGroup(child)
        // A process outside the group (it called setsid) may still hold the pipes: the case ends now all the same.
        setTimeout(() => {
          child.stdout?.destroy()
          child.stderr?.destroy()
          const e: Evidence = { status: exit?.status ?? null, signal: exit?.signal ?? 'SIGKILL', stdout: evidenceText(stdout), stderr: evidenceText(stderr) }
          settle({ error: `timed out after ${this.options.timeoutMs} ms (--timeout): killed${exit ? '; its stdout was held open after it exited' : ''}`, evidence: e })
        }, 200).unref()
      }, this.options.timeoutMs)
      // No pipes when the spawn failed for want of descriptors: the error below says so.
      child.stdout?.setEncoding('utf8')
      child.stderr?.setEncoding('utf8')
      child.stdout?.on('data', (s: string) => {
        if (stdout.length + s.length <= STDOUT_CAP) stdout += s
        else {
          stdout += s.slice(0, Math.max(0, STDOUT_CAP - stdout.length))
          stdoutCut = true
        }
      })
      // Its start (the evidence) and its end (the message's last lines), the middle of a long one dropped.
      child.stderr?.on('data', (s: string) => {
        stderr += s
        if (stderr.length > STDERR_CAP) stderr = `${stderr.slice(0, STDERR_CAP >> 1)}\n…\n${stderr.slice(-(STDERR_CAP >> 2))}`
      })
      child.on('error', (err) => {
        clearTimeout(timer)
        this.running.delete(child)
        if (settled) return
        settled = true
        // This machine's limits (descriptors, processes) stop the run as the harness's failure, not as the implementation's answer.
        const local = localSpawnFailure(err, `'${program}'`)
        const message = (err as NodeJS.ErrnoException).code === 'E2BIG' ? TOO_LONG : `cannot run '${program}': ${describeSystemError(err)}`
        if (local) reject(local)
        else if (fatalSpawn) reject(new AdapterFailure(`--cmd: ${message}`))
        else resolve({ error: message })
      })
      // The command's answer is its exit: what it left running in its group goes with it, and the pipes close.
      child.on('exit', (status, signal) => {
        exit = { status, signal }
        killGroup(child)
      })
      child.on('close', (status, signal) => {
        if (timedOut) {
          const e: Evidence = { status, signal, stdout: evidenceText(stdout), stderr: evidenceText(stderr) }
          settle({ error: `timed out after ${this.options.timeoutMs} ms (--timeout): killed`, evidence: e })
        } else settle(outcomeOf(this.options, exit?.status ?? status, exit?.signal ?? signal, stdout, stderr, stdoutCut))
      })
    })
  }
}
