/**
 * Interrupting a long run (SIGINT, SIGTERM, SIGHUP: a closed terminal): the first signal asks the run
 * to stop, so that it keeps what it did and says how to go on; a second one
 * ends the process at once. And the command line to run again, quoted for
 * a shell.
 */
import { PROGRAM } from './version.js'

/** The signals that interrupt a run, and their exit statuses (128 + the signal's number). */
export const SIGNALS = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const

/** A signal that interrupts a run. */
export type StopSignal = keyof typeof SIGNALS

let hungUp = false

/** Records a signal received by a run's own handler. */
export function signalled(name: StopSignal): void {
  if (name === 'SIGHUP') hungUp = true
}

/**
 * Ends the process with `code`; after a hang-up, by SIGHUP itself once the
 * exit hooks have run (a shell sees 129): Node's own way out aborts when
 * its terminal is gone.
 */
export function exitProcess(code: number): never {
  if (hungUp) {
    process.removeAllListeners('SIGHUP')
    process.on('exit', () => process.kill(process.pid, 'SIGHUP'))
  }
  process.exit(code)
}

/** A word of a command line as a shell reads it back (quoted when it must be). */
export function shellWord(w: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`
}

/** The command line of `command` with `argv`, as a shell reads it back. */
export function commandLine(command: string, argv: readonly string[]): string {
  return [PROGRAM, command, ...argv].map(shellWord).join(' ')
}

/**
 * Ends the process by the signal `name` itself, as its default action does
 * (a shell sees 128 + its number), once the listeners still there have run
 * (the last-resort clean-ups of temporary folders and files). Unlike
 * `process.exit`, which waits for Node's threads, this ends the process
 * even while one of them waits in a system call (opening a FIFO that has
 * no reader). The caller has removed its own listener for `name`.
 */
function endBySignal(name: StopSignal): void {
  process.kill(process.pid, name)
}

/**
 * Listens for the {@link SIGNALS} until {@link release}d: the first aborts
 * `controller` (the run winds down and reads {@link signal}); a second one
 * calls `last` (for example to close a journal) and ends the process at
 * once, by that signal.
 */
export class Interrupt {
  /** The signal that interrupted the run, if any. */
  signal: StopSignal | undefined
  private readonly handlers: [StopSignal, () => void][]

  constructor(controller: AbortController, last: (name: StopSignal) => void = () => {}) {
    this.handlers = (Object.keys(SIGNALS) as StopSignal[]).map((name) => {
      const handler = (): void => {
        signalled(name)
        if (this.signal !== undefined) {
          try {
            last(name)
          } finally {
            this.release()
            endBySignal(name)
          }
          return
        }
        this.signal = name
        controller.abort(new Error(`interrupted by ${name}`))
      }
      process.on(name, handler)
      return [name, handler]
    })
  }

  /** The exit status of the run: 0 when it was not interrupted. */
  get status(): number {
    return this.signal === undefined ? 0 : SIGNALS[this.signal]
  }

  /** Stops listening (the process's default handling comes back). */
  release(): void {
    for (const [name, handler] of this.handlers) process.off(name, handler)
  }
}
