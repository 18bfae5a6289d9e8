/**
 * Loading a real Crawlee (installed by scripts/crawlee-fixture.mjs outside
 * the repository) and crawling a local site with it, as a Crawlee user does.
 * Crawlee keeps its storage in memory, under a temporary CRAWLEE_STORAGE_DIR,
 * and every connection is held to loopback (loopback-only.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { installCrawlee } from '../../../scripts/crawlee-fixture.mjs'
import { loopbackOnly, type LoopbackGuard } from './loopback-only.js'
import { PAGES, type Site } from './site.js'

/** The parts of Crawlee's module the tests use. */
export interface Crawlee {
  CheerioCrawler: CrawlerClass
  HttpCrawler: CrawlerClass
  JSDOMCrawler: CrawlerClass
  BasicCrawler: CrawlerClass
  Configuration: new (options: Record<string, unknown>) => object
  ProxyConfiguration: new (options: Record<string, unknown>) => object
  Log: new (options: Record<string, unknown>) => object
  Logger: new (options: Record<string, unknown>) => { _log(level: number, message: string, data?: unknown): void }
  LogLevel: Record<string, number>
  log: { setLevel(level: number): void; info(message: string): void; warning(message: string): void }
  RobotsTxtFile: {
    find(url: string, proxyUrl?: string, options?: { signal?: AbortSignal; timeoutMillis?: number }): Promise<RobotsFile>
    from(url: string, content: string, proxyUrl?: string): RobotsFile
  }
}

export interface RobotsFile {
  isAllowed(url: string, userAgent?: string): boolean
  getSitemaps(): string[]
}

type CrawlerClass = new (options: Record<string, unknown>, config?: object) => { run(urls: string[]): Promise<unknown> }

export type Loaded = { crawlee: Crawlee; dir: string; skip?: undefined } | { skip: string; crawlee?: undefined; dir?: undefined }

/**
 * Crawlee from the fixture install (`dropIn`: the copy with robots-parser
 * overridden by that tarball), or the reason it is skipped (the registry
 * cannot be reached). Sets CRAWLEE_STORAGE_DIR to a temporary folder first.
 */
export function loadCrawlee(options: { dropIn?: string } = {}): Loaded {
  const installed = installCrawlee(options)
  if (installed.skip !== undefined) return { skip: installed.skip }
  storageDir ??= mkdtempSync(join(tmpdir(), 'robots-crawlee-storage-'))
  process.env.CRAWLEE_STORAGE_DIR = storageDir
  process.env.CRAWLEE_PURGE_ON_START = '1'
  const crawlee = createRequire(join(installed.dir, 'package.json'))('crawlee') as Crawlee
  crawlee.log.setLevel(crawlee.LogLevel.OFF)
  return { crawlee, dir: installed.dir }
}

let storageDir: string | undefined

/** Removes the temporary storage folder. */
export function removeStorage(): void {
  if (storageDir) rmSync(storageDir, { recursive: true, force: true })
  storageDir = undefined
}

export { loopbackOnly, type LoopbackGuard }

/** A log line the crawler wrote. */
export interface LogLine {
  level: number
  message: string
}

export interface CrawlOptions {
  /** `respectRobotsTxtFile`: `true`, or the crawler's user agent. */
  agent?: true | string
  crawler?: 'cheerio' | 'http' | 'jsdom' | 'basic'
  /** A proxy URL for `proxyConfiguration`. */
  proxyUrl?: string
  /** A `newUrlFunction` for `proxyConfiguration` (instead of `proxyUrl`). */
  newUrlFunction?: () => string | Promise<string>
  /** More start URLs (the site's root is always one). */
  startPaths?: readonly string[]
  /** Start URLs written as they are, `{host}` replaced by the site's host and port. */
  startUrls?: readonly string[]
  maxConcurrency?: number
}

export interface CrawlResult {
  /** Page paths the site served, sorted. */
  pages: string[]
  /** robots.txt requests the site saw (redirect hops included). */
  robotsRequests: number
  /** The crawler's log lines (info and above). */
  log: LogLine[]
}

const LINK = /href="([^"]+)"/g

/** Crawls `site` from its root with a new crawler (following every link), and reports what the site saw. */
export async function crawl(crawlee: Crawlee, site: Site, options: CrawlOptions = {}): Promise<CrawlResult> {
  site.reset()
  const lines: LogLine[] = []
  class Capture extends crawlee.Logger {
    override _log(level: number, message: string): void {
      lines.push({ level, message })
    }
  }
  const log = new crawlee.Log({ level: crawlee.LogLevel.INFO, logger: new Capture({}) })
  const agent = options.agent ?? true
  const links = (body: string): string[] => [...body.matchAll(LINK)].map((m) => new URL(m[1], site.origin).href)
  const common: Record<string, unknown> = {
    respectRobotsTxtFile: agent === true ? true : { userAgent: agent },
    maxRequestRetries: 0,
    maxConcurrency: options.maxConcurrency ?? 4,
    requestHandlerTimeoutSecs: 30,
    log,
  }
  if (options.proxyUrl !== undefined) common.proxyConfiguration = new crawlee.ProxyConfiguration({ proxyUrls: [options.proxyUrl] })
  if (options.newUrlFunction !== undefined) common.proxyConfiguration = new crawlee.ProxyConfiguration({ newUrlFunction: options.newUrlFunction })
  const kind = options.crawler ?? 'cheerio'
  let crawler: { run(urls: string[]): Promise<unknown> }
  if (kind === 'cheerio') {
    crawler = new crawlee.CheerioCrawler(
      { ...common, requestHandler: async ({ enqueueLinks }: { enqueueLinks: () => Promise<unknown> }) => void (await enqueueLinks()) },
      new crawlee.Configuration({ persistStorage: false }),
    )
  } else if (kind === 'basic') {
    delete common.proxyConfiguration
    crawler = new crawlee.BasicCrawler(
      {
        ...common,
        requestHandler: async (ctx: { sendRequest: () => Promise<{ body: string }>; addRequests: (urls: string[]) => Promise<unknown> }) => {
          const { body } = await ctx.sendRequest()
          await ctx.addRequests(links(body))
        },
      },
      new crawlee.Configuration({ persistStorage: false }),
    )
  } else {
    const Crawler = kind === 'http' ? crawlee.HttpCrawler : crawlee.JSDOMCrawler
    crawler = new Crawler(
      {
        ...common,
        requestHandler: async (ctx: { body: string | Buffer; addRequests: (urls: string[]) => Promise<unknown> }) => {
          await ctx.addRequests(links(String(ctx.body)))
        },
      },
      new crawlee.Configuration({ persistStorage: false }),
    )
  }
  const host = new URL(site.origin).host
  await crawler.run([site.origin + '/', ...(options.startPaths ?? []).map((p) => site.origin + p), ...(options.startUrls ?? []).map((u) => u.replace('{host}', host))])
  return { pages: site.fetched(), robotsRequests: site.robotsRequests, log: lines }
}

/** The site's pages except those whose path starts with one of `prefixes`, sorted (for expectations). */
export function pagesExcept(...prefixes: string[]): string[] {
  return PAGES.filter((p) => !prefixes.some((x) => p.startsWith(x))).sort()
}

/** Every page of the site, sorted. */
export const ALL_PAGES: readonly string[] = [...PAGES].sort()
