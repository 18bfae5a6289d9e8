/**
 * `robots-automaton/crawlee`: Crawlee's robots.txt handling (its crawlers'
 * `respectRobotsTxtFile`, `RobotsTxtFile.find`/`load`/`from`) taken over by
 * this library: the access method, a per-origin cache with expiry, the
 * reference's answers. Node only; Crawlee itself is not imported (the module
 * is passed in). docs/crawlee.md is the manual.
 * @module robots-automaton/crawlee
 */
export {
  useWithCrawlee,
  DEFAULT_CRAWLEE_USER_AGENT,
  type CrawleeRobots,
  type CrawleeRobotsOptions,
} from './crawlee/use-with-crawlee.js'
export type {
  CrawleeModule,
  CrawleeRobotsTxtFileClass,
  CrawleeLog,
  CrawleeProxyConfiguration,
  RobotsTxtFileFetchOptions,
} from './crawlee/crawlee-types.js'
export type { RobotsCacheStats } from './index.js'
