/** Loading the real corpus (../shared/corpus) for data-driven tests. */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { SHARED } from './shared-data.js'

/** One host of paired.tsv: its robots.txt bytes (null when it has none) and its URLs. */
export interface PairedHost {
  host: string
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
