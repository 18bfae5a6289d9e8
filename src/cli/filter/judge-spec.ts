/**
 * What a judging thread needs to judge lines as `filter` was asked to: the
 * rules (one robots.txt, or per-host rules), the crawler, the output form and
 * the log columns. Structured-clone-able, so the main thread hands it to
 * worker threads (parallel.ts); `createJudge` builds the judge from it in
 * any thread.
 */
import { warmUpHostPath } from '../hosts/warm-up.js'
import { Robots } from '../../index.js'
import type { CacheBytes } from '../common/heap-room.js'
import type { OutputFormat, PrintMode } from './emitter.js'
import type { LineLayout } from './line-layout.js'
import { HostJudge } from './host-judge.js'
import type { EntryEvent } from '../hosts/host-rules.js'
import type { HostRulesDescriptor } from '../hosts/host-rules.js'
import { MatcherJudge, type FetchStandIn, type LoopOptions } from './judge-lines.js'
import type { LineJudge } from './line-judge.js'
import { openHostRules } from '../hosts/open-host-rules.js'
import type { CrawlerSpec, Require } from '../common/crawlers-option.js'
import { CrawlerCodes, needAllOf } from './crawler-codes.js'
import { SetJudge } from './set-judge.js'

/** The rules every line is judged by. */
export type RulesSpec =
  /** One robots.txt (`--robots`): its parsed rules as `Robots.toBytes()` wrote them, and its name. */
  | {
      readonly kind: 'robots'
      readonly bytes: Uint8Array
      readonly name: string
      /** A fetched URL whose rules are a stand-in (RFC 9309 §2.3.1.3–4), not lines of a file. */
      readonly outcome?: FetchStandIn
    }
  /** Per-host rules (`--robots-dir`, `--bundle`). */
  | {
      readonly kind: 'hosts'
      readonly rules: HostRulesDescriptor
      readonly missingAllowed: boolean
      /** Bytes of compiled matchers this thread may keep (fitted to its heap: common/heap-room.ts). */
      readonly cacheBytes: CacheBytes
      /** Whether the thread first warms up the per-host path (hosts/warm-up.ts): not for a short input. */
      readonly warmUp: boolean
    }

/** Everything a judging thread needs (see the module comment). */
export interface JudgeSpec {
  readonly rules: RulesSpec
  /** The crawler's product tokens (`--agent`, repeatable): the reference's multi-agent semantics; empty with `--crawlers`. */
  readonly agent: readonly string[]
  /** `--crawlers`: several crawlers, each judged as it would be alone, and how their verdicts combine (`--require`). */
  readonly crawlers?: readonly CrawlerSpec[]
  readonly require?: Require
  readonly mode: PrintMode
  readonly format: OutputFormat
  /** Where each line's URL and host are. */
  readonly layout: LineLayout
  /** Whole lines or columns, and `--invalid`. */
  readonly loop: LoopOptions
  /** The process's hash key (`hashKeyWords()`): a worker hashes hosts as the main thread's shared index does. */
  readonly hashKey: Int32Array
}

/** A judge for `spec`; per-host judges report each entry's first load to `onEntry`. */
export function createJudge(spec: JudgeSpec, onEntry: (e: EntryEvent) => void, trackNewHosts: boolean): LineJudge {
  const r = spec.rules
  const crawlers = spec.crawlers?.map((c) => c.tokens)
  const codes = spec.crawlers === undefined ? undefined : new CrawlerCodes(spec.crawlers.length, needAllOf(spec.mode, spec.require ?? 'all'))
  if (r.kind === 'robots') {
    const robots = Robots.fromBytes(r.bytes)
    if (crawlers !== undefined) return new SetJudge(robots.crawlers(crawlers), codes!, r.name, r.outcome)
    return new MatcherJudge(robots.agents(spec.agent), r.name, r.outcome)
  }
  const who = crawlers === undefined ? { agent: spec.agent } : { crawlers }
  if (r.warmUp) warmUpHostPath(who)
  return new HostJudge(openHostRules(r.rules), {
    who,
    crawlerCodes: codes,
    missingAllowed: r.missingAllowed,
    cacheBytes: r.cacheBytes,
    onEntry,
    trackNewHosts,
  })
}
