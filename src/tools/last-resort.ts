/**
 * What a tool does on SIGINT, SIGTERM or SIGHUP (a closed terminal) that no
 * run of its own handles: clean-ups (temporary folders removed, a note said),
 * after which the signal ends the process as it would have. Such listeners
 * are marked {@link LAST_RESORT} and do not count as handling the signal;
 * the Node entry's temporary output files use the same key
 * (src/files/output-file.ts), so that every clean-up runs and none of them
 * keeps the process alive.
 */

/** A signal that stops a run. */
export type StopSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP'

const NAMES: readonly StopSignal[] = ['SIGINT', 'SIGTERM', 'SIGHUP']

/** The mark of a listener that acts only when no other one handles the signal. */
const LAST_RESORT = Symbol.for('robots-automaton.last-resort')

/**
 * Runs `action` on a stop signal that nothing else handles, then lets the
 * signal end the process; returns the function that stops listening.
 */
export function onUnhandledSignal(action: (name: StopSignal) => void): () => void {
  const stop = (): void => {
    for (const name of NAMES) process.off(name, listener)
  }
  const listener = Object.assign(
    (name: StopSignal): void => {
      // A listener that is no last resort (a run's own handler) decides.
      if (process.listeners(name).some((l) => !(l as { [LAST_RESORT]?: boolean })[LAST_RESORT])) return
      stop()
      try {
        action(name)
      } catch {
        // A clean-up that fails (a closed stderr) does not keep the process alive.
      }
      process.kill(process.pid, name)
    },
    { [LAST_RESORT]: true },
  )
  for (const name of NAMES) process.on(name, listener)
  return stop
}
