/**
 * The matching tiers, named once: the {@link Tier} a matcher judges with,
 * the name `stats().tier` reports for each, and the names
 * `EngineOptions.tier` pins a matcher to. The policy that moves a matcher
 * between them is tiers.ts; README.md in this folder has the design.
 */

/** The tiers (a `const enum`: numbers in the bundle); {@link TIER_NAMES} holds their names. */
export const enum Tier {
  /** The direct engine (direct/direct-engine.ts): rules in rank order. */
  Cold = 0,
  /** The lazy DFA (automaton/). */
  Hot = 1,
  /** The literal index and candidate checks (direct/thrash-proof-engine.ts); also a star-heavy set's first tier. */
  ThrashProof = 2,
  /** `engine: 'plain'`: no tiers. */
  Plain = 3,
}

/** The name of each {@link Tier}, by its number, as `stats().tier` reports it. */
export const TIER_NAMES = ['cold', 'hot', 'thrash-proof', 'plain'] as const

/** A tier's name. */
export type TierName = (typeof TIER_NAMES)[number]

/** The names of the tiers a matcher can be pinned to (`EngineOptions.tier`): every tier of the automaton engine. */
export type PinnedTierName = Exclude<TierName, 'plain'>

/** The names `EngineOptions.tier` accepts, in {@link Tier} order. */
export const PINNED_TIER_NAMES: readonly PinnedTierName[] = TIER_NAMES.filter((t): t is PinnedTierName => t !== 'plain')

/** The tier a matcher is pinned to by `EngineOptions.tier` (undefined: none, the policy decides; anything else: -1). */
export function pinnedTier(name: unknown): Tier | -1 | undefined {
  if (name === undefined) return undefined
  const t = (PINNED_TIER_NAMES as readonly unknown[]).indexOf(name)
  return t < 0 ? -1 : (t as Tier)
}
