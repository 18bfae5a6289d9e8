/** Byte classes the reference takes from absl, for the parser and the rule builder. */

/** absl::ascii_isspace: space, tab, LF, VT, FF and CR. */
export function isSpace(b: number): boolean {
  return b === 32 || (b >= 9 && b <= 13)
}
