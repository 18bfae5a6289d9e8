/**
 * Each crawler's class on one host ({@link classify}): what it may fetch
 * (`everything`, `some`, `nothing`: `robots.access`, defined in
 * docs/audit.md), by which groups (`named`, `global`, `none`), with an
 * example path of each verdict; stand-in outcomes answer as the access
 * method says, and what is not the site's doing is `unknown`.
 */
import type { AccessClass, AccessGroup } from '../../index.js'
import type { HostRecord } from './snapshot.js'

/** A crawler's class on a host: `unknown` when the host's rules are not known (unreadable, not fetched, absent). */
export type AuditClass = AccessClass | 'unknown'

/** One crawler on one host. */
export interface CrawlerClass {
  readonly access: AuditClass
  /** Which groups decide (null when the class is unknown). */
  readonly group: AccessGroup | null
  readonly allowedPath: string | null
  readonly disallowedPath: string | null
}

const UNKNOWN: CrawlerClass = Object.freeze({ access: 'unknown', group: null, allowedPath: null, disallowedPath: null })
const EVERYTHING: CrawlerClass = Object.freeze({ access: 'everything', group: 'none', allowedPath: '/', disallowedPath: null })
const NOTHING: CrawlerClass = Object.freeze({ access: 'nothing', group: 'none', allowedPath: null, disallowedPath: '/' })

/**
 * The class of every crawler (each its tokens) on the host of `record`: a
 * robots.txt's rules decide; `no-file` and `unavailable` allow everything
 * and `unreachable` nothing (RFC 9309 §2.3.1.3–4), by no group.
 */
export function classify(record: HostRecord, crawlers: readonly (readonly string[])[]): CrawlerClass[] {
  switch (record.outcome) {
    case 'ok':
      return record.robots!.crawlers(crawlers).access()
    case 'no-file':
    case 'unavailable':
      return crawlers.map(() => EVERYTHING)
    case 'unreachable':
      return crawlers.map(() => NOTHING)
    default:
      return crawlers.map(() => UNKNOWN)
  }
}
