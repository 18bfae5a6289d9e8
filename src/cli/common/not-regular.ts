/** The words every command uses for a file it does not read as a robots.txt because it is no regular file. */
import type { Stats } from 'node:fs'

/** The kinds of file that are not read, in words. */
export const NOT_REGULAR_WORDS = { directory: 'a directory', fifo: 'a FIFO', socket: 'a socket', device: 'a device' } as const

/** Why a file of that kind is not read as a robots.txt file: `not a regular file (a FIFO)`. */
export function notRegularText(words: string): string {
  return `not a regular file (${words})`
}

/** Why `s` is not read as a robots.txt file. */
export function notRegular(s: Stats): string {
  const w = NOT_REGULAR_WORDS
  return notRegularText(s.isDirectory() ? w.directory : s.isFIFO() ? w.fifo : s.isSocket() ? w.socket : w.device)
}
