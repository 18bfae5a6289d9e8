/**
 * An adapter from its options, wherever they come from: the command line
 * (`--batch CMD --window 64`) or an entry of a `--matrix` file (`{"batch":
 * "CMD", "window": 64}`), with the same names, checks and messages.
 */
import { availableParallelism } from 'node:os'
import type { Adapter } from './adapter.js'
import { BatchAdapter } from './batch-adapter.js'
import { CmdAdapter } from './cmd-adapter.js'
import { ModuleAdapter } from './module-adapter.js'
import { count } from '../format.js'

/** Options read from the command line or a matrix entry. */
export interface OptionValues {
  /** The option's value as text (a flag: 'true'), undefined when absent. */
  value(name: string): string | undefined
  /** How a message names an option: `'--window'` (command line), `'window'` (matrix). */
  named(name: string): string
  /** An error about the options (a usage error on the command line, a file error in a matrix). */
  error(message: string): Error
}

/** The options that choose the adapter. */
export const ADAPTER_KINDS = ['cmd', 'batch', 'module'] as const

/** The adapter options (beside the kinds), and which kind each goes with ('' for all). */
export const ADAPTER_OPTIONS: Readonly<Record<string, '' | 'cmd' | 'batch'>> = {
  'allowed-exit': 'cmd',
  'disallowed-exit': 'cmd',
  'allowed-pattern': 'cmd',
  'disallowed-pattern': 'cmd',
  'line-pattern': 'cmd',
  concurrency: 'cmd',
  window: 'batch',
  'batch-robots': 'batch',
  timeout: '',
}

/** Default of `--timeout` (ms). */
export const DEFAULT_TIMEOUT_MS = 10_000
/** Default of `--window`. */
export const DEFAULT_WINDOW = 256

/** The longest --timeout (ms): what a timer holds (a longer one fired at once, timing every case out). */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1

/** A whole-number option within [min, max], or its default. */
export function intValue(o: OptionValues, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const v = o.value(name)
  if (v === undefined) return fallback
  if (!/^-?\d+$/.test(v) || Number(v) < min || Number(v) > max) {
    // The top is said when it is a real limit, or when the value passed it ('from 0' alone would not say why 1e17 is refused).
    const range = `${count(min)}${max < Number.MAX_SAFE_INTEGER || Number(v) > max ? ` to ${count(max)}` : ''}`
    throw o.error(`option ${o.named(name)} must be a whole number from ${range} (got '${v}')`)
  }
  return Number(v)
}

function regexValue(o: OptionValues, name: string): RegExp | undefined {
  const v = o.value(name)
  if (v === undefined) return undefined
  try {
    return new RegExp(v, 'm')
  } catch (err) {
    throw o.error(`option ${o.named(name)} is not a valid regular expression: ${(err as Error).message}`)
  }
}

/** The adapter the options name, or undefined when they name none; `multiAgent`: multi-agent cases are wanted. */
export function adapterOf(o: OptionValues, multiAgent: boolean): Adapter | undefined {
  const given = ADAPTER_KINDS.filter((k) => o.value(k) !== undefined)
  if (given.length > 1) throw o.error(`options ${o.named(given[0])} and ${o.named(given[1])} cannot be combined: choose one adapter`)
  const kind = given[0]
  for (const [name, goes] of Object.entries(ADAPTER_OPTIONS)) {
    if (goes !== '' && goes !== kind && o.value(name) !== undefined) throw o.error(`option ${o.named(name)} goes with ${o.named(goes)}`)
  }
  const timeoutMs = intValue(o, 'timeout', DEFAULT_TIMEOUT_MS, 1, MAX_TIMEOUT_MS)
  switch (kind) {
    case 'cmd': {
      if (multiAgent) throw o.error(`option ${o.named('multi-agent')} does not go with ${o.named('cmd')} (%user-agent% is one token)`)
      const allowedExit = intValue(o, 'allowed-exit', 0, 0, 255)
      const disallowedExit = intValue(o, 'disallowed-exit', 1, 0, 255)
      if (allowedExit === disallowedExit) throw o.error(`options ${o.named('allowed-exit')} and ${o.named('disallowed-exit')} must differ`)
      return new CmdAdapter({
        template: o.value('cmd')!,
        allowedExit,
        disallowedExit,
        allowedPattern: regexValue(o, 'allowed-pattern'),
        disallowedPattern: regexValue(o, 'disallowed-pattern'),
        linePattern: regexValue(o, 'line-pattern'),
        concurrency: intValue(o, 'concurrency', availableParallelism(), 1, 1024),
        timeoutMs,
      })
    }
    case 'batch': {
      const via = o.value('batch-robots') ?? 'path'
      if (via !== 'path' && via !== 'inline') throw o.error(`option ${o.named('batch-robots')} must be one of path, inline (got '${via}')`)
      return new BatchAdapter({ command: o.value('batch')!, robotsVia: via, multiAgent, window: intValue(o, 'window', DEFAULT_WINDOW, 1, 1 << 16), timeoutMs })
    }
    case 'module':
      return new ModuleAdapter({ path: o.value('module')!, multiAgent, timeoutMs, thread: new URL('./compare-module.js', import.meta.url) })
    default:
      return undefined
  }
}
