/**
 * Real robots.txt files paired with real URLs, from two sources that the
 * data-driven suites run alike:
 *
 * - the bundled sample (`corpus/`, always present): 38 robots.txt files and
 *   the 2,896 URLs of their 40 hosts, rows of paired.tsv with their provenance
 *   (corpus/README.md, corpus/SOURCES.tsv);
 * - the full corpus (`../shared/corpus/urls/paired.tsv`: 111,805 URLs on 1,264
 *   hosts), when ../shared is beside the checkout.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe } from 'vitest'
import { describeShared, SHARED, type SharedSuite } from './shared-data.js'

/** The bundled sample corpus. */
export const SAMPLE = resolve(__dirname, '../../corpus')

/** One host: its robots.txt bytes (null when it has none) and its URLs. */
export interface PairedHost {
  host: string
  /** The robots.txt file (relative to its corpus root), '' when the host has none. */
  robotsFile: string
  robots: Uint8Array | null
  urls: string[]
}

/** paired.tsv grouped by host, in file order. */
export function loadPaired(): PairedHost[] {
  const text = readFileSync(resolve(SHARED, 'corpus/urls/paired.tsv'), 'utf8')
  const byHost = new Map<string, PairedHost>()
  const lines = text.split('\n')
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]
    if (!line) continue
    const [host, robotsFile, url] = line.split('\t')
    let h = byHost.get(host)
    if (!h) {
      const robots = robotsFile ? new Uint8Array(readFileSync(resolve(SHARED, 'corpus', robotsFile))) : null
      h = { host, robotsFile, robots, urls: [] }
      byHost.set(host, h)
    }
    h.urls.push(url ?? '')
  }
  return [...byHost.values()]
}

/**
 * The bundled sample grouped by host, in file order: a URL's host is its
 * hostname (as in paired.tsv, whose host column always equals it), its
 * robots.txt `corpus/robots/<host>` when that file exists.
 */
export function loadSample(): PairedHost[] {
  const byHost = new Map<string, PairedHost>()
  for (const url of readFileSync(resolve(SAMPLE, 'urls.txt'), 'utf8').split('\n')) {
    if (!url) continue
    const host = new URL(url).hostname
    let h = byHost.get(host)
    if (!h) {
      const file = resolve(SAMPLE, 'robots', host)
      const has = existsSync(file)
      h = { host, robotsFile: has ? `robots/${host}` : '', robots: has ? new Uint8Array(readFileSync(file)) : null, urls: [] }
      byHost.set(host, h)
    }
    h.urls.push(url)
  }
  return [...byHost.values()]
}

/** The robots.txt files of the bundled sample, as `robots/<host>` paths relative to corpus/. */
export function sampleFiles(): string[] {
  return readdirSync(resolve(SAMPLE, 'robots'))
    .sort()
    .map((f) => `robots/${f}`)
}

/** A source of paired hosts with what it must hold. */
export interface PairedSource {
  /** 'sample' or 'full'. */
  id: 'sample' | 'full'
  name: string
  /** The hosts (loaded once, on first call). */
  hosts(): PairedHost[]
  /** URLs it holds. */
  urlCount: number
}

function memo<T>(load: () => T): () => T {
  let value: T | undefined
  return () => (value ??= load())
}

export const SAMPLE_SOURCE: PairedSource = {
  id: 'sample',
  name: 'bundled sample (corpus/: 40 hosts, 2,896 URLs)',
  hosts: memo(loadSample),
  urlCount: 2_896,
}

export const FULL_SOURCE: PairedSource = {
  id: 'full',
  name: '../shared paired.tsv (1,264 hosts, 111,805 URLs)',
  hosts: memo(loadPaired),
  urlCount: 111_805,
}

/**
 * Runs a data suite on both sources: the bundled sample always (`title` with
 * the sample's name), the full corpus as the shared suite `full` (skipped
 * with its reason when ../shared is absent). `fn` is called at collection
 * time; load data inside the tests (`source.hosts()`).
 */
export function describePaired(title: string, full: SharedSuite, fn: (source: PairedSource) => void): void {
  describe(`${title}: ${SAMPLE_SOURCE.name}`, () => fn(SAMPLE_SOURCE))
  describeShared(full, () => fn(FULL_SOURCE))
}
