/**
 * How much of a site a crawler's rules let it fetch ({@link pathAccess}):
 * every path, some paths, or none, decided exactly from the rule set by
 * judging a few witness paths with the crawler's own matcher (its answers
 * are the reference's), with an example path of each verdict.
 *
 * Why a few witnesses decide it. A path is allowed when the first rule in
 * rank order that matches it is an allow, or none does. Take a byte `z`
 * that no pattern holds as a literal (`*` never is one: it is always the
 * wildcard). Every pattern that can match a path (it starts with `/` or
 * `*`) is, within the paths (which start with `/`), the union of at most
 * two *anchored* forms, `Q = s0*s1*…*sk` with `s0` starting with `/`:
 * `*X` is `/*X`, and also `X` when `X` starts with `/`. The witness of `Q`
 * is `s0 z s1 z … z sk`, plus a `z` when `Q` has no final `$`.
 *
 * Lemma: if an anchored form `D` matches the witness of `Q`, it matches
 * every path `Q` matches. `D`'s head is a prefix of the witness without
 * `z`, so of `s0`; each later piece of `D` lies inside one `s_i` (no piece
 * holds `z`), in order; in any path of `Q` the same `s_i` come in the same
 * order with the same offsets, so the same placement works, `D`'s `*`
 * taking up what lies between; a final `$` of `D` ends a piece at the
 * witness's end, which then is `sk` of an anchored `Q`, and every path of
 * `Q` ends with it too.
 *
 * Theorem: some path is allowed exactly when `/z` or some witness is. If
 * path `x` is decided by allow rule `a` (through its form `Q`), no
 * disallow rule ranked before `a` matches `x`; one that matched `Q`'s
 * witness would match all of `Q`'s paths (the lemma), `x` among them; so
 * every rule before `a` that matches the witness is an allow, and the
 * witness is allowed. If no rule matches `x`, no rule matches `/z` either:
 * a pattern that matches `/z` matches every path (its pieces can only be
 * one leading `/`). The same holds for "disallowed" with the kinds swapped.
 * So `2 × rules + 1` paths, each judged in time linear in its length,
 * decide the class; test/match/access.test.ts checks it against every path
 * over a small alphabet, on hand-written and random rule sets.
 */
import { RuleField, RuleFlag, SecondByte, type RuleSet } from '../rules/rule-set.js'
import { SCRATCH_KEEP } from '../memory.js'
import { codeFrom, type AgentMatcher } from './matcher.js'
import type { PathStart } from '../url/url-path.js'

/** The path start of a witness: its first byte, a '/'. */
const AT_ZERO = 0 as PathStart

/** What a crawler may fetch of a site: every path, some paths, or none. */
export type AccessClass = 'everything' | 'some' | 'nothing'

/** {@link pathAccess}'s answer. */
export interface PathAccess {
  /** `everything`: no path is disallowed; `nothing`: no path is allowed; `some`: both kinds exist. */
  readonly access: AccessClass
  /** A path the crawler may fetch (the shortest witness found first), or null for `nothing`. */
  readonly allowedPath: string | null
  /** A path it may not fetch, or null for `everything`. */
  readonly disallowedPath: string | null
}

const SLASH = 47
const STAR = 42

/**
 * The bytes tried as `z`, most readable first: characters that rarely
 * appear in patterns, then letters and digits, then bytes no parsed pattern
 * holds (they are escaped), then `*`, which is never a literal of a
 * pattern, so that one always serves.
 */
const Z_ORDER: number[] = (() => {
  const order: number[] = []
  for (const c of '~!^|`\'"<>{}[]\\@,+()&=:zqxjkvwybgfpmuhdclsnroiteaZQXJKVWYBGFPMUHDCLSNROITEA0123456789-_.') order.push(c.charCodeAt(0))
  for (let b = 0x80; b <= 0xff; b++) order.push(b)
  order.push(STAR)
  return order
})()

/** Reused for the witnesses (a longer one gets a buffer of its own for the call: src/memory.ts). */
let scratch = new Uint8Array(256)
const literals = new Uint8Array(256)

/** Latin-1 text of `bytes[0, n)` (one char per byte), for the example paths. */
function text(bytes: Uint8Array, n: number): string {
  let s = ''
  for (let i = 0; i < n; i++) s += String.fromCharCode(bytes[i])
  return s
}

/**
 * Which of every path, some paths or none `m`'s crawler may fetch, with an
 * example path of each verdict found (see the module comment for why the
 * witnesses decide it). Judges at most `2 × rules + 1` paths with `m` (they
 * count towards its tier threshold like any URL); each is at most twice its
 * pattern's length.
 */
export function pathAccess(m: AgentMatcher): PathAccess {
  const set: RuleSet = m.rules
  const rec = set.records
  const bytes = set.bytes
  // z: a byte no pattern of the set holds as a literal.
  literals.fill(0)
  let longest = 0
  for (let at = 0; at < rec.length; at += RuleField.Width) {
    const s = rec[at + RuleField.Start]
    const e = rec[at + RuleField.End]
    if (e - s > longest) longest = e - s
    for (let i = s; i < e; i++) literals[bytes[i]] = 1
  }
  let z = STAR
  for (const b of Z_ORDER) {
    if (b === STAR || literals[b] === 0) {
      z = b
      break
    }
  }
  // A witness is at most: a '/', the pattern with each '*' as z, and a final z.
  const need = 2 * longest + 4
  let buf = scratch
  if (buf.length < need) {
    buf = new Uint8Array(need)
    if (need <= SCRATCH_KEEP) scratch = buf
  }
  let allowed: string | null = null
  let disallowed: string | null = null
  const judge = (n: number): boolean => {
    const code = codeFrom(m, buf, AT_ZERO, n)
    if (code & 1) allowed ??= text(buf, n)
    else disallowed ??= text(buf, n)
    return allowed !== null && disallowed !== null
  }
  buf[0] = SLASH
  buf[1] = z
  if (!judge(2)) {
    for (let at = 0; at < rec.length; at += RuleField.Width) {
      const flags = rec[at + RuleField.Flags]
      if (flags >>> SecondByte.Shift === SecondByte.Never) continue
      const s = rec[at + RuleField.Start]
      const e = rec[at + RuleField.End]
      const anchored = (flags & RuleFlag.Anchored) !== 0
      if (bytes[s] === SLASH) {
        if (judge(witness(buf, 0, bytes, s, e, anchored, z))) break
        continue
      }
      // A leading '*': the form '/*X', and X itself when it starts with '/'.
      let x = s
      while (x < e && bytes[x] === STAR) x++
      buf[0] = SLASH
      buf[1] = z
      if (judge(witness(buf, 2, bytes, x, e, anchored, z))) break
      if (x < e && bytes[x] === SLASH && judge(witness(buf, 0, bytes, x, e, anchored, z))) break
    }
  }
  const access: AccessClass = disallowed === null ? 'everything' : allowed === null ? 'nothing' : 'some'
  return { access, allowedPath: allowed, disallowedPath: disallowed }
}

/**
 * Writes at `buf[at…]` the witness of the pattern `bytes[s, e)` (a run of
 * `*` as one `z`, then a `z` unless `anchored`); returns its end.
 */
function witness(buf: Uint8Array, at: number, bytes: Uint8Array, s: number, e: number, anchored: boolean, z: number): number {
  let n = at
  for (let i = s; i < e; i++) {
    const b = bytes[i]
    if (b !== STAR) buf[n++] = b
    else if (i === s || bytes[i - 1] !== STAR) buf[n++] = z
  }
  if (!anchored) buf[n++] = z
  return n
}
