/**
 * The store's small types, in a module of their own so that the store's
 * helpers (store-crawlers.ts) name them without importing the store.
 */
import type { Explanation } from '../match/matcher.js'

declare const entryIdBrand: unique symbol

/**
 * An entry's id (`lookup`, `lookupScan`, `lookupHost`, `ids`): a small
 * integer, stable while the entry lives (a store loaded by
 * `RobotsStore.fromBytes` numbers its entries 0 … size − 1). A look-up
 * that finds no entry returns -1. Ids of another store, or of an entry
 * deleted since, are not this store's entries (ERR_RANGE where checked),
 * until a later `set` reuses the id for another entry: after a `delete`,
 * look ids up again.
 */
export type EntryId = number & { readonly [entryIdBrand]: true }

/** What an entry holds besides a robots.txt. */
export type StoreOutcome = 'unavailable' | 'unreachable'

/** Where a store's answer comes from: a robots.txt, an outcome, or nothing set for the URL's origin or host. */
export type StoreSource = 'robots' | StoreOutcome | 'none'

/** `RobotsStore.explain`: the matcher's explanation, plus which entry answered and why. */
export interface StoreExplanation extends Explanation {
  /**
   * `robots`: the entry's robots.txt decided (`rule` as for a matcher);
   * `unavailable`: allow all; `unreachable`: disallow all; `none`: no entry
   * for the URL's origin or host, allow all. For the last three `rule` is null.
   */
  source: StoreSource
  /** The key of the entry that answered (`https://example.com`, or a bare host), or null. */
  key: string | null
}
