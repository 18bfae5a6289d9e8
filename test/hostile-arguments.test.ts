/**
 * Arguments a careless or hostile caller passes to the public API: values
 * whose coercion throws or lies (BigInt, Symbol, objects with valueOf or
 * toString), arrays with holes, views of detached buffers. Each is a coded
 * RobotsError, or read as documented; never an uncoded TypeError, and
 * never a call of the caller's own valueOf or toString.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkOutput, createNodeTransport, DnsCache, describeSystemError, OutputWriter, writeFileAtomic, writeOutput } from '../src/node.js'
import { BundleWriter, fetchRobots, lineEnd, parseRobots, parseRobotsStream, RobotsError, RobotsStore, robotsLocation, UrlScan, urlEnd } from '../src/index.js'

const BODY = 'User-agent: Googlebot\nDisallow: /g\n\nUser-agent: *\nDisallow: /s\n'
const enc = new TextEncoder()

/** The code of what `f` throws (`'uncoded …'` for anything but a RobotsError, `'none'` when it returns). */
function codeOf(f: () => unknown): string {
  try {
    f()
  } catch (e) {
    return e instanceof RobotsError ? (e as RobotsError).code : `uncoded ${String((e as Error)?.message)}`
  }
  return 'none'
}

/** An object whose coercion throws: the library must never call it. */
function booby(): { calls: number } {
  const o = {
    calls: 0,
    valueOf(): number {
      o.calls++
      throw new Error('valueOf called')
    },
    toString(): string {
      o.calls++
      throw new Error('toString called')
    },
  }
  return o
}

function detachedBytes(): Uint8Array {
  const buffer = new ArrayBuffer(8)
  const view = new Uint8Array(buffer)
  structuredClone(buffer, { transfer: [buffer] })
  return view
}

describe('offsets and indexes of another type than number', () => {
  it('regression: matchRange, CrawlerSet.matchRange/matcher and UrlScan.scan with a BigInt, a Symbol or an object offset threw an uncoded TypeError (or called its valueOf): ERR_RANGE', () => {
    const robots = parseRobots(BODY)
    const m = robots.agent('Googlebot')
    const set = robots.crawlers(['Googlebot', 'x'])
    const bytes = enc.encode('/g/a')
    const scan = new UrlScan()
    for (const make of [() => 1n, () => Symbol('o'), booby]) {
      const bad = make() as unknown as number
      expect(codeOf(() => m.matchRange(bytes, bad, 2))).toBe('ERR_RANGE')
      expect(codeOf(() => m.matchRange(bytes, 0, bad))).toBe('ERR_RANGE')
      expect(codeOf(() => set.matchRange(bytes, bad, 2))).toBe('ERR_RANGE')
      expect(codeOf(() => set.matcher(bad))).toBe('ERR_RANGE')
      expect(codeOf(() => scan.scan(bytes, bad, 2))).toBe('ERR_RANGE')
      expect(codeOf(() => scan.scan(bytes, 0, bad))).toBe('ERR_RANGE')
      if (typeof bad === 'object') expect((bad as { calls: number }).calls).toBe(0)
    }
    expect(m.matchRange(bytes, 0, 4)).toBe(2 * 2)
  })
})

describe('lineEnd and urlEnd, as the package exports them', () => {
  it('regression: lineEnd and urlEnd took anything (null bytes: an uncoded TypeError; a negative start: an LF searched from the end): ERR_INPUT and ERR_RANGE', () => {
    const bytes = enc.encode('/a\n/b\r\n/c')
    for (const bad of [undefined, null, 42, '/a\n', [47, 10], new ArrayBuffer(3)] as unknown[]) {
      expect(codeOf(() => lineEnd(bad as Uint8Array, 0))).toBe('ERR_INPUT')
      expect(codeOf(() => urlEnd(bad as Uint8Array, 0, 0))).toBe('ERR_INPUT')
    }
    for (const bad of [-1, -8, 0.5, Number.NaN, bytes.length + 1, 1n, Symbol('s'), '0', null, undefined, booby()]) {
      expect(codeOf(() => lineEnd(bytes, bad as number)), String(typeof bad)).toBe('ERR_RANGE')
      expect(codeOf(() => urlEnd(bytes, bad as number, 2))).toBe('ERR_RANGE')
      expect(codeOf(() => urlEnd(bytes, 0, bad as number))).toBe('ERR_RANGE')
    }
    // lf before start is no line.
    expect(codeOf(() => urlEnd(bytes, 3, 2))).toBe('ERR_RANGE')
    // The convention itself, unchanged.
    expect(lineEnd(bytes, 0)).toBe(2)
    expect(lineEnd(bytes, 3)).toBe(6)
    expect(urlEnd(bytes, 3, 6)).toBe(5)
    expect(lineEnd(bytes, 7)).toBe(bytes.length)
    expect(lineEnd(bytes, bytes.length)).toBe(bytes.length)
    expect(urlEnd(bytes, 7, bytes.length)).toBe(bytes.length)
  })
})

describe('views of a detached buffer', () => {
  it('regression: matchLines and lineEnd on a view of a detached buffer threw an uncoded TypeError: the view has no bytes, so no lines', () => {
    const m = parseRobots(BODY).agent('Googlebot')
    expect(m.matchLines(detachedBytes()).length).toBe(0)
    expect(lineEnd(detachedBytes(), 0)).toBe(0)
    expect(urlEnd(detachedBytes(), 0, 0)).toBe(0)
  })
})

describe('agent lists with holes', () => {
  it('regression: an agent list with a hole passed the check (every() skips holes) and failed later as "isValidProductToken takes a string", or as an uncoded TypeError in a store: ERR_INPUT naming the call', () => {
    const robots = parseRobots(BODY)
    // eslint-disable-next-line no-sparse-arrays
    const holes = [, 'Googlebot'] as string[]
    const sparse = new Array<string>(2)
    for (const list of [holes, sparse]) {
      expect(codeOf(() => robots.agents(list))).toBe('ERR_INPUT')
      expect(() => robots.agents(list)).toThrow(/^agents\(\) takes/)
      expect(() => robots.isAllowed('/g', list)).toThrow(/^agents\(\) takes/)
      expect(() => robots.crawlDelay(list)).toThrow(/^crawlDelay\(\) takes/)
      expect(() => robots.crawlers([list])).toThrow(/^crawlers\(\): crawler 0/)
      const store = new RobotsStore()
      store.set('https://a.com', BODY)
      expect(codeOf(() => store.isAllowed('https://a.com/g', list))).toBe('ERR_INPUT')
      expect(codeOf(() => store.explain('https://a.com/g', list))).toBe('ERR_INPUT')
      expect(codeOf(() => store.crawlers([list]))).toBe('ERR_INPUT')
    }
    expect(robots.agents(['x', 'Googlebot']).isAllowed('/g')).toBe(false)
  })
})

describe('a store asked without an agent', () => {
  it('regression: RobotsStore.isAllowed(url) with no agent, as the first call, threw an uncoded TypeError (reading length of undefined): ERR_INPUT', () => {
    for (const call of ['isAllowed', 'explain', 'matcher'] as const) {
      const store = new RobotsStore()
      store.set('https://a.com', BODY)
      const id = store.lookup('https://a.com/g') as never
      const f = call === 'matcher' ? () => store.matcher(id, undefined as never) : () => store[call]('https://a.com/g', undefined as never)
      expect(codeOf(f), call).toBe('ERR_INPUT')
      // And still after an agent was used.
      expect(store.isAllowed('https://a.com/g', 'Googlebot')).toBe(false)
      expect(codeOf(f), `${call} after a call`).toBe('ERR_INPUT')
    }
  })
})

describe('error messages describe a bad value without coercing it', () => {
  it('regression: a limit, a BundleWriter count or a robotsLocation URL whose toString throws (or a detached view) threw the caller\'s error (or an uncoded TypeError) instead of the coded one', () => {
    for (const bad of [booby(), detachedBytes(), Symbol('s')]) {
      expect(codeOf(() => parseRobots('', { limit: bad as unknown as number }))).toBe('ERR_LIMIT')
      expect(codeOf(() => new RobotsStore({ limit: bad as unknown as number }))).toBe('ERR_LIMIT')
      expect(codeOf(() => new BundleWriter(bad as unknown as number))).toBe('ERR_INPUT')
      expect(codeOf(() => robotsLocation(bad as unknown as string))).toBe('ERR_INPUT')
      if (typeof bad === 'object' && 'calls' in bad) expect(bad.calls).toBe(0)
    }
  })
})

describe('parseRobotsStream: chunks and signals that cannot be described', () => {
  it('regression: a chunk or a signal whose Symbol.toStringTag getter throws rejected with that getter\'s error instead of ERR_INPUT', async () => {
    const evil = {
      get [Symbol.toStringTag](): string {
        throw new Error('tag read')
      },
    }
    async function* chunks(): AsyncGenerator<unknown> {
      yield evil
    }
    const code = async (p: () => Promise<unknown>): Promise<string> => {
      try {
        await p()
      } catch (e) {
        return e instanceof RobotsError ? (e as RobotsError).code : `uncoded ${(e as Error).message}`
      }
      return 'none'
    }
    expect(await code(() => parseRobotsStream(chunks() as AsyncIterable<Uint8Array>))).toBe('ERR_INPUT')
    expect(await code(() => parseRobotsStream(chunks() as AsyncIterable<Uint8Array>, { signal: evil as unknown as AbortSignal }))).toBe('ERR_INPUT')
  })
})

describe('BundleWriter.entry: keys and kinds of another type', () => {
  it('regression: BundleWriter.entry with an undefined or null key threw an uncoded TypeError, and a kind named as an Object method (constructor, toString, __proto__) was taken and written; both are ERR_INPUT', () => {
    for (const key of [undefined, null, 5, Symbol('k'), booby()]) {
      expect(codeOf(() => new BundleWriter(1).entry(key as unknown as string, 'unavailable', undefined, undefined))).toBe('ERR_INPUT')
    }
    for (const kind of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 5, undefined]) {
      expect(codeOf(() => new BundleWriter(1).entry('example.com', kind as 'robots', undefined, undefined)), String(kind)).toBe('ERR_INPUT')
    }
    expect(codeOf(() => new BundleWriter(1).entry('example.com', 'unavailable', undefined, undefined))).toBe('none')
  })
})

describe('the Node entry: arguments of another type', () => {
  it('regression: Node entry arguments not checked: createNodeTransport, DnsCache, checkOutput, writeOutput, writeFileAtomic and OutputWriter threw uncoded TypeErrors (or called the caller\'s toString), and a bad perAddress, connectTimeoutMs or resolver option was taken; each is ERR_INPUT', async () => {
    const code = async (f: () => unknown): Promise<string> => {
      try {
        await f()
      } catch (e) {
        return e instanceof RobotsError ? (e as RobotsError).code : `uncoded ${String((e as Error)?.message)}`
      }
      return 'none'
    }
    const b = booby()
    const calls: [string, () => unknown][] = [
      ['transport null', () => createNodeTransport(null as never)],
      ['perAddress 0', () => createNodeTransport({ perAddress: 0 })],
      ['perAddress "2"', () => createNodeTransport({ perAddress: '2' as never })],
      ['connectTimeoutMs NaN', () => createNodeTransport({ connectTimeoutMs: Number.NaN })],
      ['route 5', () => createNodeTransport({ route: 5 as never })],
      ['dns null', () => createNodeTransport({ dns: null as never })],
      ['dns timeoutMs "x"', () => new DnsCache({ timeoutMs: 'x' as never })],
      ['dns concurrency 0', () => new DnsCache({ concurrency: 0 })],
      ['dns servers "abc"', () => new DnsCache({ servers: 'abc' as never })],
      ['dns servers ["abc"]', () => new DnsCache({ servers: ['abc'] })],
      ['resolve 5', () => new DnsCache().resolve(5 as never)],
      ['stalled undefined', () => new DnsCache().stalled(undefined as never)],
      ['checkOutput symbol', () => checkOutput(Symbol('p') as never, 'report')],
      ['checkOutput booby', () => checkOutput(b as never, 'report')],
      ['checkOutput what', () => checkOutput('-', b as never)],
      ['writeOutput undefined', () => writeOutput(undefined as never, 'x')],
      ['writeOutput string', () => writeOutput('out.txt' as never, 'x')],
      ['writeOutput bytes', () => writeOutput(checkOutput('-', 'report'), 5 as never)],
      ['writeFileAtomic bytes', () => writeFileAtomic('/nonexistent-folder/x', undefined as never, 'report')],
      ['OutputWriter.open', () => OutputWriter.open({ kind: 'file' } as never)],
    ]
    for (const [name, f] of calls) expect(await code(f), name).toBe('ERR_INPUT')
    // A route that gives no target is the caller's fault, not the site unreachable.
    const transport = createNodeTransport({ route: () => ({ hosts: '127.0.0.1', port: 9, routed: true }) as never })
    expect(await code(() => fetchRobots('http://127.0.0.1:9/', { transport, privateAddresses: 'allow' })), 'route target').toBe('ERR_INPUT')
    transport.close()
    expect(describeSystemError(b)).toBe('an object')
    expect(b.calls).toBe(0)
  })

  it('regression: an output path with a lone surrogate was taken, and the file written under another name (U+FFFD in its place); checkOutput and writeFileAtomic refuse it (ERR_OUTPUT)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lone-'))
    try {
      expect(() => checkOutput(join(dir, 'report\uD800.txt'), 'report')).toThrow(expect.objectContaining({ code: 'ERR_OUTPUT', message: expect.stringMatching(/lone surrogate/) }))
      await expect(writeFileAtomic(join(dir, '\uDC00x'), 'data', 'report')).rejects.toMatchObject({ code: 'ERR_OUTPUT' })
      expect(readdirSync(dir)).toEqual([])
      expect(codeOf(() => checkOutput(join(dir, 'paired \uD83D\uDE00.txt'), 'report'))).toBe('none')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('a Robots of the other build', () => {
  it('regression: RobotsStore.setRobots and fetchRobots\' previous.robots, given a Robots of the other module format\'s build, said only "got [object Object]"; now they name it and the way across, as compactRulesOf does', async () => {
    // What a Robots of the CommonJS build is to the ESM build (and back): an object with its methods, not an instance.
    const robots = parseRobots('User-agent: *\nDisallow: /p\n')
    const other = { toBytes: () => robots.toBytes(), agent: (t: string) => robots.agent(t) }
    const named = expect.objectContaining({ code: 'ERR_INPUT', message: expect.stringMatching(/a Robots of another build .*Robots\.fromBytes\(robots\.toBytes\(\)\)/) })
    expect(() => new RobotsStore().setRobots('a.example', other as never)).toThrow(named)
    await expect(fetchRobots('https://a.example/', { fetch: async () => new Response('', { status: 304 }), previous: { robots: other as never } })).rejects.toThrow(named)
    // Anything else is still described as it is.
    expect(() => new RobotsStore().setRobots('a.example', {} as never)).toThrow(/got \[object Object\]$/)
  })
})

describe('regression: the classes with a private constructor (Robots, AgentMatcher, CrawlerSet, StoreCrawlers) called with new from JavaScript made broken objects or threw an uncoded TypeError', () => {
  it('each refuses with ERR_INPUT naming the class; the objects the library makes still work', async () => {
    const api = await import('../src/index.js')
    const classes = { Robots: api.Robots, AgentMatcher: api.AgentMatcher, CrawlerSet: api.CrawlerSet, StoreCrawlers: api.StoreCrawlers } as unknown as Record<string, new (...args: unknown[]) => unknown>
    for (const [name, C] of Object.entries(classes)) {
      for (const args of [[], [null], [new Uint8Array(8), {}]]) {
        let caught: unknown
        try {
          new C(...args)
        } catch (err) {
          caught = err
        }
        expect(caught, name).toBeInstanceOf(RobotsError)
        expect((caught as RobotsError).code, name).toBe('ERR_INPUT')
        expect((caught as Error).message, name).toBe(`${name} has no public constructor`)
      }
    }
    const robots = parseRobots('User-agent: *\nDisallow: /x\n')
    expect(robots.agent('a').isAllowed('/x')).toBe(false)
    expect(api.Robots.fromBytes(robots.toBytes()).agent('a').isAllowed('/y')).toBe(true)
    expect([...robots.crawlers(['a', 'b']).match('/x')]).toEqual([2 * 2, 2 * 2])
    const store = new RobotsStore()
    store.set('http://a.test', 'User-agent: *\nDisallow: /x\n')
    expect(store.crawlers(['a']).size).toBe(1)
  })
})
