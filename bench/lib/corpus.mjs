// The benchmark corpus.
//
// Default: the real corpus in ../shared/corpus (relative to the project root;
// override with BENCH_CORPUS=/path/to/corpus):
//   urls/paired.tsv     host, robots_file (relative to the corpus root, empty
//                       for hosts without one), url — 111,805 URLs, 1,264 hosts
//   robots/<source>/<host>   6,817 robots.txt files (FEATURES.tsv and
//                       SOURCES.tsv are skipped)
// Fallback when that folder is absent: the project's bundled sample ./corpus
// (corpus/robots/<host>, corpus/urls.txt: one URL a line; a URL's host is its
// hostname and its robots file corpus/robots/<hostname> when present).
//
// robots-parser wants the robots.txt URL of the same origin as the URLs it
// checks (else isAllowed returns undefined), so every host's URLs are also
// split by origin (`new URL(url).origin`); a few hosts use several (http and
// https, www and bare). Bodies: `bytes` (Uint8Array, as served) for ours,
// `text` (UTF-8 decoded, BOM dropped, as fetch().text() gives) for
// robots-parser and for "ours from strings".
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export { pathologicalFiles, pathologicalUrl, URL_LENGTHS } from './pathological.mjs'

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const SHARED = process.env.BENCH_CORPUS ? resolve(process.env.BENCH_CORPUS) : resolve(ROOT, '../shared/corpus')
const SAMPLE = join(ROOT, 'corpus')

const decoder = new TextDecoder('utf-8')
const EMPTY = new Uint8Array(0)

/** Which corpus is used: { kind: 'shared' | 'sample', root }. */
export function corpusInfo() {
  if (existsSync(join(SHARED, 'urls/paired.tsv')) && existsSync(join(SHARED, 'robots'))) return { kind: 'shared', root: SHARED }
  if (existsSync(join(SAMPLE, 'urls.txt'))) return { kind: 'sample', root: SAMPLE }
  throw new Error(`no corpus: neither ${SHARED}/urls/paired.tsv nor ${SAMPLE}/urls.txt exists`)
}

function readBody(path) {
  const buf = readFileSync(path)
  // A Uint8Array of its own (not a pooled Buffer slice).
  const bytes = new Uint8Array(buf.byteLength)
  bytes.set(buf)
  return bytes
}

function originOf(url) {
  try {
    return new URL(url).origin
  } catch {
    return 'null'
  }
}

function finishHost(h) {
  h.text = decoder.decode(h.bytes)
  const byOrigin = new Map()
  for (const u of h.urls) {
    const o = originOf(u)
    let list = byOrigin.get(o)
    if (!list) byOrigin.set(o, (list = []))
    list.push(u)
  }
  // robots-parser: one instance per origin, with that origin's robots.txt URL.
  h.origins = [...byOrigin].map(([origin, urls]) => ({ origin, robotsUrl: (origin === 'null' ? 'http://invalid' : origin) + '/robots.txt', urls }))
  return h
}

/**
 * The paired workload, grouped by host in file order:
 * { info, hosts: [{ host, robotsFile, bytes, text, urls, origins: [{ origin, robotsUrl, urls }] }], urlCount, originCount }
 * `limit` keeps only the first N hosts (smoke runs).
 */
export function loadPaired({ limit = Infinity } = {}) {
  const info = corpusInfo()
  const hosts = []
  if (info.kind === 'shared') {
    const lines = readFileSync(join(info.root, 'urls/paired.tsv'), 'utf8').split('\n')
    const byHost = new Map()
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i]
      if (!line) continue
      const [host, robotsFile, url] = line.split('\t')
      let h = byHost.get(host)
      if (!h) {
        if (byHost.size >= limit) break
        h = { host, robotsFile, bytes: robotsFile ? readBody(join(info.root, robotsFile)) : EMPTY, urls: [] }
        byHost.set(host, h)
        hosts.push(h)
      }
      h.urls.push(url)
    }
  } else {
    const byHost = new Map()
    for (const url of readFileSync(join(info.root, 'urls.txt'), 'utf8').split('\n')) {
      if (!url) continue
      let host
      try {
        host = new URL(url).hostname
      } catch {
        continue
      }
      let h = byHost.get(host)
      if (!h) {
        if (byHost.size >= limit) break
        const file = join(info.root, 'robots', host)
        const present = existsSync(file)
        h = { host, robotsFile: present ? `robots/${host}` : '', bytes: present ? readBody(file) : EMPTY, urls: [] }
        byHost.set(host, h)
        hosts.push(h)
      }
      h.urls.push(url)
    }
  }
  for (const h of hosts) finishHost(h)
  return {
    info,
    hosts,
    urlCount: hosts.reduce((n, h) => n + h.urls.length, 0),
    originCount: hosts.reduce((n, h) => n + h.origins.length, 0),
  }
}

/**
 * Every robots.txt file of the corpus: [{ file, host, bytes, text }], sorted
 * by path. `limit` keeps every k-th file so that about `limit` remain (smoke runs).
 */
export function loadAllRobots({ limit = Infinity } = {}) {
  const info = corpusInfo()
  const dir = join(info.root, 'robots')
  const paths = []
  if (info.kind === 'shared') {
    for (const source of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (!source.isDirectory()) continue // FEATURES.tsv, SOURCES.tsv
      for (const name of readdirSync(join(dir, source.name)).sort()) paths.push([`${source.name}/${name}`, name])
    }
  } else {
    for (const name of readdirSync(dir).sort()) paths.push([name, name])
  }
  const step = Number.isFinite(limit) && paths.length > limit ? paths.length / limit : 1
  const files = []
  for (let i = 0; i < paths.length; i += step) {
    const [file, host] = paths[Math.floor(i)]
    const bytes = readBody(join(dir, file))
    files.push({ file, host, bytes, text: decoder.decode(bytes) })
  }
  return { info, files, totalBytes: files.reduce((n, f) => n + f.bytes.length, 0) }
}

/** The robots.txt URL robots-parser is given for a corpus file (its host, http). */
export function robotsUrlFor(host) {
  return `http://${host}/robots.txt`
}

/** A one-line description of the corpus in use. */
export function describeCorpus(info) {
  return info.kind === 'shared' ? `${info.root} (real corpus)` : `${info.root} (bundled SAMPLE: ../shared/corpus not found; figures are not comparable)`
}
