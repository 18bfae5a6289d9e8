/**
 * A small strict argument parser ({@link parseArgs}): `--name value`,
 * `--name=value`, boolean flags, short aliases (`-h`, `-q`), `--` to end the
 * options, and `-` as a positional (stdin). Why not Node's `util.parseArgs`:
 * docs/cli.md ("Why the hand-written argument parser") and {@link parseArgs}.
 */
import { versionLine } from './version.js'
import { UsageError } from './cli-error.js'

/** One accepted option. */
export interface OptionSpec {
  /** Long name without the dashes, e.g. `agent`. */
  readonly name: string
  /** Takes a value (`--agent X`) or is a flag (`--json`). */
  readonly value: boolean
  /** One-letter alias without the dash, e.g. `q`. */
  readonly short?: string
  /** Accepted values, when the value comes from a fixed set. */
  readonly choices?: readonly string[]
  /** Whether an empty value (`--name=`) is accepted; by default it is a usage error. */
  readonly allowEmpty?: boolean
  /** May be given several times (`--agent A --agent B`): the values are kept in order (see `optionValues`). */
  readonly multiple?: boolean
}

/** The result of parsing: option values by long name (`true` for flags), then positionals. */
export interface ParsedArgs {
  /** A flag's `true`, a value option's value, or every value of a `multiple` option. */
  readonly options: ReadonlyMap<string, string | true | readonly string[]>
  readonly positionals: readonly string[]
}

/**
 * Parses `argv` against `specs`; throws `UsageError` on anything not
 * accepted: unknown options, missing values, repeated options (unless the
 * option is `multiple`) and values outside a fixed set are usage errors
 * (exit 2).
 *
 * Why not Node's `util.parseArgs` (checked on Node 20): it has no value
 * choices and no check for an empty value (`--agent=` passes as ''), a
 * value option or flag given twice passes silently (the last wins), and its
 * errors are several lines of its own wording (`--agent -x`: "argument is
 * ambiguous. Did you forget…"), where every stderr line here is one
 * prefixed line naming the option. Each of these is a behaviour the tests
 * pin, so the small parser stays; wrapping parseArgs to restore them would
 * leave more code than this.
 */
export function parseArgs(argv: readonly string[], specs: readonly OptionSpec[]): ParsedArgs {
  const byName = new Map(specs.map((s) => [s.name, s]))
  const byShort = new Map(specs.filter((s) => s.short !== undefined).map((s) => [s.short!, s]))
  const options = new Map<string, string | true | string[]>()
  const positionals: string[] = []
  let i = 0
  while (i < argv.length) {
    const arg = argv[i++]
    if (arg === '--') {
      positionals.push(...argv.slice(i))
      break
    }
    if (arg === '-' || !arg.startsWith('-')) {
      positionals.push(arg)
      continue
    }
    let spec: OptionSpec | undefined
    let inline: string | undefined
    let shown: string
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=')
      const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq)
      if (eq >= 0) inline = arg.slice(eq + 1)
      spec = byName.get(name)
      shown = `--${name}`
    } else {
      spec = arg.length === 2 ? byShort.get(arg[1]) : undefined
      shown = arg
    }
    if (spec === undefined) {
      // `-j4`, `-qj`: short options are given one by one, a value apart.
      const joined = !arg.startsWith('--') && arg.length > 2 ? byShort.get(arg[1]) : undefined
      if (joined !== undefined && (joined.value || [...arg.slice(1)].every((c) => byShort.has(c)))) {
        const apart = joined.value ? `-${arg[1]} ${arg.slice(2)}` : [...arg.slice(1)].map((c) => `-${c}`).join(' ')
        throw new UsageError(`unknown option '${shown}'; short options go one by one, a value apart: did you mean '${apart}'?`)
      }
      const near = closest(arg.startsWith('--') ? shown.slice(2) : shown.slice(1), specs.map((s) => s.name))
      throw new UsageError(`unknown option '${shown}'${near === undefined ? '' : `; did you mean '--${near}'?`}`)
    }
    const label = `--${spec.name}`
    if (options.has(spec.name) && !spec.multiple) throw new UsageError(`option '${label}' is given more than once`)
    if (!spec.value) {
      if (inline !== undefined) throw new UsageError(`option '${label}' takes no value`)
      options.set(spec.name, true)
      continue
    }
    let value = inline
    if (value === undefined) {
      const next = argv[i]
      if (next === undefined || (next.startsWith('-') && next !== '-')) {
        // `--jobs -1`, `--robots -r.txt`: a value the user meant, read as an option; `=` gives it.
        const meant = next !== undefined && next[1] !== '-' && !byShort.has(next.slice(1))
        throw new UsageError(`option '${label}' needs a value${meant ? ` (to give '${next}', write '${label}=${next}')` : ''}`)
      }
      value = next
      i++
    }
    if (value === '' && !spec.allowEmpty) throw new UsageError(`option '${label}' needs a non-empty value`)
    if (spec.choices !== undefined && !spec.choices.includes(value)) {
      const near = closest(value, spec.choices)
      throw new UsageError(`option '${label}' must be one of ${spec.choices.join(', ')} (got '${value}')${near === undefined ? '' : `; did you mean '${near}'?`}`)
    }
    if (spec.multiple) {
      const list = options.get(spec.name) as string[] | undefined
      if (list === undefined) options.set(spec.name, [value])
      else list.push(value)
    } else options.set(spec.name, value)
  }
  return { options, positionals }
}

/** The string value of a value option, or undefined. */
export function optionValue(args: ParsedArgs, name: string): string | undefined {
  const v = args.options.get(name)
  return typeof v === 'string' ? v : undefined
}

/** An integer option within [min, max], or `fallback` when absent; a usage error otherwise. */
export function intOption(args: ParsedArgs, name: string, min: number, max: number, fallback: number): number {
  const value = optionValue(args, name)
  if (value === undefined) return fallback
  const n = /^[0-9]+$/.test(value) ? Number(value) : NaN
  if (!(n >= min && n <= max)) throw new UsageError(`option '--${name}' must be an integer from ${min} to ${max} (got '${value}')`)
  return n
}

/** Every value of a `multiple` option, in order (empty when absent). */
export function optionValues(args: ParsedArgs, name: string): readonly string[] {
  const v = args.options.get(name)
  return Array.isArray(v) ? v : typeof v === 'string' ? [v] : []
}

/** Whether a flag was given. */
export function flag(args: ParsedArgs, name: string): boolean {
  return args.options.get(name) === true
}

/** `-h/--help` and `-V/--version`: accepted by every command (and the program itself). */
export const COMMON_OPTIONS: readonly OptionSpec[] = [
  { name: 'help', short: 'h', value: false },
  { name: 'version', short: 'V', value: false },
]

/**
 * Answers `--help` (with `help`, on stdout) or `--version` (`robots-automaton
 * 0.1.0`); true when one was given, so the command returns 0 at once. Checked
 * before anything else, so that `check --version` needs no ROBOTS.
 */
export function helpOrVersion(args: ParsedArgs, help: string): boolean {
  if (flag(args, 'help')) process.stdout.write(help)
  else if (flag(args, 'version')) process.stdout.write(`${versionLine()}\n`)
  else return false
  return true
}

/** Edit distance (insertions, deletions, substitutions, adjacent swaps) of `a` and `b`, ASCII case ignored. */
function distance(a: string, b: string): number {
  a = a.toLowerCase()
  b = b.toLowerCase()
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)])
  for (let j = 1; j <= b.length; j++) d[0][j] = j
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1)
    }
  }
  return d[a.length][b.length]
}

/**
 * The known word closest to `word`, for a "did you mean": within two edits
 * (one for words of up to four letters), or one the word starts or ends;
 * undefined when none is near or two are equally near.
 */
export function closest(word: string, known: readonly string[]): string | undefined {
  if (word.length === 0) return undefined
  let best: string | undefined
  let bestScore = Infinity
  let tie = false
  for (const k of known) {
    const d = distance(word, k)
    const limit = Math.min(word.length, k.length) <= 4 ? 1 : 2
    const score = d <= limit ? d : word.length >= 3 && (k.startsWith(word) || word.startsWith(k)) ? limit + 0.5 : Infinity
    if (score < bestScore) {
      best = k
      bestScore = score
      tie = false
    } else if (score === bestScore && score !== Infinity) tie = true
  }
  return bestScore === Infinity || tie ? undefined : best
}
