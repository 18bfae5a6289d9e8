/**
 * An empty `--robots-dir` directory (a wrong path, a fetch that wrote
 * nothing) judged every line as of a host without a robots.txt, said only
 * by the summary's "0 with a robots.txt": the tally now warns as it opens.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { HostTally } from '../../../src/cli/hosts/host-tally.js'
import { DirectoryRules } from '../../../src/cli/hosts/robots-dir.js'

const root = mkdtempSync(join(tmpdir(), 'robots-tally-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

describe('a per-host source with no entry', () => {
  it('regression: an empty --robots-dir judged every line by --missing with no warning; one now names it and the verdict', () => {
    const empty = join(root, 'empty')
    mkdirSync(empty)
    const warnings: string[] = []
    new HostTally(DirectoryRules.open(empty), { warn: (l) => warnings.push(l), missing: 'disallow' })
    expect(warnings).toEqual([`warning: '${empty}' holds no host's robots.txt: every line is judged as of a host without one (disallow)`])
    // A directory whose only file names no host is as empty; one with a host's file is not.
    const skipped = join(root, 'skipped')
    mkdirSync(skipped)
    writeFileSync(join(skipped, 'not a host'), 'User-agent: *\nDisallow: /\n')
    new HostTally(DirectoryRules.open(skipped), { warn: (l) => warnings.push(l), missing: 'allow' })
    expect(warnings[1]).toMatch(/'.*skipped' holds no host's robots\.txt: .* \(allow\)$/)
    writeFileSync(join(skipped, 'example.com'), 'User-agent: *\nDisallow: /\n')
    new HostTally(DirectoryRules.open(skipped), { warn: (l) => warnings.push(l), missing: 'allow' })
    expect(warnings).toHaveLength(2)
  })
})
