/**
 * robots-parser and `robots-automaton/compat` side by side on real data:
 * every difference in isAllowed / getMatchingLineNumber (several agents, every
 * URL of a host on its own origin), getCrawlDelay, getSitemaps and
 * getPreferredHost must fall in a documented class (the table of
 * docs/migrating.md). The counts per class are pinned: a new kind of
 * difference, or a change in how many answers differ, fails here.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  CLASS_EXAMPLES,
  classifyCrawlDelay,
  classifyExample,
  classifyHost,
  classifySitemaps,
  classifyVerdict,
  DIFFERENCE_CLASSES,
  exampleAnswers,
  Subject,
} from './support/compat-differences.js'
import { describePaired, SAMPLE, sampleFiles, type PairedHost } from './support/corpus-data.js'
import { describeShared, SHARED } from './support/shared-data.js'

const GOOGLEBOT_HEADER = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'
/** The agents of the side-by-side run: tokens, a token with digits, `*`, and a full header. */
const AGENTS = ['Googlebot', 'bingbot', '*', 'MJ12bot', 'Googlebot-Image', GOOGLEBOT_HEADER, 'FooBot']
const META_AGENTS = ['Googlebot', 'bingbot', '*', 'Yandex', 'MJ12bot', GOOGLEBOT_HEADER]

type Counts = Record<string, number>

function bump(counts: Counts, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1
}

/** Verdict and line differences per class, over every URL of every host, each on its own origin. */
function verdictClasses(hosts: PairedHost[]): { counts: Counts; compared: number; examples: string[] } {
  const counts: Counts = {}
  const examples: string[] = []
  let compared = 0
  for (const h of hosts) {
    const body = h.robots ?? new Uint8Array(0)
    const byOrigin = new Map<string, string[]>()
    for (const u of h.urls) {
      const robotsUrl = new URL('/robots.txt', u).href
      if (!byOrigin.has(robotsUrl)) byOrigin.set(robotsUrl, [])
      byOrigin.get(robotsUrl)!.push(u)
    }
    for (const [robotsUrl, urls] of byOrigin) {
      const subject = new Subject(body, robotsUrl)
      for (const ua of AGENTS) {
        for (const u of urls) {
          compared++
          const cls = classifyVerdict(subject, u, ua)
          if (!cls) continue
          bump(counts, cls)
          if ((cls === 'unclassified' || cls === 'not-neutral') && examples.length < 10) examples.push(`${cls}: ${h.robotsFile} ${ua} ${u}`)
        }
      }
    }
  }
  return { counts, compared, examples }
}

/** Crawl-delay, sitemap and host differences per class over robots.txt files. */
function metadataClasses(files: string[], hostOf: (file: string) => string): { counts: Counts; examples: string[] } {
  const counts: Counts = {}
  const examples: string[] = []
  const note = (what: string, cls: string | null, file: string): void => {
    if (!cls) return
    bump(counts, `${what}: ${cls}`)
    if ((cls === 'unclassified' || cls === 'not-neutral') && examples.length < 10) examples.push(`${what} ${cls}: ${file}`)
  }
  for (const file of files) {
    const subject = new Subject(new Uint8Array(readFileSync(file)), `https://${hostOf(file)}/robots.txt`)
    for (const ua of META_AGENTS) note('crawl-delay', classifyCrawlDelay(subject, ua), file)
    note('sitemaps', classifySitemaps(subject), file)
    note('host', classifyHost(subject), file)
  }
  return { counts, examples }
}

describe('compat vs robots-parser: one example per documented class', () => {
  it('every class has an example', () => {
    expect(new Set(CLASS_EXAMPLES.map((e) => e.cls))).toEqual(new Set(Object.keys(DIFFERENCE_CLASSES)))
  })
  for (const e of CLASS_EXAMPLES) {
    it(`${e.cls}: the answers differ and the ladder names the class`, () => {
      const [theirs, ours] = exampleAnswers(e)
      expect(ours).not.toEqual(theirs)
      expect(classifyExample(e)).toBe(e.cls)
    })
  }
  it('the table of docs/migrating.md has a row for every class, and for no other', () => {
    const doc = readFileSync(resolve(__dirname, '../docs/migrating.md'), 'utf8')
    const rows = [...doc.matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map((m) => m[1])
    expect(rows.sort()).toEqual(Object.keys(DIFFERENCE_CLASSES).sort())
  })
})

/** Pinned counts of verdict/line differences per class, per source. */
const VERDICT_CLASSES: Record<'sample' | 'full', Counts> = {
  sample: { 'empty-rule-line': 1_162, 'pattern-encoding': 7, 'user-agent-token': 7 },
  full: {
    'empty-rule-line': 29_690,
    'user-agent-token': 3_572,
    'user-agent-value': 2_294,
    'group-boundary': 691,
    'missing-colon': 539,
    'pattern-encoding': 49,
    'empty-group': 34,
    'index-html': 7,
  },
}

describePaired('compat vs robots-parser side by side: isAllowed and getMatchingLineNumber', 'compat-paired', (source) => {
  it('every difference falls in a documented class, with the pinned count per class', () => {
    const { counts, compared, examples } = verdictClasses(source.hosts())
    expect(examples).toEqual([])
    expect(compared).toBe(source.urlCount * AGENTS.length)
    expect(counts).toEqual(VERDICT_CLASSES[source.id])
  }, 600_000)
})

describe('compat vs robots-parser side by side: crawl-delay, sitemaps, host on the bundled sample', () => {
  it('every difference falls in a documented class (there are none in the sample)', () => {
    const { counts, examples } = metadataClasses(
      sampleFiles().map((f) => join(SAMPLE, f)),
      (f) => f.slice(f.lastIndexOf('/') + 1),
    )
    expect(examples).toEqual([])
    expect(counts).toEqual({})
  })
})

describeShared('compat-metadata', () => {
  it('every difference over the 6,817 corpus files falls in a documented class', () => {
    const root = join(SHARED, 'corpus/robots')
    const files: string[] = []
    for (const dir of readdirSync(root)) {
      if (!statSync(join(root, dir)).isDirectory()) continue
      for (const f of readdirSync(join(root, dir))) files.push(join(root, dir, f))
    }
    expect(files).toHaveLength(6817)
    const { counts, examples } = metadataClasses(files, (f) => f.slice(f.lastIndexOf('/') + 1))
    expect(examples).toEqual([])
    expect(counts).toEqual({
      'crawl-delay: user-agent-token': 91,
      'crawl-delay: user-agent-value': 57,
      'crawl-delay: empty-group': 2,
      'sitemaps: sitemap-not-absolute': 41,
      'host: host-value': 4,
    })
  }, 300_000)
})
