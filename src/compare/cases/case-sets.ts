/**
 * The case sets of `--cases SET` by name: `unit`, `corpus`, `spec-test:PATH`
 * and `FILE.jsonl`, each read or generated as it is consumed, with `--count`
 * (a corpus size, or a seeded sample of a fixed set) and `--seed`.
 */
import { accessSync, closeSync, constants, existsSync, openSync, statSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { CaseInput } from '../case.js'
import type { Oracle } from '../oracle.js'
import { Random } from '../random.js'
import { count } from '../format.js'
import { corpusCaseStream } from './corpus-cases.js'
import { readFifoUrlList } from './corpus-files.js'
import { jsonlCaseStream } from './jsonl-cases.js'
import { specTestDirCases } from './spec-test.js'
import { unitCases } from './unit-vectors.js'
import { CompareError, readError, usageError } from '../compare-error.js'

/** Default number of corpus cases. */
export const DEFAULT_CORPUS_COUNT = 10_000

/** What to read or generate. */
export interface CaseSetSpec {
  /** `unit`, `corpus`, `spec-test:PATH` or a `.jsonl` file. */
  readonly cases: string
  /** corpus: cases to make; another set: a sample of that many. */
  readonly count?: number
  readonly seed: number
  /** corpus: the folder of robots.txt files (default: the bundled corpus). */
  readonly robotsDir?: string
  /** corpus, with robotsDir: the URL list. */
  readonly urls?: string
  /** corpus: the field of the URL list's lines that holds the URL (1-based). */
  readonly urlsField?: number
  /** Whether multi-agent cases are made (corpus). */
  readonly multiAgent: boolean
  /** Receives warnings about the inputs. */
  readonly onNote?: (line: string) => void
}

/** A case set: its cases (read or generated as they are consumed), how many when known, a description and a short name. */
export interface CaseSet {
  readonly inputs: Iterable<CaseInput> | AsyncIterable<CaseInput>
  readonly total?: number
  readonly set: string
  /** `unit`, `corpus`, `spec-test` or the case file's name. */
  readonly name: string
}

/** The bundled corpus: beside dist/ when installed, at the repository root when run from source. */
export function bundledCorpus(): string {
  for (const rel of ['../corpus', '../../../corpus']) {
    const dir = fileURLToPath(new URL(rel, import.meta.url))
    if (existsSync(`${dir}/robots`)) return dir
  }
  throw new CompareError('ERR_READ', 'the bundled corpus/ folder is missing from this installation: give --robots-dir DIR (and --urls FILE)')
}

/** A seeded sample of `n` items of a stream, in stream order (memory: `n` items). */
async function reservoir(items: AsyncIterable<CaseInput>, n: number, rnd: Random): Promise<CaseInput[]> {
  const kept: { at: number; c: CaseInput }[] = []
  let seen = 0
  for await (const c of items) {
    if (kept.length < n) kept.push({ at: seen, c })
    else {
      const j = rnd.int(seen + 1)
      if (j < n) kept[j] = { at: seen, c }
    }
    seen++
  }
  return kept.sort((a, b) => a.at - b.at).map((k) => k.c)
}

/** Opens a case set (a usage error for a name that is none; the files are checked before any case runs). */
export async function loadCaseSet(spec: CaseSetSpec, oracle: Oracle): Promise<CaseSet> {
  const { cases: name, count: n, seed } = spec
  const corpusOnly = spec.robotsDir !== undefined ? 'robots-dir' : spec.urls !== undefined ? 'urls' : spec.urlsField !== undefined ? 'urls-field' : undefined
  if (name !== 'corpus' && corpusOnly !== undefined) throw usageError(`option '--${corpusOnly}' goes with --cases corpus`)
  if (spec.urlsField !== undefined && spec.urls === undefined) throw usageError("option '--urls-field' needs --urls")
  if (name === 'corpus') {
    const total = n ?? DEFAULT_CORPUS_COUNT
    let robotsDir = spec.robotsDir
    let urlsFile = spec.urls
    let where: string
    if (robotsDir === undefined) {
      if (urlsFile !== undefined) throw usageError("option '--urls' needs --robots-dir")
      const dir = bundledCorpus()
      robotsDir = `${dir}/robots`
      // The package ships the list gzipped (built from corpus/urls.txt).
      urlsFile = existsSync(`${dir}/urls.txt`) ? `${dir}/urls.txt` : fileURLToPath(new URL('./data/corpus-urls.txt.gz', import.meta.url))
      where = 'the bundled corpus/ (robots/ and urls.txt)'
    } else {
      where = `files of ${robotsDir}${urlsFile ? `, URLs of ${urlsFile}${spec.urlsField !== undefined ? ` (field ${spec.urlsField})` : ''}` : ''}`
    }
    // A FIFO is read first, off the main thread: its open waits for a writer, and a signal must still be handled then.
    const urlsBytes = urlsFile !== undefined ? await readFifoUrlList(urlsFile) : undefined
    const inputs = corpusCaseStream({ robotsDir, urlsFile, urlsField: spec.urlsField, urlsBytes, count: total, seed, multiAgent: spec.multiAgent, onNote: spec.onNote }, oracle)
    return { inputs, total, set: `corpus: ${where}, seed ${seed}`, name: 'corpus' }
  }
  const sample = `, a sample of ${count(n ?? 0)} (seed ${seed})`
  if (name.startsWith('spec-test:') || name === 'unit') {
    let inputs: CaseInput[]
    let set: string
    if (name === 'unit') {
      inputs = unitCases()
      set = "unit: google/robotstxt's unit-test vectors (commit 22b355ff)"
    } else {
      const path = name.slice('spec-test:'.length)
      if (path === '') throw usageError("option '--cases spec-test:PATH' needs a folder or a .textproto file")
      inputs = specTestDirCases(path)
      set = `spec-test: ${path.endsWith('.textproto') ? path : `the .textproto files under ${path}`}`
    }
    if (n !== undefined && n < inputs.length) {
      const all = inputs
      inputs = new Random(seed).sample(all.length, n).map((i) => all[i])
      set += sample
    }
    return { inputs, total: inputs.length, set, name: name === 'unit' ? 'unit' : 'spec-test' }
  }
  if (name.endsWith('.jsonl') || existsSync(name)) {
    try {
      // Fail before the adapter starts; a FIFO is only looked at: opened and closed here, its writer would be gone before the cases are read.
      if (statSync(name).isFIFO()) accessSync(name, constants.R_OK)
      else closeSync(openSync(name, 'r'))
    } catch (err) {
      throw readError('case file', name, err)
    }
    const short = name.slice(name.lastIndexOf('/') + 1)
    if (n === undefined) return { inputs: jsonlCaseStream(name), set: `cases of ${name}`, name: short }
    const inputs = await reservoir(jsonlCaseStream(name), n, new Random(seed))
    return { inputs, total: inputs.length, set: `cases of ${name}${sample}`, name: short }
  }
  throw usageError(`option '--cases' must be unit, corpus, spec-test:PATH or a .jsonl file (got '${name}')`)
}
