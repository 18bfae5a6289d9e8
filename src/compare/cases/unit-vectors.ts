/**
 * `--cases unit`: the 145 allow/disallow vectors of google/robotstxt's unit
 * tests (robots_test.cc at commit 22b355ff855419e6a3ff8ff09c0ad7fdb17116f9,
 * Apache-2.0; provenance in test/data/conformance/README.md, attribution in
 * NOTICE). The package ships them as data: the build writes them gzipped to
 * `dist/data/conformance/`, read from there at run time.
 */
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { zlib } from '../../tools/built-ins.js'
import type { CaseInput } from '../case.js'
import { CompareError, readError } from '../compare-error.js'

const FILE = 'data/conformance/google-robots-test.json.gz'

/** The shipped vectors: beside the built CLI (`dist/`), or, run from a source checkout, in its built `dist/`. */
export function unitVectorsFile(): string {
  for (const rel of [`./${FILE}`, `../../../dist/${FILE}`]) {
    const path = fileURLToPath(new URL(rel, import.meta.url))
    if (existsSync(path)) return path
  }
  throw new CompareError('ERR_READ', `the reference's unit vectors (${FILE}) are missing from this installation: rebuild it (npm run build)`)
}

/** The unit vectors as cases (from a JSON file, or one gzipped: `.gz`); each states the reference's verdict (`allowed`). */
export function unitCases(file = unitVectorsFile()): CaseInput[] {
  let records: readonly Record<string, unknown>[]
  try {
    const bytes = readFileSync(file)
    records = JSON.parse((file.endsWith('.gz') ? zlib().gunzipSync(bytes) : bytes).toString('utf8')) as Record<string, unknown>[]
  } catch (err) {
    throw readError('unit vectors', file, err)
  }
  return records.map((r) => {
    const b64 = r.robotstxt_base64
    const robots =
      typeof b64 === 'string' ? new Uint8Array(Buffer.from(b64, 'base64')) : new Uint8Array(Buffer.from(String(r.robotstxt ?? ''), 'utf8'))
    return {
      id: `unit:${String(r.id)}`,
      robots,
      agents: [String(r.useragent)],
      url: String(r.url),
      stated: { allowed: r.allowed === true },
    }
  })
}
