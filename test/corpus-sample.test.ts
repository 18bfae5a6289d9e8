/**
 * The bundled sample (corpus/) is what it says: rows of ../shared's corpus
 * with their provenance. Every file matches its SOURCES.tsv row (size and
 * SHA-256); with ../shared present, the files are byte for byte the shared
 * ones and urls.txt is exactly the paired.tsv URLs of the sample's hosts, in
 * order. The data suites run on this sample when ../shared is absent.
 */
import { createHash } from 'node:crypto'
import { readFileSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadPaired, SAMPLE, SAMPLE_SOURCE, sampleFiles } from './support/corpus-data.js'
import { itShared, SHARED } from './support/shared-data.js'

interface SourceRow {
  file: string
  bytes: number
  sha256: string
  host: string
}

function sourceRows(): SourceRow[] {
  const [header, ...rows] = readFileSync(resolve(SAMPLE, 'SOURCES.tsv'), 'utf8').trimEnd().split('\n')
  const cols = header.split('\t')
  return rows.map((r) => {
    const f = r.split('\t')
    return { file: f[cols.indexOf('file')], bytes: Number(f[cols.indexOf('bytes')]), sha256: f[cols.indexOf('sha256')], host: f[cols.indexOf('host')] }
  })
}

describe('corpus sample: provenance', () => {
  it('every bundled robots.txt has its SOURCES.tsv row, with its size and SHA-256', () => {
    const rows = new Map(sourceRows().map((r) => [r.host, r]))
    const files = sampleFiles()
    expect(files).toHaveLength(38)
    expect(rows.size).toBe(38)
    for (const f of files) {
      const host = f.slice('robots/'.length)
      const row = rows.get(host)
      expect(row, f).toBeDefined()
      const bytes = readFileSync(resolve(SAMPLE, f))
      expect(statSync(resolve(SAMPLE, f)).size, f).toBe(row!.bytes)
      expect(createHash('sha256').update(bytes).digest('hex'), f).toBe(row!.sha256)
    }
  })

  it('urls.txt: 2,896 URLs of 40 hosts, 38 of them with a robots.txt', () => {
    const hosts = SAMPLE_SOURCE.hosts()
    expect(hosts).toHaveLength(40)
    expect(hosts.filter((h) => h.robots).length).toBe(38)
    expect(hosts.reduce((n, h) => n + h.urls.length, 0)).toBe(2896)
  })

  itShared('sample-provenance', () => {
    const rows = sourceRows()
    for (const r of rows) {
      expect(Buffer.compare(readFileSync(resolve(SAMPLE, 'robots', r.host)), readFileSync(resolve(SHARED, 'corpus/robots', r.file))), r.file).toBe(0)
    }
    const byHost = new Map(loadPaired().map((h) => [h.host, h]))
    for (const h of SAMPLE_SOURCE.hosts()) {
      const full = byHost.get(h.host)!
      expect(h.urls, h.host).toEqual(full.urls)
      expect(full.robotsFile === '', h.host).toBe(h.robots === null)
    }
  })
})
