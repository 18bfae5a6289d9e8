/**
 * The parts of Crawlee (npm `crawlee` 3.x, or `@crawlee/utils`) that
 * `useWithCrawlee` touches, as structural types: the entry imports nothing
 * from Crawlee, and the module a user imports fits them as it is.
 */

/** The options Crawlee's `RobotsTxtFile.find` and `load` take. */
export interface RobotsTxtFileFetchOptions {
  signal?: AbortSignal
  timeoutMillis?: number
}

/**
 * The static side of Crawlee's `RobotsTxtFile` class. Its instances are
 * Crawlee's own (`instanceof RobotsTxtFile` holds for the ones the entry
 * makes); `load` is protected in Crawlee's types, so it is not named here.
 */
export interface CrawleeRobotsTxtFileClass {
  find(url: string, proxyUrl?: string, options?: RobotsTxtFileFetchOptions): Promise<object>
  from(url: string, content: string, proxyUrl?: string): object
}

/** Crawlee's `log` (an `@apify/log` `Log`): the methods used here. */
export interface CrawleeLog {
  info(message: string, data?: Record<string, unknown>): void
  warning(message: string, data?: Record<string, unknown>): void
}

/** Crawlee's `ProxyConfiguration`: the method used here. */
export interface CrawleeProxyConfiguration {
  newUrl(sessionId?: string | number): Promise<string | undefined>
}

/**
 * The module passed to `useWithCrawlee`: `crawlee` (ES import, namespace or
 * default, or `require`), or `@crawlee/utils` (then only
 * `RobotsTxtFile.find`, `load` and `from` are taken over: the crawlers'
 * own calls reach them, without the crawler's User-Agent or proxy).
 */
export interface CrawleeModule {
  readonly RobotsTxtFile: CrawleeRobotsTxtFileClass
  /** The base class of every Crawlee crawler (`crawlee` and `@crawlee/basic` export it). */
  readonly BasicCrawler?: { readonly prototype: object }
  /** Crawlee's default logger (`crawlee` exports it). */
  readonly log?: CrawleeLog
}
