// The module adapter: each body parsed once and timed apart, promises awaited,
// a throw or a wrong type is an error answer for that case.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { ModuleAdapter } from '../../../src/compare/adapters/module-adapter.js'
import { buildIfStale, ROOT } from '../../support/build.js'

/** The module's thread, as built (the adapter runs it from dist/). */
const thread = pathToFileURL(join(ROOT, 'dist/compare-module.js'))
buildIfStale()

const dir = mkdtempSync(join(tmpdir(), 'compare-module-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function mod(name: string, source: string): string {
  const path = join(dir, `${name}.mjs`)
  writeFileSync(path, source)
  return path
}

describe('module adapter', () => {
  it('parses each body once and asks isAllowed and matchingLine per case', async () => {
    const path = mod(
      'counting',
      `export let parses = 0
export function parse(bytes) {
  parses++
  const text = new TextDecoder().decode(bytes)
  return {
    isAllowed: async (url, agent) => !url.includes(text.trim()),
    matchingLine: (url, agent) => (Array.isArray(agent) ? agent.length : parses),
  }
}`,
    )
    const adapter = new ModuleAdapter({ path, multiAgent: true, timeoutMs: 5000, thread })
    await adapter.start()
    const a = new Uint8Array(Buffer.from('/a\n'))
    const b = new Uint8Array(Buffer.from('/b\n'))
    const got: unknown[] = []
    await adapter.judgeAll(
      [
        { robots: a, agents: ['x'], url: '/a/1' },
        { robots: b, agents: ['x'], url: '/a/1' },
        { robots: a, agents: ['x', 'y', 'z'], url: '/c' },
      ],
      (i, answer) => (got[i] = answer),
    )
    expect(got).toEqual([
      { allowed: false, line: 1, evidence: { raw: 'isAllowed: false; matchingLine: 1' } },
      { allowed: true, line: 2, evidence: { raw: 'isAllowed: true; matchingLine: 2' } },
      { allowed: true, line: 3, evidence: { raw: 'isAllowed: true; matchingLine: 3' } },
    ])
    expect(adapter.timings().parseMs).toHaveLength(2)
    await adapter.close()
  })

  it('turns throws and wrong types into error answers', async () => {
    const path = mod(
      'bad',
      `export default { parse(bytes) {
  if (bytes.length === 0) throw new Error('empty body')
  if (bytes[0] === 0x21) return 42
  return { isAllowed: (url) => (url === '/t' ? 'yes' : url === '/x' ? (() => { throw new Error('boom') })() : true), matchingLine: (url) => (url === '/n' ? -1 : -2) }
} }`,
    )
    const adapter = new ModuleAdapter({ path, multiAgent: false, timeoutMs: 5000, thread })
    await adapter.start()
    const r = (s: string) => new Uint8Array(Buffer.from(s))
    const judge = async (robots: Uint8Array, url: string) => {
      const { evidence: _, ...answer } = await adapter.judge({ robots, agents: ['a'], url })
      return answer
    }
    expect(await judge(new Uint8Array(0), '/')).toEqual({ error: 'parse() threw: empty body' })
    expect(await judge(r('!'), '/')).toEqual({ error: 'parse() returned no object with an isAllowed method' })
    expect(await judge(r('x'), '/t')).toEqual({ error: 'isAllowed returned "yes", not a boolean' })
    expect(await judge(r('x'), '/x')).toEqual({ error: 'threw: boom' })
    expect((await adapter.judge({ robots: r('x'), agents: ['a'], url: '/x' })).evidence!.raw).toMatch(/^threw: Error: boom\n {4}at /)
    expect(await judge(r('x'), '/')).toEqual({ error: 'matchingLine returned -2, not a line number ≥ 0 (or -1 for none)' })
    // -1: no deciding rule, a known convention, taken as 0.
    expect(await judge(r('x'), '/n')).toEqual({ allowed: true, line: -1 })
    await adapter.close()
  })

  it('a module that posts to its thread\'s parentPort is not taken for the harness (its messages crashed compare with a TypeError: u.answers is not iterable)', async () => {
    const path = mod(
      'posts-to-parent',
      `import { parentPort } from 'node:worker_threads'
parentPort.postMessage({ t: 'ready' })
export function parse() {
  return {
    isAllowed(url) {
      parentPort.postMessage(url === '/a' ? { t: 'answers', answers: 5 } : { t: 'answers', answers: [[999999, { allowed: false }, 0]] })
      parentPort.postMessage({ t: 'stop', message: 'not the harness' })
      return url === '/a'
    },
  }
}`,
    )
    const adapter = new ModuleAdapter({ path, multiAgent: false, timeoutMs: 5000, thread })
    await adapter.start()
    const got: unknown[] = []
    await adapter.judgeAll(
      ['/a', '/b', '/a'].map((url) => ({ robots: new Uint8Array(0), agents: ['x'], url })),
      (i, answer) => (got[i] = answer.allowed),
    )
    expect(got).toEqual([true, false, true])
    expect((await adapter.judge({ robots: new Uint8Array(0), agents: ['x'], url: '/b' })).allowed).toBe(false)
    await adapter.close()
  })

  it('regression: a line of NaN, Infinity or a bigint is named as it is (JSON wrote NaN as null)', async () => {
    const path = mod(
      'odd-lines',
      `export function parse() {
  return { isAllowed: () => true, matchingLine: (url) => (url === '/nan' ? NaN : url === '/inf' ? Infinity : url === '/big' ? 3n : url === '/huge' ? 2 ** 53 : 1.5) }
}`,
    )
    const adapter = new ModuleAdapter({ path, multiAgent: false, timeoutMs: 5000, thread })
    await adapter.start()
    const judge = async (url: string) => (await adapter.judge({ robots: new Uint8Array(0), agents: ['a'], url })).error
    expect(await judge('/nan')).toBe('matchingLine returned NaN, not a line number ≥ 0 (or -1 for none)')
    expect(await judge('/inf')).toBe('matchingLine returned Infinity, not a line number ≥ 0 (or -1 for none)')
    expect(await judge('/big')).toBe('matchingLine returned 3n, not a line number ≥ 0 (or -1 for none)')
    expect(await judge('/x')).toBe('matchingLine returned 1.5, not a line number ≥ 0 (or -1 for none)')
    // huge line numbers: past 2^53 the reports would show another number than the one returned.
    expect(await judge('/huge')).toBe('matchingLine returned 9007199254740992, not a line number ≥ 0 (or -1 for none)')
    await adapter.close()
  })

  it('regression: a module whose top-level await never settles was said only to have "ended its thread (exit status 13)"; the status is explained', async () => {
    const adapter = new ModuleAdapter({ path: mod('pending', 'await new Promise(() => {})\nexport function parse() {}'), multiAgent: false, timeoutMs: 5000, thread })
    await expect(adapter.start()).rejects.toThrow(/ended its thread \(exit status 13: its top-level await never settled\)/)
    await adapter.close()
  })

  it('a module without parse, or that cannot be imported, stops at start-up', async () => {
    await expect(new ModuleAdapter({ path: mod('none', 'export const x = 1'), multiAgent: false, timeoutMs: 5000, thread }).start()).rejects.toThrow(/exports no parse\(bytes\) function/)
    await expect(new ModuleAdapter({ path: join(dir, 'missing.mjs'), multiAgent: false, timeoutMs: 5000, thread }).start()).rejects.toThrow(/--module: cannot import/)
  })

  it('a throw without a readable message (a null-prototype object, a message getter that throws) is an error answer; it stopped the run with exit 1', async () => {
    const path = mod(
      'odd-throws',
      `export function parse(bytes) {
  const kind = new TextDecoder().decode(bytes)
  if (kind === 'parse-getter') { const e = new Error('x'); Object.defineProperty(e, 'message', { get() { throw new Error('getter') } }); throw e }
  return {
    isAllowed(url) {
      if (url === '/null-proto') throw Object.create(null)
      if (url === '/no-string') return { toJSON() { throw 1 }, toString() { throw 2 } }
      return true
    },
  }
}`,
    )
    const adapter = new ModuleAdapter({ path, multiAgent: false, timeoutMs: 5000, thread })
    await adapter.start()
    const got: unknown[] = []
    await adapter.judgeAll(
      [
        { robots: new Uint8Array(0), agents: ['a'], url: '/null-proto' },
        { robots: new Uint8Array(Buffer.from('parse-getter')), agents: ['a'], url: '/' },
        { robots: new Uint8Array(0), agents: ['a'], url: '/no-string' },
      ],
      (i, a) => (got[i] = a.error),
    )
    expect(got).toEqual([
      'threw: a value without a string form (object)',
      'parse() threw: a value without a string form (object)',
      'isAllowed returned a value without a string form (object), not a boolean',
    ])
    await adapter.close()
    const throwing = mod('throws-at-import', 'throw Object.create(null)')
    await expect(new ModuleAdapter({ path: throwing, multiAgent: false, timeoutMs: 5000, thread }).start()).rejects.toThrow("--module: cannot import '" + throwing + "': a value without a string form (object)")
  })

  it.skipIf(process.platform === 'win32')('refuses a device or a FIFO at once (--module /dev/zero was read without end)', async () => {
    const fifo = join(dir, 'adapter.fifo')
    spawnSync('mkfifo', [fifo])
    for (const path of ['/dev/zero', fifo]) {
      const adapter = new ModuleAdapter({ path, multiAgent: false, timeoutMs: 5000, thread })
      await expect(adapter.start()).rejects.toThrow(`--module: cannot import '${path}': not a regular file`)
    }
  })

  it('regression: a call that never returns (a loop in isAllowed, or at import) hung compare for ever: past --timeout the thread is stopped and the case named', async () => {
    const path = mod('loops', `export function parse() { return { isAllowed(url) { if (url === '/stuck') for (;;) {} return true } } }`)
    const adapter = new ModuleAdapter({ path, multiAgent: false, timeoutMs: 100, thread })
    await adapter.start()
    const robots = new Uint8Array(0)
    const run = adapter.judgeAll(
      ['/a', '/b', '/stuck', '/c'].map((url, i) => ({ robots, agents: ['x'], url, id: `c${i}` })),
      () => {},
    )
    await expect(run).rejects.toThrow('--module: a call for case c2 (agent "x", URL "/stuck") did not return within 100 ms (--timeout)')
    await expect(adapter.judge({ robots, agents: ['x'], url: '/d' })).rejects.toThrow(/did not return/)
    await adapter.close()
    const atImport = new ModuleAdapter({ path: mod('loops-at-import', 'for (;;) {}'), multiAgent: false, timeoutMs: 100, thread })
    await expect(atImport.start()).rejects.toThrow(/^--module: importing '.*loops-at-import\.mjs' did not return within 100 ms \(--timeout\)$/)
    await atImport.close()
  })
})
