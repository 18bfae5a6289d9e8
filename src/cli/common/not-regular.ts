/** The words every command uses for a file it does not read as a robots.txt because it is no regular file. */
import type { Stats } from 'node:fs'

/** Why `s` is not read as a robots.txt file: `not a regular file (a FIFO)`. */
export function notRegular(s: Stats): string {
  return `not a regular file (${s.isDirectory() ? 'a directory' : s.isFIFO() ? 'a FIFO' : s.isSocket() ? 'a socket' : 'a device'})`
}
