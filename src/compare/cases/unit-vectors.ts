/**
 * `--cases unit`: the 145 allow/disallow vectors of google/robotstxt's unit
 * tests (robots_test.cc at commit 22b355ff855419e6a3ff8ff09c0ad7fdb17116f9,
 * Apache-2.0; provenance in test/data/conformance/README.md, attribution in
 * NOTICE). The JSON is bundled into dist/cli.js at build time, so the set
 * works from an installed package.
 */
import records from '../../../test/data/conformance/google-robots-test.json'
import type { CaseInput } from '../case.js'

/** The unit vectors as cases; each states the reference's verdict (`allowed`). */
export function unitCases(): CaseInput[] {
  return (records as readonly Record<string, unknown>[]).map((r) => {
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
