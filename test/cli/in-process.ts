/**
 * Running the command line in the test's own process (src/cli/main.ts, as
 * dist/cli.js runs it), for runs that need nothing of the process but its
 * stdout and stderr: help, version and usage errors, and runs that read only
 * files named on the command line (never stdin) in one thread (`--jobs 1`),
 * such as an oracle's runs. What it writes to stdout and stderr is taken,
 * not written; the exit code is main's, or that of its failure as the
 * process reports it. The process around it (stdio guards, signals, the
 * exit, worker threads) is tested through dist/cli.js (helpers.ts `run`).
 */
import { vi } from 'vitest'
import { main, reportFailure } from '../../src/cli/main.js'
import type { RunResult } from './helpers.js'

type Write = (chunk: string | Uint8Array, encoding?: unknown, done?: unknown) => boolean

/** Takes what `stream.write` is given into `sink`, calling a write's callback as a finished write does. */
function capture(stream: NodeJS.WriteStream, sink: Buffer[]) {
  return vi.spyOn(stream, 'write').mockImplementation(((chunk, encoding, done) => {
    sink.push(typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : Buffer.from(chunk))
    const callback = typeof encoding === 'function' ? encoding : done
    if (typeof callback === 'function') queueMicrotask(() => (callback as () => void)())
    return true
  }) as Write)
}

/** Runs `robots-automaton ...args` in this process; resolves to what `run` would give for a run that reads no stdin. */
export async function runInProcess(args: readonly string[]): Promise<RunResult> {
  const out: Buffer[] = []
  const err: Buffer[] = []
  const stdout = capture(process.stdout, out)
  const stderr = capture(process.stderr, err)
  let status: number
  try {
    status = await main(args).catch(reportFailure)
  } finally {
    stdout.mockRestore()
    stderr.mockRestore()
  }
  return { status, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') }
}
