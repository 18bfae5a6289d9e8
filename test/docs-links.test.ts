/**
 * The Markdown pages' links: README.md, SECURITY.md, ARCHITECTURE.md, every
 * page of docs/ (not docs/api/, TypeDoc's gitignored output) and every other
 * Markdown file of the repository (bench/RESULTS.md, corpus/README.md, the
 * design notes under src/, ...).
 *
 * - A relative link (`docs/api.md`, `../bench/RESULTS.md`, `corpus/`) must
 *   name a file or directory that exists inside the repository, and not one
 *   under docs/api/ (generated: it exists only after `npm run docs`).
 * - An anchor (`#tiers`, `docs/cli.md#filter`) must exist in the page it
 *   points into: a heading's GitHub slug (lowercased, punctuation other than
 *   `-` and `_` dropped, spaces to `-`, `-1`, `-2`, ... for repeats) or an
 *   explicit `<a id>`/`<a name>`. An anchor into a file that is not Markdown
 *   may only be a line (`#L10`, `#L10-L20`).
 * - An external link is not fetched (the tests never reach the network): it
 *   must be a well-formed http(s) URL with a host (or a mailto: address).
 *
 * Links are read from inline links and images, reference definitions and
 * HTML `href`/`src` attributes, outside fenced code blocks, code spans and
 * HTML comments.
 *
 * Source paths written as text must exist too: every `src/…` path of a page
 * (in prose or a code span; a `*` matches as in a shell glob), and in
 * ARCHITECTURE.md and the design notes under src/ every code span that names
 * a `.ts` or `.md` file by a relative path (`match/lines.ts`,
 * `direct/path.ts`), resolved from the page's folder, from src/ or from the
 * repository's root.
 *
 * Also here: figures (throughputs, ratios, per-URL times) live only in
 * bench/RESULTS.md; the README and docs/ link to it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from './support/build.js'

/** Folders never scanned: dependencies, build output, generated or scratch data. */
const SKIP_DIRS = new Set(['node_modules', 'dist', '.git', 'docs/api', 'bench/out', 'bench/data', 'tmp', 'coverage'])

/** Every Markdown file of the repository, as paths relative to ROOT with `/`. */
function markdownFiles(dir = ROOT): string[] {
  const out: string[] = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const abs = join(dir, entry.name)
    const rel = relative(ROOT, abs).split(sep).join('/')
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(rel) && !SKIP_DIRS.has(entry.name)) out.push(...markdownFiles(abs))
    } else if (entry.isFile() && entry.name.endsWith('.md')) {
      out.push(rel)
    }
  }
  return out.sort()
}

/**
 * The page's text with fenced code blocks blanked (lines kept, so line numbers
 * stay right) and HTML comments removed. Fences may be indented (inside list
 * items); a fence closes with the same character, at least as many times.
 */
function proseOf(markdown: string): string {
  const lines = markdown.replace(/<!--[\s\S]*?-->/g, (c) => c.replace(/[^\n]/g, ' ')).split('\n')
  let fence: string | null = null
  return lines
    .map((line) => {
      const m = /^\s*(`{3,}|~{3,})/.exec(line)
      if (fence === null) {
        if (m) {
          fence = m[1]
          return ''
        }
        return line
      }
      if (m && m[1][0] === fence[0] && m[1].length >= fence.length && line.trim() === m[1]) fence = null
      return ''
    })
    .join('\n')
}

/** Code spans replaced by a placeholder (their text is never a link, nor part of a heading's markup). */
function withoutCodeSpans(text: string, keepText: boolean): string {
  return text.replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, (_m, _ticks: string, body: string) => (keepText ? body.trim() : 'code'))
}

/** GitHub's slug of a heading's text (github-slugger). */
function githubSlug(heading: string): string {
  let text = withoutCodeSpans(heading, true)
  text = text.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // links and images: their text
  text = text.replace(/<[^>]+>/g, '') // HTML tags
  text = text.replace(/\\([!-/:-@[-`{-~])/g, '$1') // backslash escapes
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-')
}

/** The anchors a Markdown page defines: its headings' slugs (repeats numbered) and explicit ids. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  const prose = proseOf(markdown)
  for (const line of prose.split('\n')) {
    const m = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line)
    if (!m) continue
    const base = githubSlug(m[1])
    const n = seen.get(base) ?? 0
    seen.set(base, n + 1)
    anchors.add(n === 0 ? base : `${base}-${n}`)
  }
  for (const m of prose.matchAll(/<a\s[^>]*\b(?:id|name)\s*=\s*["']([^"']+)["']/gi)) anchors.add(m[1])
  return anchors
}

interface Link {
  file: string
  line: number
  target: string
}

/** Every link of a page, with its line. */
function linksOf(file: string, markdown: string): Link[] {
  const prose = withoutCodeSpans(proseOf(markdown), false)
  const links: Link[] = []
  const lineAt = (index: number) => prose.slice(0, index).split('\n').length
  const add = (index: number, raw: string) => {
    let target = raw.trim()
    if (target.startsWith('<') && target.endsWith('>')) target = target.slice(1, -1)
    links.push({ file, line: lineAt(index), target })
  }
  // Inline links and images: [text](target "title"); the text may hold one level of brackets.
  for (const m of prose.matchAll(/!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^)\s]*)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g)) {
    add(m.index, m[1])
  }
  // Reference definitions: [label]: target
  for (const m of prose.matchAll(/^ {0,3}\[[^\]]+\]:[ \t]*(\S+)[ \t]*(?:"[^"]*"|'[^']*'|\([^)]*\))?[ \t]*$/gm)) add(m.index, m[1])
  // HTML attributes.
  for (const m of prose.matchAll(/<(?:a|img)\s[^>]*\b(?:href|src)\s*=\s*["']([^"']*)["']/gi)) add(m.index, m[1])
  return links
}

/** Why a link is broken, or null when it resolves. */
function problemOf(link: Link, anchorCache: Map<string, Set<string>>): string | null {
  const { file, target } = link
  if (target === '') return 'empty link'
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
    if (/^mailto:/i.test(target)) return /^mailto:[^@\s]+@[^@\s]+\.[^@\s]+$/i.test(target) ? null : 'malformed mailto: link'
    if (!/^https?:\/\//i.test(target)) return 'external links must be http(s)'
    if (/\s/.test(target)) return 'whitespace in URL'
    let url: URL
    try {
      url = new URL(target)
    } catch {
      return 'malformed URL'
    }
    if (!url.hostname || !(url.hostname.includes('.') || url.hostname === 'localhost')) return `URL without a proper host (${url.hostname})`
    return null
  }
  if (target.startsWith('//')) return 'protocol-relative URL'
  const hash = target.indexOf('#')
  const pathPart = hash < 0 ? target : target.slice(0, hash)
  const fragment = hash < 0 ? null : target.slice(hash + 1)
  let decoded: string
  try {
    decoded = decodeURIComponent(pathPart.split('?')[0])
  } catch {
    return 'malformed percent-encoding'
  }
  const abs = decoded === '' ? resolve(ROOT, file) : decoded.startsWith('/') ? resolve(ROOT, `.${decoded}`) : resolve(ROOT, dirname(file), decoded)
  const rel = relative(ROOT, abs).split(sep).join('/')
  if (rel === '..' || rel.startsWith('../')) return 'points outside the repository'
  if (rel === 'docs/api' || rel.startsWith('docs/api/')) return 'points into docs/api/ (TypeDoc output, gitignored: it exists only after npm run docs)'
  if (!existsSync(abs)) return `no such file: ${rel}`
  if (fragment === null) return null
  if (fragment === '') return 'empty anchor'
  if (statSync(abs).isDirectory()) return 'anchor on a directory'
  if (!abs.endsWith('.md')) return /^L\d+(?:-L\d+)?$/.test(fragment) ? null : `anchor #${fragment} into a file that is not Markdown`
  let anchors = anchorCache.get(abs)
  if (!anchors) {
    anchors = anchorsOf(readFileSync(abs, 'utf8'))
    anchorCache.set(abs, anchors)
  }
  let wanted: string
  try {
    wanted = decodeURIComponent(fragment)
  } catch {
    return 'malformed percent-encoding in anchor'
  }
  return anchors.has(wanted) ? null : `no anchor #${wanted} in ${rel}`
}

/** True when `rel` (relative to ROOT, `/`-separated, `*` as a glob within one segment, a trailing `/` for a folder) names something that exists. */
function pathExists(rel: string): boolean {
  const parts = rel.replace(/\/+$/, '').split('/')
  let dirs = [ROOT]
  for (const part of parts) {
    const next: string[] = []
    for (const dir of dirs) {
      if (!part.includes('*')) {
        if (existsSync(join(dir, part))) next.push(join(dir, part))
        continue
      }
      if (!existsSync(dir) || !statSync(dir).isDirectory()) continue
      const glob = new RegExp(`^${part.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`)
      for (const name of readdirSync(dir)) if (glob.test(name)) next.push(join(dir, name))
    }
    dirs = next
    if (dirs.length === 0) return false
  }
  return true
}

/** The `src/…` paths a page writes (prose and code spans, outside fenced blocks and comments), and in design notes its relative source paths. */
function sourcePathsOf(file: string, markdown: string): { line: number; path: string; problem: string | null }[] {
  const prose = proseOf(markdown)
  const lineAt = (index: number) => prose.slice(0, index).split('\n').length
  const out: { line: number; path: string; problem: string | null }[] = []
  for (const m of prose.matchAll(/(?<![\w./-])src\/[\w.*/-]*[\w*/]/g)) {
    const path = m[0]
    out.push({ line: lineAt(m.index), path, problem: pathExists(path) ? null : 'no such source path' })
  }
  if (file === 'ARCHITECTURE.md' || file.startsWith('src/')) {
    for (const m of prose.matchAll(/`((?:\.\.\/)*[\w.-]+(?:\/[\w.*-]+)+\.(?:ts|md))`/g)) {
      const path = m[1]
      if (path.startsWith('src/')) continue
      const bases = [relative(ROOT, resolve(ROOT, dirname(file))), 'src', '']
      const found = bases.some((base) => {
        const rel = relative(ROOT, resolve(ROOT, base, path)).split(sep).join('/')
        return !rel.startsWith('..') && pathExists(rel)
      })
      out.push({ line: lineAt(m.index), path, problem: found ? null : "not found from the page's folder, src/ or the root" })
    }
  }
  return out
}

const FILES = markdownFiles()

describe('docs: GitHub heading slugs', () => {
  it('follow github-slugger on the headings these pages use', () => {
    expect(githubSlug('Internals: `robots-automaton/internals`')).toBe('internals-robots-automatoninternals')
    expect(githubSlug('Per host: `--robots-dir DIR` and `--bundle FILE`')).toBe('per-host---robots-dir-dir-and---bundle-file')
    expect(githubSlug('Fetching robots.txt (RFC 9309 §2.3–2.4)')).toBe('fetching-robotstxt-rfc-9309-2324')
    expect(githubSlug("Compat (robots-parser's API)")).toBe('compat-robots-parsers-api')
    expect(githubSlug('`RobotsCache`: robots.txt for a crawl frontier')).toBe('robotscache-robotstxt-for-a-crawl-frontier')
    expect(githubSlug('A [linked](x.md) *emphasised* `code_span`')).toBe('a-linked-emphasised-code_span')
  })

  it('number repeated headings and ignore headings in code blocks', () => {
    const anchors = anchorsOf('# A\n\n## Notes\n\n```sh\n# not a heading\n```\n\n## Notes\n\n<a id="custom"></a>\n')
    expect([...anchors].sort()).toEqual(['a', 'custom', 'notes', 'notes-1'])
  })

  it('the link reader skips code and comments, and finds inline, reference and HTML links', () => {
    const md = 'See [a](a.md#x) and [`b`](b.md "title").\n`[no](c.md)`\n<!-- [no](d.md) -->\n```\n[no](e.md)\n```\n[ref]: f.md\n<a href="g.md">g</a>\n'
    expect(linksOf('x.md', md).map((l) => l.target)).toEqual(['a.md#x', 'b.md', 'f.md', 'g.md'])
  })
})

describe('docs: links and anchors resolve', () => {
  it('the pages are found: README.md, SECURITY.md, ARCHITECTURE.md and docs/', () => {
    for (const f of ['README.md', 'SECURITY.md', 'ARCHITECTURE.md']) expect(FILES).toContain(f)
    expect(FILES.filter((f) => f.startsWith('docs/')).length).toBeGreaterThan(0)
    expect(FILES.filter((f) => f.startsWith('docs/api/'))).toEqual([])
  })

  const anchorCache = new Map<string, Set<string>>()
  for (const file of FILES) {
    it(`${file}: every link resolves`, () => {
      const broken = linksOf(file, readFileSync(resolve(ROOT, file), 'utf8'))
        .map((link) => ({ link, problem: problemOf(link, anchorCache) }))
        .filter((x) => x.problem !== null)
        .map(({ link, problem }) => `${link.file}:${link.line}: (${link.target}) ${problem}`)
      expect(broken).toEqual([])
    })
  }

  it('every page of docs/ is reachable from the README, directly or through another page', () => {
    const reached = new Set<string>(['README.md'])
    const queue = ['README.md']
    while (queue.length) {
      const file = queue.shift() as string
      for (const { target } of linksOf(file, readFileSync(resolve(ROOT, file), 'utf8'))) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue
        const path = target.split('#')[0]
        if (!path.endsWith('.md')) continue
        const rel = relative(ROOT, resolve(ROOT, dirname(file), decodeURIComponent(path))).split(sep).join('/')
        if (!reached.has(rel) && existsSync(resolve(ROOT, rel))) {
          reached.add(rel)
          queue.push(rel)
        }
      }
    }
    const docs = FILES.filter((f) => f.startsWith('docs/') || f === 'SECURITY.md')
    expect(docs.filter((f) => !reached.has(f))).toEqual([])
  })
})

describe('docs: source paths exist', () => {
  it('the path reader finds src/ paths in prose and code spans, globs included, and relative paths in design notes', () => {
    const md = 'See `src/match/tiers.ts` and src/memory.ts.\n`src/cli/commands/*.ts`, `match/lines.ts`, `src/no-such.ts`\n```\nsrc/also-no-such.ts\n```\n'
    const found = sourcePathsOf('src/x.md', md).map((p) => `${p.path}: ${p.problem ?? 'ok'}`)
    expect(found).toEqual([
      'src/match/tiers.ts: ok',
      'src/memory.ts: ok',
      'src/cli/commands/*.ts: ok',
      'src/no-such.ts: no such source path',
      'match/lines.ts: ok',
    ])
  })

  for (const file of FILES) {
    it(`${file}: every source path it names exists`, () => {
      const missing = sourcePathsOf(file, readFileSync(resolve(ROOT, file), 'utf8'))
        .filter((p) => p.problem !== null)
        .map((p) => `${file}:${p.line}: ${p.path}: ${p.problem}`)
      expect(missing).toEqual([])
    })
  }
})

describe('docs: figures live in bench/RESULTS.md', () => {
  // A throughput, a ratio or a time per URL written as a figure; goals are stated in words.
  const FIGURE = /\d(?:[.,]\d+)?\s?(?:[KMG]B\/s|URLs\/s|lines\/s|cases\/s|origins\/s|hosts\/s)|\d(?:\.\d+)?×|\d\s?(?:µs|ns)\b/
  const pages = FILES.filter((f) => f === 'README.md' || f === 'SECURITY.md' || f.startsWith('docs/'))
  for (const file of pages) {
    it(`${file} states no measured figure`, () => {
      // Code blocks too (example output shows no measured rate either); HTML comments aside.
      const text = readFileSync(resolve(ROOT, file), 'utf8').replace(/<!--[\s\S]*?-->/g, '')
      const found = text.split('\n').flatMap((line, i) => (FIGURE.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []))
      expect(found).toEqual([])
    })
  }
})
