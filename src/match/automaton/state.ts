/**
 * The encodings of the lazy DFA (see README.md in this folder): state ids,
 * the transition table and the per-row build data. Every use site goes
 * through the names below; the functions are one expression each, which V8
 * inlines into the hot loops.
 *
 * **State ids** (one Int32):
 *
 * ```
 * s >= 0            a live state: the offset of its row in `table` (row k is at k * W)
 * s <  0            a terminal state ~t, the scan stops: terminal id t = 0 is
 *                   "no rule matched", t = 1 + r is "rule r decided"
 * s == UNKNOWN      (in the table only) a transition not built yet; below every terminal
 * ```
 *
 * **Transition table** (`Int32Array`, W = byte classes + 1 ints a row):
 *
 * ```
 * table[k*W + c]        next state of row k on byte class c (a state id or UNKNOWN)
 * table[k*W + W - 1]    the terminal state when the path ends in row k (END_COLUMN)
 * ```
 *
 * The hot loop is `t = table[s + class]`, then one sign test (`hasRow(t)`):
 * a live state is a row offset, so no multiplication sits on the dependency
 * chain, and terminal states and UNKNOWN share the one rare branch.
 *
 * **Row info** (`Int32Array`, {@link RowInfo.Width} ints a row, build time only):
 * the best rule matched so far, and where the row's live positions sit in the
 * position pool.
 */

/** Table value of a transition not built yet (below every terminal state). */
export const UNKNOWN = -0x7fffffff

/** The terminal state "no rule matched" (terminal id 0). */
export const NO_RULE_TERMINAL = -1

/** True when `s` is a live state (a row offset); false for a terminal state or UNKNOWN. */
export function hasRow(s: number): boolean {
  return s >= 0
}

/** True when a table entry is a transition not built yet. */
export function isUnknown(s: number): boolean {
  return s === UNKNOWN
}

/** True when `s` is a terminal state (decided). */
export function isTerminal(s: number): boolean {
  return s < 0 && s !== UNKNOWN
}

/** The terminal state deciding for rule `rule` (-1: no rule matched). */
export function terminalOf(rule: number): number {
  return ~(rule + 1)
}

/** The rule index a terminal state decides for (-1: no rule matched). */
export function ruleOf(terminal: number): number {
  return ~terminal - 1
}

/** The state id (row offset) of row `k` in a table of row width `width`. */
export function rowState(k: number, width: number): number {
  return k * width
}

/** The row number of live state `s`. */
export function rowOf(s: number, width: number): number {
  return s / width
}

/** Offset, from a row's start, of the column holding the row's end verdict. */
export function endColumn(width: number): number {
  return width - 1
}

/** Layout of one row's build data in `rowInfo` (row k starts at `k * RowInfo.Width`). */
export const enum RowInfo {
  /** The best rule matched so far (-1: none). */
  Best = 0,
  /** Where the row's live positions start in the position pool. */
  PoolStart = 1,
  /** How many live positions the row has. */
  PoolLength = 2,
  /** Ints per row. */
  Width = 3,
}
