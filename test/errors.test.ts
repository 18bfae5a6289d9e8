/**
 * The error model: every error the library throws is an `instanceof
 * RobotsError` with a stable code, and those that stand for a built-in kind
 * (TypeError, RangeError) are instances of it too. The public API is walked
 * with bad arguments, parameter by parameter, and each throw is checked for
 * its class and its exact code.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  classifyHost,
  describeFetchResult,
  escapePattern,
  fetchRobots,
  isValidProductToken,
  parseRobots,
  parseRobotsStream,
  pathOf,
  productTokens,
  reportLines,
  Robots,
  RobotsCache,
  RobotsError,
  RobotsFormatError,
  RobotsInputError,
  RobotsLimitError,
  RobotsRangeError,
  robotsLocation,
  type RobotsErrorCode,
} from '../src/index.js'
import {
  checkLimit,
  createParser,
  lineMetadata,
  LineReader,
  parseInto,
  patternMatches,
  referenceDecide,
  compactRulesOf,
} from '../src/internals.js'
import { asyncChunks, Recorder } from './support/core-helpers.js'
import { ENGINES } from './support/engines.js'

const enc = new TextEncoder()
const BODY = 'User-agent: *\nDisallow: /private\nAllow: /private/ok\n'

/** Which built-in error kind a code promises (none: a plain RobotsError). */
const KIND: Record<RobotsErrorCode, ErrorConstructor | null> = {
  ERR_INPUT: TypeError,
  ERR_LIMIT: RangeError,
  ERR_BUDGET: RangeError,
  ERR_CAPACITY: RangeError,
  ERR_RANGE: RangeError,
  ERR_FORMAT: null,
  ERR_VERSION: null,
  ERR_FETCH: null,
  ERR_LOCAL: null,
}

/**
 * Checks the class and code of `err`, and that its message names what is at
 * fault: `names`, the parameter, option or function (or the value given),
 * so that a caller can tell which argument to fix.
 */
function checkError(err: unknown, code: RobotsErrorCode, what: string, names: string | RegExp): void {
  expect(err, `${what}: threw nothing`).toBeDefined()
  expect(err, `${what}: ${String(err)}`).toBeInstanceOf(RobotsError)
  expect((err as RobotsError).code, what).toBe(code)
  const kind = KIND[code]
  if (kind) expect(err, `${what} is a ${kind.name}`).toBeInstanceOf(kind)
  const message = (err as Error).message
  expect(typeof message).toBe('string')
  if (typeof names === 'string') expect(message, `${what}: the message names ${names}`).toContain(names)
  else expect(message, `${what}: the message names what is at fault`).toMatch(names)
}

/** Calls `f` and checks that it throws a RobotsError with `code`, its message naming `names`. */
function throwsCode(code: RobotsErrorCode, what: string, names: string | RegExp, f: () => unknown): void {
  let err: unknown
  try {
    f()
  } catch (e) {
    err = e
  }
  checkError(err, code, what, names)
}

/** Awaits `f()` and checks that it rejects with a RobotsError with `code`, its message naming `names`. */
async function rejectsCode(code: RobotsErrorCode, what: string, names: string | RegExp, f: () => Promise<unknown>): Promise<void> {
  let err: unknown
  try {
    await f()
  } catch (e) {
    err = e
  }
  checkError(err, code, what, names)
}

const show = (v: unknown): string => {
  try {
    return typeof v === 'symbol' || typeof v === 'bigint' ? String(v) : (JSON.stringify(v) ?? String(v))
  } catch {
    return Object.prototype.toString.call(v)
  }
}

/** What a message about a URL that is not an absolute http(s) URL must quote: the URL given, or its scheme. */
const urlAtFault = (bad: unknown): string => {
  const scheme = typeof bad === 'string' ? /^([a-z]+):./i.exec(bad)?.[1] : undefined
  return scheme !== undefined && !/^https?$/i.test(scheme) ? `got ${scheme}:` : `"${String(bad)}"`
}

/** Values of no type the API takes anywhere (strings and Uint8Arrays aside). */
const NOT_STRING_OR_BYTES: unknown[] = [undefined, null, 42, true, {}, [], () => 1, Symbol('s'), 10n, new ArrayBuffer(4), new Uint16Array(2), new Int8Array(2)]
const NOT_STRING: unknown[] = [...NOT_STRING_OR_BYTES, new Uint8Array(2)]
const NOT_BYTES: unknown[] = [...NOT_STRING_OR_BYTES, 'text']
const NOT_OBJECT: unknown[] = [null, 42, 'x', true, [], Symbol('o')]

describe('the error tree', () => {
  it('every class is a RobotsError with its code, and the built-in kind it stands for', () => {
    const input = new RobotsInputError('x')
    const range = new RobotsRangeError('ERR_CAPACITY', 'x')
    const limit = new RobotsLimitError('x')
    const format = new RobotsFormatError('ERR_VERSION', 'x')
    const base = new RobotsError('ERR_FETCH', 'x')
    for (const e of [input, range, limit, format, base]) expect(e).toBeInstanceOf(RobotsError)
    expect(input).toBeInstanceOf(TypeError)
    expect(input.code).toBe('ERR_INPUT')
    expect(range).toBeInstanceOf(RangeError)
    expect(limit).toBeInstanceOf(RangeError)
    expect(limit).toBeInstanceOf(RobotsRangeError)
    expect(limit.code).toBe('ERR_LIMIT')
    expect(limit.name).toBe('RobotsLimitError')
    expect(format.code).toBe('ERR_VERSION')
    expect(base.code).toBe('ERR_FETCH')
  })

  it('subclasses keep the ordinary instanceof; foreign errors are not RobotsErrors', () => {
    expect(new RobotsInputError('x')).not.toBeInstanceOf(RobotsFormatError)
    expect(new RobotsRangeError('ERR_RANGE', 'x')).not.toBeInstanceOf(RobotsLimitError)
    expect(new RobotsFormatError('ERR_FORMAT', 'x')).not.toBeInstanceOf(RobotsRangeError)
    expect(new RobotsError('ERR_FETCH', 'x')).not.toBeInstanceOf(RobotsFormatError)
    for (const foreign of [new Error('x'), new TypeError('x'), new RangeError('x'), { code: 'ERR_INPUT' }, null, 'ERR_INPUT', 42]) {
      expect(foreign instanceof RobotsError).toBe(false)
    }
  })
})

describe('parseRobots, reportLines, parseInto, createParser, LineReader', () => {
  it('input of another type than string or Uint8Array: ERR_INPUT', () => {
    for (const bad of NOT_STRING_OR_BYTES) {
      throwsCode('ERR_INPUT', `parseRobots(${show(bad)})`, 'robots.txt input', () => parseRobots(bad as string))
      throwsCode('ERR_INPUT', `reportLines(${show(bad)})`, 'robots.txt input', () => reportLines(bad as string))
      throwsCode('ERR_INPUT', `parseInto(${show(bad)})`, 'robots.txt input', () => parseInto(bad as string, new Recorder()))
    }
  })

  it('regression: an argument whose Symbol.toStringTag getter throws is still ERR_INPUT (describing it for the message threw the getter\'s error)', () => {
    const tagged = {
      get [Symbol.toStringTag](): string {
        throw new Error('tag getter')
      },
    }
    throwsCode('ERR_INPUT', 'parseRobots(tagged)', 'an object', () => parseRobots(tagged as unknown as string))
    throwsCode('ERR_INPUT', 'agent(tagged)', 'an object', () => parseRobots(BODY).agent(tagged as unknown as string))
    throwsCode('ERR_INPUT', 'isAllowed(tagged)', 'an object', () => parseRobots(BODY).agent('x').isAllowed(tagged as unknown as string))
    throwsCode('ERR_INPUT', 'Robots.fromBytes(tagged)', 'an object', () => Robots.fromBytes(tagged as unknown as Uint8Array))
    throwsCode('ERR_INPUT', 'productTokens(tagged)', 'an object', () => productTokens(tagged as unknown as string))
  })

  it('an options argument that is not an object: ERR_INPUT', () => {
    for (const bad of NOT_OBJECT) {
      throwsCode('ERR_INPUT', `parseRobots(body, ${show(bad)})`, 'parseRobots: options', () => parseRobots(BODY, bad as object))
      throwsCode('ERR_INPUT', `reportLines(body, ${show(bad)})`, 'reportLines: options', () => reportLines(BODY, bad as object))
      throwsCode('ERR_INPUT', `Robots.fromBytes(bytes, ${show(bad)})`, 'Robots.fromBytes: options', () => Robots.fromBytes(parseRobots(BODY).toBytes(), bad as object))
    }
  })

  it('limit: not a number >= 512,000 is ERR_LIMIT, everywhere a limit is taken', () => {
    for (const bad of [0, -1, 511_999, Number.NaN, '600000', null, {}, true]) {
      const limit = bad as number
      throwsCode('ERR_LIMIT', `parseRobots limit ${show(bad)}`, 'limit must be', () => parseRobots(BODY, { limit }))
      throwsCode('ERR_LIMIT', `reportLines limit ${show(bad)}`, 'limit must be', () => reportLines(BODY, { limit }))
      throwsCode('ERR_LIMIT', `parseInto limit ${show(bad)}`, 'limit must be', () => parseInto(BODY, new Recorder(), limit))
      throwsCode('ERR_LIMIT', `createParser limit ${show(bad)}`, 'limit must be', () => createParser(new Recorder(), limit))
      throwsCode('ERR_LIMIT', `LineReader limit ${show(bad)}`, 'limit must be', () => new LineReader(() => {}, limit))
      throwsCode('ERR_LIMIT', `checkLimit ${show(bad)}`, 'limit must be', () => checkLimit(limit))
    }
    expect(checkLimit(undefined)).toBe(512_000)
  })

  it('matcherBudget: not a number >= 4096 is ERR_BUDGET, at once (not at agent())', () => {
    for (const bad of [10, 0, -1, 4095, Number.NaN, '4096', null, {}]) {
      const matcherBudget = bad as number
      throwsCode('ERR_BUDGET', `parseRobots matcherBudget ${show(bad)}`, 'matcherBudget', () => parseRobots(BODY, { matcherBudget }))
      throwsCode('ERR_BUDGET', `fromBytes matcherBudget ${show(bad)}`, 'matcherBudget', () => Robots.fromBytes(parseRobots(BODY).toBytes(), { matcherBudget }))
    }
    expect(parseRobots(BODY, { matcherBudget: 4096 }).agent('x').isAllowed('/private')).toBe(false)
  })

  it('engine: anything but automaton or plain is ERR_INPUT', () => {
    for (const bad of ['fast', 'Plain', 1, null, {}]) {
      const engine = bad as 'plain'
      throwsCode('ERR_INPUT', `parseRobots engine ${show(bad)}`, 'engine', () => parseRobots(BODY, { engine }))
      throwsCode('ERR_INPUT', `fromBytes engine ${show(bad)}`, 'engine', () => Robots.fromBytes(parseRobots(BODY).toBytes(), { engine }))
    }
  })

  it('hotThreshold: not a whole number >= 0 (or Infinity) is ERR_RANGE; tier: not cold, hot or thrash-proof is ERR_INPUT; at once', () => {
    for (const bad of [-1, 1.5, Number.NaN, '1', null, {}]) {
      const hotThreshold = bad as number
      throwsCode('ERR_RANGE', `parseRobots hotThreshold ${show(bad)}`, 'hotThreshold', () => parseRobots(BODY, { hotThreshold }))
      throwsCode('ERR_RANGE', `fromBytes hotThreshold ${show(bad)}`, 'hotThreshold', () => Robots.fromBytes(parseRobots(BODY).toBytes(), { hotThreshold }))
    }
    for (const bad of ['warm', 'Hot', 1, null, {}]) {
      const tier = bad as 'hot'
      throwsCode('ERR_INPUT', `parseRobots tier ${show(bad)}`, 'tier', () => parseRobots(BODY, { tier }))
      throwsCode('ERR_INPUT', `fromBytes tier ${show(bad)}`, 'tier', () => Robots.fromBytes(parseRobots(BODY).toBytes(), { tier }))
    }
    expect(Robots.fromBytes(parseRobots(BODY).toBytes(), { tier: 'thrash-proof' }).agent('x').stats().tier).toBe('thrash-proof')
  })

  it('a handler without the ParseHandler methods: ERR_INPUT', () => {
    const noop = () => {}
    const partial = { userAgent: noop, allow: noop, disallow: noop, sitemap: noop }
    for (const bad of [...NOT_OBJECT, {}, partial, { ...partial, unknown: 1 }, { ...partial, unknown: noop, lineEnd: 'x' }]) {
      throwsCode('ERR_INPUT', `parseInto(body, ${show(bad)})`, 'ParseHandler', () => parseInto(BODY, bad as Recorder))
      throwsCode('ERR_INPUT', `createParser(${show(bad)})`, 'ParseHandler', () => createParser(bad as Recorder))
    }
    expect(() => parseInto(BODY, { ...partial, unknown: noop })).not.toThrow()
  })

  it('LineReader: a sink that is not a function, a chunk that is not a Uint8Array: ERR_INPUT', () => {
    for (const bad of [null, 42, {}, 'sink']) {
      throwsCode('ERR_INPUT', `new LineReader(${show(bad)})`, 'LineReader', () => new LineReader(bad as () => void))
    }
    const reader = new LineReader(() => {})
    for (const bad of NOT_BYTES) throwsCode('ERR_INPUT', `push(${show(bad)})`, 'LineReader.push', () => reader.push(bad as Uint8Array))
    expect(reader.push(enc.encode('a\n'))).toBe(true)
  })
})

describe('parseRobotsStream', () => {
  it('a source that is neither an AsyncIterable nor a ReadableStream: ERR_INPUT', async () => {
    for (const bad of [...NOT_STRING_OR_BYTES, 'text', new Uint8Array(4), [enc.encode('a')]]) {
      await rejectsCode('ERR_INPUT', `parseRobotsStream(${show(bad)})`, 'parseRobotsStream', () => parseRobotsStream(bad as AsyncIterable<Uint8Array>))
    }
  })

  it('chunks that are not bytes or strings: ERR_INPUT', async () => {
    for (const bad of [42, null, {}, [1, 2], new Uint16Array(2)]) {
      async function* source() {
        yield enc.encode('User-agent: *\n')
        yield bad as Uint8Array
      }
      await rejectsCode('ERR_INPUT', `chunk ${show(bad)}`, 'stream chunks', () => parseRobotsStream(source()))
    }
  })

  it('bad options reject before the source is read', async () => {
    const cases: [RobotsErrorCode, unknown, string][] = [
      ['ERR_INPUT', null, 'parseRobotsStream: options'],
      ['ERR_INPUT', 42, 'parseRobotsStream: options'],
      ['ERR_LIMIT', { limit: 1000 }, 'limit must be'],
      ['ERR_BUDGET', { matcherBudget: 10 }, 'matcherBudget'],
      ['ERR_INPUT', { engine: 'fast' }, 'engine'],
      ['ERR_RANGE', { hotThreshold: -1 }, 'hotThreshold'],
      ['ERR_INPUT', { tier: 'warm' }, 'tier'],
    ]
    for (const [code, options, names] of cases) {
      let read = false
      async function* source() {
        read = true
        yield enc.encode(BODY)
      }
      await rejectsCode(code, `parseRobotsStream options ${show(options)}`, names, () => parseRobotsStream(source(), options as object))
      expect(read, show(options)).toBe(false)
    }
    expect((await parseRobotsStream(asyncChunks([enc.encode(BODY)]))).agent('x').isAllowed('/private')).toBe(false)
  })
})

describe('Robots', () => {
  const robots = parseRobots(BODY)

  it('agent(token) with a token that is not a string: ERR_INPUT', () => {
    for (const bad of NOT_STRING) throwsCode('ERR_INPUT', `agent(${show(bad)})`, 'agent()', () => robots.agent(bad as string))
  })

  it('agents(tokens) with a non-array or a non-string token: ERR_INPUT', () => {
    const notArrays = NOT_STRING.filter((v) => !Array.isArray(v))
    for (const bad of [...notArrays, 'Googlebot']) throwsCode('ERR_INPUT', `agents(${show(bad)})`, 'agents()', () => robots.agents(bad as string[]))
    for (const bad of NOT_STRING) throwsCode('ERR_INPUT', `agents(['a', ${show(bad)}])`, 'agents()', () => robots.agents(['a', bad as string]))
  })

  it('rulesFor, crawlDelay, requestRate, visitTime, host with tokens that are neither a string nor strings: ERR_INPUT (none: the extension getters mean *)', () => {
    for (const bad of [...NOT_STRING.filter((v) => !Array.isArray(v)), [1], ['a', null]]) {
      throwsCode('ERR_INPUT', `rulesFor(${show(bad)})`, 'rulesFor()', () => robots.rulesFor(bad as string))
      if (bad === undefined) continue
      throwsCode('ERR_INPUT', `crawlDelay(${show(bad)})`, 'crawlDelay()', () => robots.crawlDelay(bad as string))
      throwsCode('ERR_INPUT', `requestRate(${show(bad)})`, 'requestRate()', () => robots.requestRate(bad as string))
      throwsCode('ERR_INPUT', `visitTime(${show(bad)})`, 'visitTime()', () => robots.visitTime(bad as string))
      throwsCode('ERR_INPUT', `host(${show(bad)})`, 'host()', () => robots.host(bad as string))
    }
  })

  it('Robots.fromBytes: a non-Uint8Array is ERR_INPUT, a foreign buffer ERR_FORMAT, another version ERR_VERSION', () => {
    for (const bad of NOT_BYTES) throwsCode('ERR_INPUT', `fromBytes(${show(bad)})`, 'Robots.fromBytes takes a Uint8Array', () => Robots.fromBytes(bad as Uint8Array))
    const good = robots.toBytes()
    throwsCode('ERR_FORMAT', 'fromBytes(empty)', 'not a serialised robots.txt', () => Robots.fromBytes(new Uint8Array(0)))
    throwsCode('ERR_FORMAT', 'fromBytes(text)', 'not a serialised robots.txt', () => Robots.fromBytes(enc.encode(BODY)))
    throwsCode('ERR_FORMAT', 'fromBytes(cut)', /length \d+ in the header does not match the \d+ bytes given/, () => Robots.fromBytes(good.subarray(0, good.length - 1)))
    const flipped = good.slice()
    flipped[flipped.length - 2] ^= 1
    throwsCode('ERR_FORMAT', 'fromBytes(flipped)', 'checksum', () => Robots.fromBytes(flipped))
    const v1 = good.slice()
    v1[4] = 1
    throwsCode('ERR_VERSION', 'fromBytes(version 1)', 'format version 1', () => Robots.fromBytes(v1))
    const v5 = good.slice()
    v5[4] = 5
    throwsCode('ERR_VERSION', 'fromBytes(version 5)', 'format version 5', () => Robots.fromBytes(v5))
    for (const e of [flipped, v1, v5]) {
      try {
        Robots.fromBytes(e)
      } catch (err) {
        expect(err).toBeInstanceOf(RobotsFormatError)
      }
    }
  })
})

describe('AgentMatcher', () => {
  for (const { name: engine, options } of ENGINES) {
    const m = parseRobots(BODY, options).agent('Googlebot')

    it(`${engine}: isAllowed and explain take a string, a URL or bytes; anything else is ERR_INPUT`, () => {
      for (const bad of [undefined, null, 42, true, {}, [], () => 1, Symbol('u'), new ArrayBuffer(4), new Uint16Array(2), { href: '/private' }]) {
        throwsCode('ERR_INPUT', `${engine} isAllowed(${show(bad)})`, 'a URL must be', () => m.isAllowed(bad as string))
        throwsCode('ERR_INPUT', `${engine} explain(${show(bad)})`, 'a URL must be', () => m.explain(bad as string))
      }
      expect(m.isAllowed(new URL('https://example.com/private/x'))).toBe(false)
      expect(m.explain(new URL('https://example.com/private/ok')).rule?.line).toBe(3)
    })

    it(`${engine}: regression (issue 12: isAllowed(new URL(…)) under Disallow: /x returned true, 42 and {} too): agent() and agents() matchers judge a URL object, and refuse other types`, () => {
      const body = 'User-agent: *\nDisallow: /x\n\nUser-agent: a\nUser-agent: b\nDisallow: /y\n'
      const robots = parseRobots(body, options)
      const matchers = [robots.agent('bot'), robots.agents(['a', 'b']), robots.agents(['a', 'zz'])]
      const want = [
        ['https://e.com/x', false, true],
        ['https://e.com/y', true, false],
        ['https://e.com/x?q#f', false, true],
        ['https://e.com/%78', true, true], // the URL is matched as given: %78 is not x
      ] as const
      matchers.forEach((mm, k) => {
        for (const [url, allGlobal, allNamed] of want) {
          const expected = k === 0 ? allGlobal : allNamed
          expect(mm.isAllowed(new URL(url)), `${k} ${url}`).toBe(expected)
          expect(mm.explain(new URL(url)).allowed).toBe(expected)
          expect(mm.isAllowed(url)).toBe(expected)
        }
        for (const bad of [42, {}, undefined, null, new ArrayBuffer(2)]) {
          throwsCode('ERR_INPUT', `${engine} matcher ${k} isAllowed(${show(bad)})`, 'a URL must be', () => mm.isAllowed(bad as string))
          throwsCode('ERR_INPUT', `${engine} matcher ${k} explain(${show(bad)})`, 'a URL must be', () => mm.explain(bad as string))
        }
      })
    })

    it(`${engine}: matchLines checks every argument's type (ERR_INPUT) and room (ERR_CAPACITY)`, () => {
      const lines = enc.encode('/a\n/private\n/c')
      for (const bad of NOT_BYTES) throwsCode('ERR_INPUT', `matchLines(${show(bad)})`, 'matchLines: bytes', () => m.matchLines(bad as Uint8Array))
      for (const bad of [null, 42, [], new Int32Array(3), new Uint8ClampedArray(3), 'out'] as unknown[]) {
        throwsCode('ERR_INPUT', `matchLines(bytes, ${show(bad)})`, 'matchLines: out', () => m.matchLines(lines, bad as Uint8Array))
      }
      for (const bad of [null, 42, [], new Uint8Array(3), new Float64Array(3), new Uint32Array(3)] as unknown[]) {
        throwsCode('ERR_INPUT', `matchLines ruleLines ${show(bad)}`, 'matchLines: ruleLines', () => m.matchLines(lines, undefined, bad as Int32Array))
        throwsCode('ERR_INPUT', `matchLines lineEnds ${show(bad)}`, 'matchLines: lineEnds', () => m.matchLines(lines, undefined, undefined, bad as Int32Array))
      }
      throwsCode('ERR_CAPACITY', 'out too small', 'out has room for 2 lines', () => m.matchLines(lines, new Uint8Array(2)))
      throwsCode('ERR_CAPACITY', 'ruleLines too small', 'ruleLines has room for 2 lines', () => m.matchLines(lines, new Uint8Array(3), new Int32Array(2)))
      throwsCode('ERR_CAPACITY', 'lineEnds too small', 'lineEnds has room for 0 lines', () => m.matchLines(lines, new Uint8Array(3), new Int32Array(3), new Int32Array(0)))
      expect([...m.matchLines(lines, new Uint8Array(3), new Int32Array(3), new Int32Array(3))]).toEqual([1, 0, 1])
    })

    it(`${engine}: matchRange takes bytes (ERR_INPUT) and a range inside them (ERR_RANGE)`, () => {
      const bytes = enc.encode('xx/private/yy')
      for (const bad of NOT_BYTES) throwsCode('ERR_INPUT', `matchRange(${show(bad)})`, 'matchRange: bytes', () => m.matchRange(bad as Uint8Array, 0, 0))
      const ranges: [unknown, unknown][] = [
        [-1, 4], [0, bytes.length + 1], [5, 4], [0.5, 4], [0, 4.5], [Number.NaN, 4], [0, Number.NaN],
        ['0', 4], [undefined, undefined], [null, 4], [0, Infinity], [2 ** 32, 2 ** 32],
      ]
      for (const [start, end] of ranges) {
        throwsCode('ERR_RANGE', `matchRange(${show(start)}, ${show(end)})`, `is not a range of a ${bytes.length}-byte buffer`, () => m.matchRange(bytes, start as number, end as number))
      }
      expect(m.matchRange(bytes, 2, 11)).toBe(2 * 2 + 0)
      expect(m.matchRange(bytes, 13, 13)).toBe(1)
    })
  }
})

describe('helpers', () => {
  it('isValidProductToken, pathOf and escapePattern take strings: ERR_INPUT', () => {
    for (const bad of NOT_STRING) {
      throwsCode('ERR_INPUT', `isValidProductToken(${show(bad)})`, 'isValidProductToken', () => isValidProductToken(bad as string))
      throwsCode('ERR_INPUT', `pathOf(${show(bad)})`, 'pathOf', () => pathOf(bad as string))
      throwsCode('ERR_INPUT', `escapePattern(${show(bad)})`, 'escapePattern', () => escapePattern(bad as string))
    }
  })

  it('productTokens takes a User-Agent header string: ERR_INPUT', () => {
    for (const bad of NOT_STRING) throwsCode('ERR_INPUT', `productTokens(${show(bad)})`, 'productTokens()', () => productTokens(bad as string))
    expect(productTokens('Googlebot/2.1 (+http://www.google.com/bot.html)')).toEqual(['Googlebot'])
  })

  it('lineMetadata takes LineFlag bits: ERR_INPUT', () => {
    for (const bad of ['1', null, undefined, {}]) throwsCode('ERR_INPUT', `lineMetadata(${show(bad)})`, 'lineMetadata', () => lineMetadata(bad as number))
  })

  it('referenceDecide and patternMatches: ERR_INPUT for arguments of other types', () => {
    const rules = compactRulesOf(parseRobots(BODY))
    const path = enc.encode('/private')
    for (const bad of [null, 42, {}, { events: [] }, 'rules'] as unknown[]) {
      throwsCode('ERR_INPUT', `referenceDecide(${show(bad)})`, 'referenceDecide: rules', () => referenceDecide(bad as typeof rules, ['a'], path))
    }
    for (const bad of [null, 'a', [1], {}]) throwsCode('ERR_INPUT', `referenceDecide tokens ${show(bad)}`, 'referenceDecide: tokens', () => referenceDecide(rules, bad as string[], path))
    for (const bad of NOT_BYTES) {
      throwsCode('ERR_INPUT', `referenceDecide path ${show(bad)}`, 'referenceDecide: path', () => referenceDecide(rules, ['a'], bad as Uint8Array))
      throwsCode('ERR_INPUT', `patternMatches(${show(bad)}, p)`, 'patternMatches', () => patternMatches(bad as Uint8Array, path))
      throwsCode('ERR_INPUT', `patternMatches(p, ${show(bad)})`, 'patternMatches', () => patternMatches(path, bad as Uint8Array))
    }
    expect(referenceDecide(rules, ['a'], path).allowed).toBe(false)
  })
})

describe('fetch layer', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it('robotsLocation and fetchRobots: anything but an absolute http(s) URL is ERR_INPUT', async () => {
    for (const bad of [42, null, undefined, {}, '', '/robots.txt', 'example.com', 'ftp://example.com/', 'mailto:a@b', 'http://']) {
      throwsCode('ERR_INPUT', `robotsLocation(${show(bad)})`, urlAtFault(bad), () => robotsLocation(bad as string))
      await rejectsCode('ERR_INPUT', `fetchRobots(${show(bad)})`, urlAtFault(bad), () => fetchRobots(bad as string, { fetch: () => Promise.reject(new Error('not called')) }))
    }
  })

  it('fetchRobots: a limit below 500 KiB is ERR_LIMIT, a negative time ERR_INPUT, no fetch at all ERR_FETCH', async () => {
    const fetch = () => Promise.reject(new Error('not called'))
    await rejectsCode('ERR_LIMIT', 'fetchRobots limit', 'limit must be', () => fetchRobots('https://example.com/', { fetch, limit: 1000 }))
    await rejectsCode('ERR_INPUT', 'fetchRobots timeoutMs', 'timeoutMs', () => fetchRobots('https://example.com/', { fetch, timeoutMs: -1 }))
    vi.stubGlobal('fetch', undefined)
    await rejectsCode('ERR_FETCH', 'fetchRobots without fetch', 'options.fetch', () => fetchRobots('https://example.com/'))
  })

  it('fetchRobots: options of the wrong type are ERR_INPUT before any request', async () => {
    let called = 0
    const fetch = () => {
      called++
      return Promise.reject(new Error('not called'))
    }
    const bad: [string, unknown][] = [
      ['options null', null],
      ['options 5', 5],
      ['fetch', { fetch: 5 }],
      ['signal', { fetch, signal: 5 }],
      ['signal object', { fetch, signal: {} }],
      ['now', { fetch, now: 5 }],
      ['userAgent', { fetch, userAgent: 5 }],
      ['allowPrivateRedirects', { fetch, allowPrivateRedirects: 'yes' }],
      ['redirectFilter', { fetch, redirectFilter: 5 }],
      ['maxRedirects', { fetch, maxRedirects: Number.NaN }],
    ]
    for (const [what, options] of bad) {
      await rejectsCode('ERR_INPUT', `fetchRobots ${what}`, what.split(' ')[0], () => fetchRobots('https://example.com/', options as object))
    }
    expect(called).toBe(0)
  })

  it('classifyHost takes a host string or a URL: ERR_INPUT', () => {
    for (const bad of [42, null, undefined, {}, [], new Uint8Array(2)]) {
      throwsCode('ERR_INPUT', `classifyHost(${show(bad)})`, 'classifyHost', () => classifyHost(bad as string))
    }
    expect(classifyHost('127.0.0.1')).toBe('loopback')
    expect(classifyHost(new URL('http://example.com/'))).toBeUndefined()
  })

  it('describeFetchResult takes a fetchRobots result: ERR_INPUT', () => {
    for (const bad of [null, 42, {}, { outcome: 'ok' }, { outcome: 'maybe', redirects: [] }]) {
      throwsCode('ERR_INPUT', `describeFetchResult(${show(bad)})`, 'describeFetchResult', () => describeFetchResult(bad as never))
    }
  })

  it('RobotsCache: options not an object ERR_INPUT, maxBytes out of range ERR_BUDGET, maxStaleMs ERR_INPUT, bad URLs ERR_INPUT', async () => {
    for (const bad of [null, 42, 'x'] as unknown[]) throwsCode('ERR_INPUT', `new RobotsCache(${show(bad)})`, 'RobotsCache: options', () => new RobotsCache(bad as object))
    for (const bad of [-1, Number.NaN, '1', null]) {
      throwsCode('ERR_BUDGET', `RobotsCache maxBytes ${show(bad)}`, 'maxBytes', () => new RobotsCache({ maxBytes: bad as number }))
    }
    for (const bad of [-1, Number.NaN, '1']) {
      throwsCode('ERR_INPUT', `RobotsCache maxStaleMs ${show(bad)}`, 'maxStaleMs', () => new RobotsCache({ maxStaleMs: bad as number }))
    }
    const cache = new RobotsCache({ fetch: async () => new Response(BODY, { status: 200 }) })
    for (const bad of [42, null, 'mailto:a@b', '/relative']) {
      await rejectsCode('ERR_INPUT', `cache.get(${show(bad)})`, urlAtFault(bad), () => cache.get(bad as string))
      await rejectsCode('ERR_INPUT', `cache.isAllowed(${show(bad)})`, urlAtFault(bad), () => cache.isAllowed(bad as string, 'bot'))
    }
    await rejectsCode('ERR_INPUT', 'cache.isAllowed(url, 42)', 'a crawler', () => cache.isAllowed('https://example.com/private', 42 as unknown as string))
    expect(await cache.isAllowed('https://example.com/private', 'bot')).toBe(false)
  })
})
