/**
 * The encodings of the lazy DFA (see README.md in this folder), named here
 * and nowhere else: state ids ({@link StateId}, their constants in
 * {@link StateCode}), the transition table and its end column, and the
 * per-row build data ({@link RowInfo}). The hot loops use the `const enum`
 * constants; the small functions below are for build-time code.
 */

/**
 * A state id of the lazy DFA: a row offset (a live state) or a terminal
 * state, as {@link StateCode} lays them out. A number at run time; the brand
 * keeps it apart from rule indices, byte classes and row numbers in the
 * types (a table load is cast once: `table[s + c] as StateId`).
 */
export type StateId = number & { readonly __brand: 'StateId' }

/**
 * The fixed state ids and the constants of the encoding of a
 * {@link StateId} (a `const enum`: numbers in the bundle). A state id is one
 * Int32:
 *
 * ```
 * s >= FirstRow     a live state: the offset of its row in `table` (row k is at k * W)
 * s <  FirstRow     a terminal state: the scan stops. Terminal of rule r is
 *                   RuleMirror - r (= ~(r + 1)); NoRule (-1) is "no rule matched"
 * s == Unknown      (in the table only) a transition not built yet; below every terminal
 * ```
 *
 * The mapping between a rule index and its terminal state is its own
 * inverse: `terminal = RuleMirror - rule` and `rule = RuleMirror - terminal`
 * (rule -1, "no rule", is terminal NoRule).
 *
 * **Transition table** (`Int32Array`, W = byte classes + 1 ints a row):
 *
 * ```
 * table[k*W + c]        next state of row k on byte class c (a state id or Unknown)
 * table[k*W + W - 1]    the terminal state when the path ends in row k: the end column
 * ```
 *
 * The hot loop is `t = table[s + class]`, then one sign test against
 * `FirstRow`: a live state is a row offset, so no multiplication sits on the
 * dependency chain, and terminal states and Unknown share the one rare
 * branch.
 *
 * **Why constants, not predicate functions.** The hot loops write these as
 * operators on the `StateCode` constants (`t < StateCode.FirstRow`,
 * `StateCode.RuleMirror - t`), which the bundler turns into numbers. A call
 * to even a one-line module-level function, inlined, still costs a reload of
 * the function and a check on every call, which shows on the hot loop of
 * `isAllowed` (bench/history/design.md). The functions
 * below ({@link hasRow}, {@link terminalOf}, …) are for build-time code,
 * where that does not matter.
 */
export const enum StateCode {
  /** Table value of a transition not built yet (below every terminal state). */
  Unknown = -0x7fffffff,
  /** Live states are row offsets `>= FirstRow`; terminal states (and Unknown) are below. */
  FirstRow = 0,
  /** The terminal state "no rule matched" (rule index -1). */
  NoRule = -1,
  /** Rule index ⇄ terminal state: each is `RuleMirror` minus the other. */
  RuleMirror = -2,
}

/** True when `s` is a live state (a row offset); false for a terminal state or Unknown. */
export function hasRow(s: StateId): boolean {
  return s >= StateCode.FirstRow
}

/** The terminal state deciding for rule `rule` (-1: no rule matched). */
export function terminalOf(rule: number): StateId {
  return (StateCode.RuleMirror - rule) as StateId
}

/** The rule index a terminal state decides for (-1: no rule matched); its own inverse with {@link terminalOf}. */
export function ruleOf(terminal: StateId): number {
  return StateCode.RuleMirror - terminal
}

/** The state id (row offset) of row `k` in a table of row width `width`. */
export function rowState(k: number, width: number): StateId {
  return (k * width) as StateId
}

/** The row number of live state `s`. */
export function rowOf(s: StateId, width: number): number {
  return s / width
}

/** Offset, from a row's start, of the column holding the row's end verdict. */
export function endColumn(width: number): number {
  return width - 1
}

/**
 * Layout of one row's build data in `rowInfo` (an `Int32Array`, build time
 * only; row k starts at `k * RowInfo.Width`): the best rule matched so far,
 * where the row's live positions sit in the position pool, and its hash.
 */
export const enum RowInfo {
  /** The best rule matched so far (-1: none). */
  Best = 0,
  /** Where the row's live positions start in the position pool. */
  PoolStart = 1,
  /** How many live positions the row has. */
  PoolLength = 2,
  /** The hash of the row's state (best and positions), by which the cache finds it. */
  Hash = 3,
  /** Ints per row. */
  Width = 4,
}
