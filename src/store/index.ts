/** The store: parsed robots.txt of millions of origins (see robots-store.ts) and its bundle format (bundle.ts). */
export {
  RobotsStore,
  DEFAULT_STORE_MATCHER_BUDGET,
  type RobotsStoreOptions,
  type RobotsStoreStats,
  type StoreExplanation,
  type StoreOutcome,
  type StoreSource,
} from './robots-store.js'
export { BUNDLE_VERSION } from './bundle-codec.js'
