/**
 * A fetch journal names the run's --timeout and --dns-server: a deadline
 * missed is a site's outcome (unreachable) and a DNS server decides the
 * address asked, so records made under others are not mixed with this
 * run's. A version-2 journal made before they were recorded is still taken
 * up. In-process: the journal and the run's identity, no fetch.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { parseArgs } from '../../../src/cli/common/args.js'
import { FETCH_OPTIONS, LATER_IDENTITY_KEYS, runIdentity } from '../../../src/cli/commands/fetch.js'
import { Journal } from '../../../src/cli/fetch/journal.js'
import { tempDir } from '../helpers.js'

const tmp = tempDir()
afterAll(() => tmp.cleanup())

const identity = (more: string[]) => runIdentity(parseArgs(['urls.txt', '-o', 'out.bundle', '--resolve', '*:80:127.0.0.1', ...more], FETCH_OPTIONS), undefined, 'bundle')

/** Makes the journal of the run `more` at `path`, with one record. */
function made(path: string, more: string[]): void {
  const j = Journal.open(path, identity(more), LATER_IDENTITY_KEYS)
  j.begin()
  j.append('{"origin":"http://a.test"}')
  j.close()
}

const refusal = (path: string, more: string[]): string => {
  try {
    Journal.open(path, identity(more), LATER_IDENTITY_KEYS).close()
  } catch (err) {
    return (err as Error).message
  }
  return 'taken up'
}

describe('fetch journal: --timeout and --dns-server', () => {
  it('regression: a journal made with another --timeout or --dns-server was taken up, its records (sites unreachable at a shorter deadline) mixed with this run\'s in silence; now it is refused, naming each', () => {
    const path = tmp.path('a.journal')
    made(path, ['--timeout', '0.5', '--dns-server', '127.0.0.1:53'])
    const head = readFileSync(path, 'utf8')
    expect(refusal(path, ['--timeout', '30', '--dns-server', '127.0.0.2:53'])).toBe(
      `cannot use the journal '${path}': it is the journal of another run: --timeout: then 0.5, now 30; --dns-server: then ["127.0.0.1:53"], now ["127.0.0.2:53"]: remove it, or run the command that made it again`,
    )
    expect(readFileSync(path, 'utf8')).toBe(head)
    // The same options again, or the default timeout spelled out: the same run.
    expect(refusal(path, ['--dns-server', '127.0.0.1:53', '--timeout', '0.500'])).toBe('taken up')
    const plain = tmp.path('plain.journal')
    made(plain, [])
    expect(refusal(plain, ['--timeout', '10'])).toBe('taken up')
  })

  it('a version-2 journal made before --timeout and --dns-server were recorded is taken up; one that differs in another option is refused as before', () => {
    const path = tmp.path('old.journal')
    const now = identity(['--timeout', '5']) as Record<string, unknown>
    const old = Object.fromEntries(Object.entries(now).filter(([k]) => k !== '--timeout' && k !== '--dns-server'))
    writeFileSync(path, `${JSON.stringify({ journal: 'robots-automaton fetch journal', version: 2, run: old })}\n{"origin":"http://a.test"}\n`)
    const j = Journal.open(path, now, LATER_IDENTITY_KEYS)
    expect(j.resumed).toBe(true)
    const texts: string[] = []
    j.readBack((text) => void texts.push(text))
    expect(texts).toEqual(['{"origin":"http://a.test"}'])
    j.close()
    expect(refusal(path, ['--timeout', '5', '--user-agent', 'OtherBot'])).toMatch(/it is the journal of another run: --user-agent: then null, now "OtherBot": remove it/)
  })
})
