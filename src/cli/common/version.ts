/**
 * The program's name and version: the one home of both. The version is the
 * package's, read at run time from the package.json next to `dist/` (so a
 * release bump needs no rebuild step of its own).
 */
import { readFileSync } from 'node:fs'

/** The program name used in messages (and the prefix of every stderr line). */
export const PROGRAM = 'robots-automaton'

let cached: string | undefined

/** The package version, e.g. `0.1.0` (`unknown` when package.json cannot be read). */
export function version(): string {
  if (cached !== undefined) return cached
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: unknown }
    cached = typeof pkg.version === 'string' ? pkg.version : 'unknown'
  } catch {
    cached = 'unknown'
  }
  return cached
}

/** What `--version` and `-V` print: `robots-automaton 0.1.0`. */
export function versionLine(): string {
  return `${PROGRAM} ${version()}`
}

/** The `User-Agent` the command line fetches with unless told otherwise: `robots-automaton/0.1.0`. */
export function defaultUserAgent(): string {
  return `${PROGRAM}/${version()}`
}
