/**
 * The matchers of one `Robots`, cached by their *selection*: which user-agent
 * names of the file the crawler's tokens equal, all that its rules depend on
 * (rules/rule-set.ts: the group replay reads nothing else). Tokens with the
 * same selection share one matcher, so `agent('bot' + i)` for any number of
 * unknown tokens compiles the `*` matcher once. Bounded: {@link AgentCache}.
 */
import type { AgentMatcher } from '../match/matcher.js'
import type { CompactRules } from '../rules/compact-rules.js'
import type { EngineOptions } from '../match/engine-options.js'
import { arrayBytes, objectBytes } from '../memory.js'

/** Most matchers one Robots keeps. */
export const AGENT_CACHE_ENTRIES = 8

/**
 * A selection key: a number for the usual cases (-1: no name matches, the
 * `*` groups; `i`: exactly name `i`), else a string of the sorted indices
 * joined by commas. Branded: made only by the functions below, so that a
 * name index or a count is never taken for one.
 */
export type SelectionKey = (number | string) & { readonly __brand: 'SelectionKey' }

/** The selection key of a crawler that equals exactly the user-agent name `index` of its file (-1: none, so the `*` groups apply). */
export function nameSelection(index: number): SelectionKey {
  return index as SelectionKey
}

/** The selection key of one token. */
export function tokenSelection(rules: CompactRules, token: string): SelectionKey {
  return nameSelection(rules.nameIndexOf(token))
}

/** The selection key of several tokens. */
export function tokensSelection(rules: CompactRules, tokens: readonly string[]): SelectionKey {
  const hits = rules.nameMatches(tokens)
  let first = -1
  let key = ''
  for (let i = 0; i < hits.length; i++) {
    if (!hits[i]) continue
    if (first < 0) first = i
    else key += (key ? ',' : `${first},`) + i
  }
  return (key || first) as SelectionKey
}

/** Fields of an AgentCache, for its memory cost. */
const CACHE_FIELDS = 6

/**
 * The bounded LRU of one Robots' matchers: at most
 * {@link AGENT_CACHE_ENTRIES} matchers, and at most `maxBytes` of them as
 * measured when they are added (each also stays within its own
 * `matcherBudget`); the least recently used go first. The last token asked
 * for is remembered, so `robots.agent(t)` in a loop costs a string
 * comparison. Agent strings from untrusted input cannot grow it.
 */
export class AgentCache {
  /** The last token asked for and its matcher. */
  lastToken: string | undefined
  lastMatcher: AgentMatcher | undefined
  /** Selection keys and matchers, least recently used first. */
  private readonly keys: SelectionKey[] = []
  private readonly matchers: AgentMatcher[] = []
  private readonly maxBytes: number
  /** The engine options its matchers are compiled with (kept here, so that the Robots owning the cache needs no field for them). */
  readonly options: EngineOptions

  constructor(maxBytes: number, options: EngineOptions) {
    this.maxBytes = maxBytes
    this.options = options
  }

  /** The matcher of `key`, made by `compile` when absent (then older ones may go). */
  get(key: SelectionKey, compile: () => AgentMatcher): AgentMatcher {
    const keys = this.keys
    const i = keys.indexOf(key)
    if (i >= 0) {
      const m = this.matchers[i]
      if (i !== keys.length - 1) {
        keys.splice(i, 1)
        this.matchers.splice(i, 1)
        keys.push(key)
        this.matchers.push(m)
      }
      return m
    }
    const m = compile()
    keys.push(key)
    this.matchers.push(m)
    // The newest matcher always stays: alone, nothing to weigh.
    if (keys.length === 1) return m
    let bytes = 0
    for (const x of this.matchers) bytes += x.memoryUsage()
    while (keys.length > 1 && (keys.length > AGENT_CACHE_ENTRIES || bytes > this.maxBytes)) {
      bytes -= this.matchers[0].memoryUsage()
      const gone = this.matchers[0]
      keys.shift()
      this.matchers.shift()
      if (this.lastMatcher === gone) this.lastToken = this.lastMatcher = undefined
    }
    return m
  }

  /** Matchers held. */
  get size(): number {
    return this.keys.length
  }

  /** Bytes held: this cache, its lists and every matcher in it. */
  memoryUsage(): number {
    let bytes = objectBytes(CACHE_FIELDS) + 2 * arrayBytes(this.keys.length)
    for (const m of this.matchers) bytes += m.memoryUsage()
    return bytes
  }
}
