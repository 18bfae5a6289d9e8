/**
 * The tier policy: which engine judges a matcher's URLs, and when that
 * changes, one way: cold (direct/direct-engine.ts) or, for star-heavy sets
 * the cold tier does not take, the indexed start
 * (direct/thrash-proof-engine.ts) → hot (automaton/, the
 * lazy DFA) → thrash-proof (when the DFA's cache thrashes). README.md in this
 * folder has the design; each constant below says why it is what it is.
 * `EngineOptions.tier` pins a matcher to one tier (tests and benchmarks).
 */
import type { EngineOptions } from './engine-options.js'
import type { MatchEngine } from './engine.js'
import { RuleField, RuleFlag, SecondByte, type RuleSet } from '../rules/rule-set.js'
import { AutomatonEngine } from './automaton/automaton-engine.js'
import { DEFAULT_MATCHER_BUDGET } from './automaton/lazy-dfa.js'
import { DirectEngine, HEAD_MIN_RULES, INDEX_AFTER_URLS, indexesPrefixes } from './direct/direct-engine.js'
import { isPlainPrefix } from './direct/literal-prefixes.js'
import { HEAD_INDEX_MAX_BYTES } from './direct/head-index.js'
import { SIGNATURE_WORDS } from './direct/segments.js'
import { TYPED_ARRAY_BYTES } from '../memory.js'
import { ThrashProofEngine } from './direct/thrash-proof-engine.js'
import { createPlainEngine } from './plain-engine.js'
import { pinnedTier, Tier } from './tier.js'

/**
 * URLs a matcher judges in the cold tier before its lazy DFA is built
 * (`EngineOptions.hotThreshold`), for a set the cold tier judges about as
 * fast as the DFA: the threshold that keeps the corpus's total closest to
 * the best one, whether each host judges its URLs once or many times
 * (bench/tier-threshold.mjs; bench/history/design.md). A set whose cold checks
 * cost more gets a lower one: {@link coldThreshold}.
 */
export const DEFAULT_HOT_THRESHOLD = 512

/**
 * The cold work per URL ({@link coldWork}: a literal rule 1, a rule that
 * searches along the path COLD_STAR_WEIGHT) at which a set's threshold is
 * DEFAULT_HOT_THRESHOLD; a set of `w` units gets `HOT_WORK_URLS / w` URLs,
 * at least MIN_HOT_THRESHOLD: "rent until the rent paid equals the
 * price", with the rent growing with the work and the price (the DFA's
 * first states) about the same for the corpus's sets (bench/history/design.md).
 */
export const HOT_WORK_URLS = 16384
/** See {@link HOT_WORK_URLS}. */
export const MIN_HOT_THRESHOLD = 32

/**
 * The cold tier takes a rule set whose cost per URL is bounded: at most
 * COLD_MAX_COST rules, and for the worst path the rules it tries cost at
 * most COLD_MAX_COST, counting a literal rule 1 and a `*` rule
 * COLD_STAR_WEIGHT (a search along the path costs that many literal
 * rules' quick tests). A path tries only the rules of its second byte and
 * those that need none (rules/rule-set.ts, SecondByte), so the bound is the
 * costliest second byte's rules plus the SecondByte.Any rules. That keeps
 * the threshold's cold URLs within about the DFA's one-time cost on such
 * sets (bench/history/design.md); other sets start hot or
 * indexed.
 */
export const COLD_MAX_COST = 4096
/** See {@link COLD_MAX_COST}. */
export const COLD_STAR_WEIGHT = 16

/**
 * The cap on a cold matcher's memory (`memoryUsage()`), in bytes, before
 * its head index's trie and its segment signatures (below): it holds at
 * most COLD_MAX_COST rules (16 bytes each in the RuleSet's record table),
 * their index's lists (the second-byte index: 2 bytes a rule plus 258
 * entries, in a Uint16Array; or the head index's lists, 2 bytes a rule),
 * and a few objects, and it builds nothing as it judges URLs but its
 * indexes, once (direct/direct-engine.ts; its scratch buffers are shared
 * and bounded: memory.ts). 80 KiB; a rule set that would need more starts
 * hot (or indexed), where `matcherBudget` bounds the states.
 */
export const COLD_MAX_BYTES = 80 * 1024

/**
 * What a cold matcher holds beyond {@link COLD_MAX_BYTES}, at most: its head
 * index's trie (direct/head-index.ts: a node per filed head byte, at most
 * HEAD_INDEX_MAX_HEAD_BYTES, else the set keeps the second-byte index), and,
 * for a set with two `*` rules or more, the segment signatures
 * (direct/segments.ts): {@link COLD_SIGNATURE_RULE_BYTES} a rule and
 * {@link COLD_SIGNATURE_STAR_BYTES} a `*` rule more.
 */
export const COLD_INDEX_MAX_BYTES = HEAD_INDEX_MAX_BYTES + TYPED_ARRAY_BYTES
/** See {@link COLD_INDEX_MAX_BYTES}: a rule's entry in the signatures' table. */
export const COLD_SIGNATURE_RULE_BYTES = 4
/** See {@link COLD_INDEX_MAX_BYTES}: a `*` rule's signature (SIGNATURE_WORDS Int32 words). */
export const COLD_SIGNATURE_STAR_BYTES = 4 * SIGNATURE_WORDS

/**
 * What a cold matcher holds beyond {@link COLD_MAX_BYTES} and
 * {@link COLD_INDEX_MAX_BYTES} per plain prefix rule of a large set
 * (direct/literal-prefixes.ts), at most: its record (16 bytes, held by
 * every tier), its share of the literal prefix index (fewer than four
 * table slots, 16 bytes, and at most one pattern length, 4), and its entry
 * in the signatures' table (4). The set's other rules are bounded as above.
 */
export const COLD_PREFIX_RULE_BYTES = 40

/**
 * `*` rules from which a rule set is star-heavy ({@link starHeavy}): its
 * DFA's states of many positions cost much more to build, so it goes hot
 * only after {@link DEFAULT_INDEXED_HOT_THRESHOLD} URLs, not
 * {@link coldThreshold}'s (whose price is a typical set's DFA). Until then the cold
 * tier judges it, its head index and segment signatures built at once, when
 * it takes the set (they cost less to build than the literal index and
 * judge a URL about as fast); else the thrash-proof engine's literal index
 * does (the indexed start). Figures: bench/history/design.md.
 */
export const INDEXED_START_STARS = 16

/**
 * URLs a star-heavy set judges before its lazy DFA is built, unless
 * `EngineOptions.hotThreshold` is given (then that many, as for a cold
 * matcher). Higher than {@link DEFAULT_HOT_THRESHOLD}: on a star-heavy set
 * the cold tier or the literal index judges a URL a few times slower than the DFA, while the
 * DFA's states cost much more to build on such sets, so the DFA pays back
 * only after thousands of URLs ("rent until the rent paid equals the
 * price", as for the cold tier's threshold: README.md in this folder;
 * figures in bench/history/design.md).
 */
export const DEFAULT_INDEXED_HOT_THRESHOLD = 2048

/** What the policy reads and sets on a matcher. */
export interface TierState {
  readonly rules: RuleSet
  readonly options: EngineOptions
  engine: MatchEngine
  tier: Tier
}

/** Per second byte of the path (0–255, then SecondByte.Any; SecondByte.Never unused), the cost of the rules it tries (see {@link COLD_MAX_COST}); reused, all zero between calls. */
const groupCost = new Int32Array(SecondByte.Never + 1)

/**
 * True when a rule set is cheap to try directly (see {@link COLD_MAX_COST}).
 * A large set's plain prefix rules are found by their hash, not tried
 * (direct/literal-prefixes.ts): they count for nothing here.
 */
export function coldFits(set: RuleSet): boolean {
  const rec = set.records
  const skipPlain = indexesPrefixes(set)
  let tried = 0
  let worst = 0
  for (let at = RuleField.Flags; at < rec.length; at += RuleField.Width) {
    const flags = rec[at]
    const group = flags >>> SecondByte.Shift
    if (group === SecondByte.Never || (skipPlain && isPlainPrefix(flags))) continue
    const cost = (groupCost[group] += flags & RuleFlag.Star ? COLD_STAR_WEIGHT : 1)
    if (group !== SecondByte.Any && cost > worst) worst = cost
    tried++
  }
  const fits = tried <= COLD_MAX_COST && worst + groupCost[SecondByte.Any] <= COLD_MAX_COST
  clearGroups(rec)
  return fits
}

/** Zeroes the entries of {@link groupCost} that a set's rules touched (cheaper than the whole table for most sets). */
function clearGroups(rec: Int32Array): void {
  for (let at = RuleField.Flags; at < rec.length; at += RuleField.Width) groupCost[rec[at] >>> SecondByte.Shift] = 0
}

/**
 * The cold tier's work for a typical path of a set, in units of a literal
 * rule's quick test: the rules that need no particular second byte, plus
 * the mean of the second-byte groups (a path tries one), a rule that
 * searches along the path (a `*` with a segment after it) counting
 * COLD_STAR_WEIGHT; a rule whose only `*`s end it is a prefix test. As in
 * {@link coldFits}, a large set's plain prefix rules cost nothing (found by
 * their hash), though their second bytes still count among the groups.
 */
export function coldWork(set: RuleSet): number {
  const rec = set.records
  const bytes = set.bytes
  const skipPlain = indexesPrefixes(set)
  let any = 0
  let grouped = 0
  let groups = 0
  for (let at = 0; at < rec.length; at += RuleField.Width) {
    const flags = rec[at + RuleField.Flags]
    const group = flags >>> SecondByte.Shift
    if (group === SecondByte.Never) continue
    let cost = skipPlain && isPlainPrefix(flags) ? 0 : 1
    if (flags & RuleFlag.Star) {
      // A star followed by a literal byte: a search.
      for (let k = rec[at + RuleField.Start], e = rec[at + RuleField.End] - 1; k < e; k++) {
        if (bytes[k] === STAR_BYTE && bytes[k + 1] !== STAR_BYTE) {
          cost = COLD_STAR_WEIGHT
          break
        }
      }
    }
    if (group === SecondByte.Any) any += cost
    else {
      // groupCost (coldFits' table) only marks the groups seen here: a group of rules that cost nothing still counts.
      if (groupCost[group] === 0) groups++
      groupCost[group] = 1
      grouped += cost
    }
  }
  clearGroups(rec)
  return any + (groups === 0 ? 0 : grouped / groups)
}

/**
 * The threshold of a set that starts cold (see {@link HOT_WORK_URLS}): at
 * most DEFAULT_HOT_THRESHOLD, or for a set of fewer than HEAD_MIN_RULES
 * rules (direct/direct-engine.ts: no head index) at most
 * DEFAULT_INDEXED_HOT_THRESHOLD, as for a star-heavy set: the cold tier
 * tries so few rules about as fast as the DFA steps through a string URL,
 * so the rent per URL is small and the DFA pays back its build only after
 * thousands of URLs (figures: bench/history/cold-path.md).
 */
export function coldThreshold(set: RuleSet): number {
  // No cold work (HOT_WORK_URLS / 0 is Infinity): the most.
  return Math.max(MIN_HOT_THRESHOLD, Math.min(set.count < HEAD_MIN_RULES ? DEFAULT_INDEXED_HOT_THRESHOLD : DEFAULT_HOT_THRESHOLD, Math.round(HOT_WORK_URLS / coldWork(set))))
}

const STAR_BYTE = 42

/** True for a star-heavy rule set: it has at least {@link INDEXED_START_STARS} `*` rules. */
export function starHeavy(set: RuleSet): boolean {
  const rec = set.records
  let stars = 0
  for (let at = RuleField.Flags; at < rec.length; at += RuleField.Width) if (rec[at] & RuleFlag.Star) stars++
  return stars >= INDEXED_START_STARS
}

/**
 * Sets up a new matcher's first tier: cold when its rules are cheap to try
 * directly ({@link coldFits}), counting down to hot by {@link coldThreshold}
 * or, for a star-heavy set ({@link starHeavy}), from
 * {@link DEFAULT_INDEXED_HOT_THRESHOLD} with its index built at once; the
 * indexed start (the thrash-proof engine, counting down to hot) for a
 * star-heavy set the cold tier does not take; hot at once otherwise. A
 * matcher without rules stays cold (nothing to compile). The countdown is the first engine's
 * (MatchEngine.countDown): it counts URLs judged by `isAllowed`, `explain`,
 * `matchRange` and the lines of `matchLines`, so a switch can fall between
 * two lines of one buffer, and a hot matcher counts nothing.
 */
export function firstTier(m: TierState): void {
  const o = m.options
  const pinned = pinnedTier(o.tier)
  if (o.engine === 'plain') {
    m.engine = createPlainEngine(m.rules)
    m.tier = Tier.Plain
  } else if (pinned === Tier.Hot) {
    m.engine = new AutomatonEngine(m.rules, o.matcherBudget ?? DEFAULT_MATCHER_BUDGET)
    m.tier = Tier.Hot
  } else if (pinned === Tier.ThrashProof) {
    m.engine = new ThrashProofEngine(m.rules)
    m.tier = Tier.ThrashProof
  } else {
    const threshold = o.hotThreshold ?? DEFAULT_HOT_THRESHOLD
    const cold = pinned === Tier.Cold
    // No rules: nothing to compile, ever.
    const fits = threshold > 0 && m.rules.count > 0 && coldFits(m.rules)
    const heavy = threshold > 0 && m.rules.count > 0 && !cold && starHeavy(m.rules)
    if (cold || m.rules.count === 0 || fits) {
      const engine = new DirectEngine(m.rules, cold || heavy ? 0 : INDEX_AFTER_URLS)
      m.engine = engine
      m.tier = Tier.Cold
      if (!cold && m.rules.count > 0 && threshold !== Infinity) engine.countDown(o.hotThreshold ?? (heavy ? DEFAULT_INDEXED_HOT_THRESHOLD : coldThreshold(m.rules)), () => goHot(m))
    } else if (heavy) {
      const engine = new ThrashProofEngine(m.rules)
      m.engine = engine
      m.tier = Tier.ThrashProof
      const urls = o.hotThreshold ?? DEFAULT_INDEXED_HOT_THRESHOLD
      if (urls !== Infinity) engine.countDown(urls, () => goHot(m))
    } else {
      goHot(m)
    }
  }
}

/**
 * The hot tier, watched for thrashing: when the DFA's cache thrashes, the
 * matcher moves on to the thrash-proof tier for good (after the URL in hand,
 * or the line, in `matchLines`: the engine that judges it runs on).
 */
function goHot(m: TierState): void {
  m.engine = new AutomatonEngine(m.rules, m.options.matcherBudget ?? DEFAULT_MATCHER_BUDGET, () => {
    m.engine = new ThrashProofEngine(m.rules)
    m.tier = Tier.ThrashProof
  })
  m.tier = Tier.Hot
}
