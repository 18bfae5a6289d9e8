/**
 * Counts as the tools print them: digits grouped by threes with commas, as
 * `Intl.NumberFormat('en-US')` writes them. Integers are grouped here: the
 * formatter's locale data takes longer to load than a short command takes to
 * run, so it is made only for a number that is not an integer.
 */

let formatter: Intl.NumberFormat | undefined

/** `1234567` → `1,234,567`. */
export function count(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return (formatter ??= new Intl.NumberFormat('en-US')).format(n)
  const digits = String(Math.abs(n)).replace(/\B(?=(\d{3})+$)/g, ',')
  return n < 0 ? `-${digits}` : digits
}

/** `1 error`, `2 errors`, `1,234 URLs`. */
export function plural(n: number, word: string): string {
  return `${count(n)} ${word}${n === 1 ? '' : 's'}`
}
