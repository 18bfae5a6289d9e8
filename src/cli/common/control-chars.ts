/** The one check of crawler names given on the command line (`--agent`, `--crawlers`) for control characters. */
import { UsageError } from './cli-error.js'

/** C0 controls (a tab, line breaks, NUL), DEL and C1 controls. */
const CONTROL = /[\x00-\x1f\x7f-\x9f]/

/** Whether `text` holds a control character: no crawler's token does. */
export function hasControlCharacter(text: string): boolean {
  return CONTROL.test(text)
}

/**
 * Refuses an `--agent` token holding a control character (a tab, a line
 * break, NUL) with a usage error: judged, it would name no group and be
 * answered by the `*` groups alone. A list pasted into one value
 * (`--agent "$(cat list)"`) is the usual cause.
 */
export function refuseControlInAgents(tokens: readonly string[]): void {
  for (const t of tokens) {
    if (hasControlCharacter(t)) {
      throw new UsageError(`--agent '${t}': holds a control character (a line break, NUL, a tab): a crawler's token is one word such as Googlebot; several crawlers are given as '--crawlers A,B'`)
    }
  }
}
