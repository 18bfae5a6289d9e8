/**
 * `useWithCrawlee`'s own contract, on stand-ins of Crawlee's classes (no
 * install needed): what it accepts, what it refuses with a coded error
 * before anything is replaced, what it replaces and how `restore()` and a
 * second installation put things back. Real Crawlee: use-with-crawlee.test.ts.
 */
import { describe, expect, it, vi } from 'vitest'
import { useWithCrawlee, type CrawleeModule } from '../../src/crawlee.js'

/** A stand-in for Crawlee's RobotsTxtFile: a private-ish `robots` member that `isAllowed` asks (as Crawlee 3.13–3.18). */
function fakeCrawlee(options: { robotsMember?: boolean; crawler?: boolean } = {}) {
  class RobotsTxtFile {
    constructor(
      readonly url: string,
      robots: { isAllowed(url: string, ua?: string): boolean | undefined; getSitemaps(): string[] },
      readonly proxyUrl?: string,
    ) {
      if (options.robotsMember !== false) Object.defineProperty(this, 'robots', { value: robots, writable: true, enumerable: true, configurable: true })
      else this.rules = robots
    }
    rules?: { isAllowed(url: string, ua?: string): boolean | undefined }
    static async find(url: string): Promise<RobotsTxtFile> {
      return RobotsTxtFile.from(url, '')
    }
    static async load(url: string): Promise<RobotsTxtFile> {
      return RobotsTxtFile.from(url, '')
    }
    static from(url: string, _content: string, proxyUrl?: string): RobotsTxtFile {
      return new RobotsTxtFile(url, { isAllowed: () => true, getSitemaps: () => [] }, proxyUrl)
    }
    isAllowed(url: string, ua = '*'): boolean {
      const robots = (this as unknown as { robots?: { isAllowed(u: string, a: string): boolean | undefined } }).robots ?? this.rules!
      return robots.isAllowed(url, ua) ?? true
    }
  }
  class BasicCrawler {
    respectRobotsTxtFile = true
    async getRobotsTxtFileForUrl(): Promise<RobotsTxtFile | undefined> {
      return undefined
    }
  }
  return options.crawler === false ? { RobotsTxtFile } : { RobotsTxtFile, BasicCrawler }
}

describe('useWithCrawlee: what it takes and refuses', () => {
  it('refuses what is not Crawlee (or @crawlee/utils) with ERR_INPUT', () => {
    for (const bad of [null, undefined, 42, 'crawlee', {}, { RobotsTxtFile: 1 }, { RobotsTxtFile: class {} }]) {
      expect(() => useWithCrawlee(bad as unknown as CrawleeModule), String(bad)).toThrow(expect.objectContaining({ code: 'ERR_INPUT', name: 'RobotsInputError' }))
    }
  })

  it('refuses a Crawlee whose RobotsTxtFile keeps its rules elsewhere, naming the versions it supports, and replaces nothing', () => {
    const crawlee = fakeCrawlee({ robotsMember: false })
    const find = crawlee.RobotsTxtFile.find
    expect(() => useWithCrawlee(crawlee)).toThrow(/this Crawlee version is not supported.*3\.13 to 3\.18/)
    expect(crawlee.RobotsTxtFile.find).toBe(find)
  })

  it("regression: a RobotsTxtFile whose from or isAllowed throws on the install probe let that error out uncoded, and a second useWithCrawlee refused so had already undone the first one (Crawlee's own methods back, in silence); now ERR_INPUT, and the first installation stays", () => {
    const throwing = fakeCrawlee()
    throwing.RobotsTxtFile.from = () => {
      throw new Error('from failed')
    }
    expect(() => useWithCrawlee(throwing)).toThrow(expect.objectContaining({ code: 'ERR_INPUT', message: expect.stringMatching(/not supported.*from failed/) }))

    const crawlee = fakeCrawlee()
    const handle = useWithCrawlee(crawlee)
    const { find, from } = crawlee.RobotsTxtFile
    const hook = crawlee.BasicCrawler!.prototype.getRobotsTxtFileForUrl
    const isAllowed = crawlee.RobotsTxtFile.prototype.isAllowed
    crawlee.RobotsTxtFile.prototype.isAllowed = () => {
      throw new Error('isAllowed failed')
    }
    expect(() => useWithCrawlee(crawlee)).toThrow(expect.objectContaining({ code: 'ERR_INPUT', message: expect.stringMatching(/not supported.*isAllowed failed/) }))
    expect(crawlee.RobotsTxtFile.find).toBe(find)
    expect(crawlee.RobotsTxtFile.from).toBe(from)
    expect(crawlee.BasicCrawler!.prototype.getRobotsTxtFileForUrl).toBe(hook)
    crawlee.RobotsTxtFile.prototype.isAllowed = isAllowed
    handle.restore()
    expect(crawlee.RobotsTxtFile.find).not.toBe(find)
  })

  it('refuses bad options with coded errors before replacing anything', () => {
    const crawlee = fakeCrawlee()
    const from = crawlee.RobotsTxtFile.from
    const cases: [unknown, string][] = [
      [5, 'ERR_INPUT'],
      [{ userAgent: 5 }, 'ERR_INPUT'],
      [{ timeoutMs: -1 }, 'ERR_INPUT'],
      [{ timeoutMs: Infinity }, 'ERR_INPUT'],
      [{ maxTtlMs: Number.NaN }, 'ERR_INPUT'],
      [{ maxRedirects: '5' }, 'ERR_INPUT'],
      [{ log: 'yes' }, 'ERR_INPUT'],
      [{ redirectFilter: true }, 'ERR_INPUT'],
      [{ now: 1 }, 'ERR_INPUT'],
      [{ limit: 1000 }, 'ERR_LIMIT'],
      [{ maxBytes: -1 }, 'ERR_BUDGET'],
      [{ maxStaleMs: -1 }, 'ERR_INPUT'],
    ]
    for (const [options, code] of cases) {
      expect(() => useWithCrawlee(crawlee, options as never), JSON.stringify(options)).toThrow(expect.objectContaining({ code }))
    }
    expect(crawlee.RobotsTxtFile.from).toBe(from)
  })

  it('a userAgent option that cannot be a header value is ERR_INPUT at install, not every site unreachable', () => {
    const crawlee = fakeCrawlee()
    const find = crawlee.RobotsTxtFile.find
    for (const userAgent of ['MyBot\r\nX-Injected: 1', 'My\nBot', 'Bot\u0000', 'Bot\u4e00']) {
      expect(() => useWithCrawlee(crawlee, { userAgent }), JSON.stringify(userAgent)).toThrow(expect.objectContaining({ code: 'ERR_INPUT', message: expect.stringMatching(/userAgent must be a header value/) }))
    }
    expect(crawlee.RobotsTxtFile.find).toBe(find)
    useWithCrawlee(crawlee, { userAgent: 'Bot\u00e9 (latin-1 is a header value)' }).restore()
  })
})

describe('useWithCrawlee: arguments that cannot be read', () => {
  it('a revoked Proxy or a throwing getter as the module, the options, find\'s url or signal is ERR_INPUT, not the TypeError of reading it', async () => {
    const revoked = (): object => {
      const { proxy, revoke } = Proxy.revocable({}, {})
      revoke()
      return proxy
    }
    const throwing = new Proxy({}, { get: () => { throw new Error('getter') }, ownKeys: () => { throw new Error('keys') } })
    const tag = { get [Symbol.toStringTag](): string { throw new Error('tag') } }
    const input = expect.objectContaining({ code: 'ERR_INPUT', name: 'RobotsInputError' })
    const crawlee = fakeCrawlee()
    const find = crawlee.RobotsTxtFile.find
    expect(() => useWithCrawlee(revoked() as never)).toThrow(input)
    expect(() => useWithCrawlee(throwing as never)).toThrow(input)
    expect(() => useWithCrawlee(crawlee, revoked() as never)).toThrow(input)
    expect(() => useWithCrawlee(crawlee, throwing as never)).toThrow(input)
    expect(() => useWithCrawlee(crawlee, { userAgent: tag } as never)).toThrow(input)
    expect(crawlee.RobotsTxtFile.find).toBe(find)
    const installed = useWithCrawlee(crawlee, { log: false })
    try {
      const findWith = (...args: unknown[]): Promise<unknown> => Reflect.apply(crawlee.RobotsTxtFile.find, crawlee.RobotsTxtFile, args)
      await expect(findWith(revoked())).rejects.toThrow(input)
      await expect(findWith('http://127.0.0.1:9/', undefined, { signal: revoked() })).rejects.toThrow(input)
      await expect(findWith('http://127.0.0.1:9/', undefined, { signal: tag })).rejects.toThrow(input)
      await expect(findWith('http://127.0.0.1:9/', undefined, revoked())).rejects.toThrow(input)
    } finally {
      installed.restore()
    }
  })
})

describe('useWithCrawlee: what it replaces, and restore()', () => {
  it("replaces find, load and from, and the crawlers' getRobotsTxtFileForUrl; restore() puts the very same methods back", () => {
    const crawlee = fakeCrawlee()
    const before = {
      find: Object.getOwnPropertyDescriptor(crawlee.RobotsTxtFile, 'find'),
      load: Object.getOwnPropertyDescriptor(crawlee.RobotsTxtFile, 'load'),
      from: Object.getOwnPropertyDescriptor(crawlee.RobotsTxtFile, 'from'),
      lookup: Object.getOwnPropertyDescriptor(crawlee.BasicCrawler!.prototype, 'getRobotsTxtFileForUrl'),
    }
    const robots = useWithCrawlee(crawlee)
    expect(robots.crawlers).toBe(true)
    expect(crawlee.RobotsTxtFile.find).not.toBe(before.find!.value)
    expect(crawlee.RobotsTxtFile.from).not.toBe(before.from!.value)
    expect(crawlee.BasicCrawler!.prototype.getRobotsTxtFileForUrl).not.toBe(before.lookup!.value)
    robots.restore()
    expect(Object.getOwnPropertyDescriptor(crawlee.RobotsTxtFile, 'find')).toEqual(before.find)
    expect(Object.getOwnPropertyDescriptor(crawlee.RobotsTxtFile, 'load')).toEqual(before.load)
    expect(Object.getOwnPropertyDescriptor(crawlee.RobotsTxtFile, 'from')).toEqual(before.from)
    expect(Object.getOwnPropertyDescriptor(crawlee.BasicCrawler!.prototype, 'getRobotsTxtFileForUrl')).toEqual(before.lookup)
    robots.restore() // a second restore changes nothing
    expect(crawlee.RobotsTxtFile.find).toBe(before.find!.value)
  })

  it('installing again replaces the first installation (one restore() brings back the originals)', () => {
    const crawlee = fakeCrawlee()
    const find = crawlee.RobotsTxtFile.find
    const first = useWithCrawlee(crawlee, { userAgent: 'A' })
    const second = useWithCrawlee(crawlee, { userAgent: 'B' })
    first.restore() // replaced already: changes nothing
    expect(crawlee.RobotsTxtFile.find).not.toBe(find)
    second.restore()
    expect(crawlee.RobotsTxtFile.find).toBe(find)
  })

  it("its once-a-second clock runs while an installation is in place, unreferenced, and stops with the last restore()", () => {
    const started = vi.spyOn(globalThis, 'setInterval')
    const stopped = vi.spyOn(globalThis, 'clearInterval')
    try {
      const a = useWithCrawlee(fakeCrawlee())
      const b = useWithCrawlee(fakeCrawlee())
      expect(started).toHaveBeenCalledTimes(1)
      const timer = started.mock.results[0].value as NodeJS.Timeout
      expect(timer.hasRef()).toBe(false)
      a.restore()
      expect(stopped).not.toHaveBeenCalled()
      b.restore()
      expect(stopped).toHaveBeenCalledWith(timer)
      // With the caller's clock, none.
      const c = useWithCrawlee(fakeCrawlee(), { now: () => 0 })
      c.restore()
      expect(started).toHaveBeenCalledTimes(1)
    } finally {
      started.mockRestore()
      stopped.mockRestore()
    }
  })

  it('without BasicCrawler (@crawlee/utils), only RobotsTxtFile is taken over', () => {
    const crawlee = fakeCrawlee({ crawler: false })
    const robots = useWithCrawlee(crawlee)
    expect(robots.crawlers).toBe(false)
    robots.restore()
  })

  it("from(): Crawlee's class, the reference's answers (robots-parser's conventions: another origin gets no verdict)", () => {
    const crawlee = fakeCrawlee()
    const robots = useWithCrawlee(crawlee)
    try {
      const file = crawlee.RobotsTxtFile.from('https://e.com/robots.txt', 'User-agent: *\nDisallow: /dir/\nAllow: /dir/index.html\n\nUser-agent: MyBot\nDisallow: /\n', 'http://127.0.0.1:3128')
      expect(file).toBeInstanceOf(crawlee.RobotsTxtFile)
      expect(file.proxyUrl).toBe('http://127.0.0.1:3128')
      expect([file.isAllowed('https://e.com/dir/'), file.isAllowed('https://e.com/dir/x'), file.isAllowed('https://other.com/dir/x')]).toEqual([true, false, true])
      expect(file.isAllowed('https://e.com/dir/', 'Mozilla/5.0 (compatible; MyBot/1.0)')).toBe(false)
    } finally {
      robots.restore()
    }
  })

  it('find() checks its arguments as Crawlee would fail on them: a coded error, no request', async () => {
    const crawlee = fakeCrawlee()
    const robots = useWithCrawlee(crawlee)
    try {
      await expect(crawlee.RobotsTxtFile.find('not a url')).rejects.toMatchObject({ code: 'ERR_INPUT' })
      await expect(crawlee.RobotsTxtFile.find('ftp://e.com/')).rejects.toMatchObject({ code: 'ERR_INPUT' })
      await expect((crawlee.RobotsTxtFile.find as (...a: unknown[]) => Promise<unknown>)('https://e.com/', 'socks5://127.0.0.1:1080')).rejects.toThrow(/http: or https:/)
      await expect((crawlee.RobotsTxtFile.find as (...a: unknown[]) => Promise<unknown>)('https://e.com/', undefined, { timeoutMillis: -1 })).rejects.toMatchObject({ code: 'ERR_INPUT' })
      const aborted = AbortSignal.abort(new Error('gone'))
      await expect((crawlee.RobotsTxtFile.find as (...a: unknown[]) => Promise<unknown>)('https://e.com/', undefined, { signal: aborted })).rejects.toThrow('gone')
    } finally {
      robots.restore()
    }
  })

  it('a crawler without respectRobotsTxtFile, or a URL that is not http(s), gets no file (as in Crawlee)', async () => {
    const crawlee = fakeCrawlee()
    const robots = useWithCrawlee(crawlee)
    try {
      const crawler = new crawlee.BasicCrawler!()
      crawler.respectRobotsTxtFile = false
      expect(await crawler.getRobotsTxtFileForUrl()).toBeUndefined()
      crawler.respectRobotsTxtFile = true
      const lookup = crawler.getRobotsTxtFileForUrl as unknown as (url: string) => Promise<unknown>
      expect(await lookup.call(crawler, 'data:text/plain,x')).toBeUndefined()
      expect(await lookup.call(crawler, 'not a url')).toBeUndefined()
    } finally {
      robots.restore()
    }
  })
})

describe('useWithCrawlee: modules that cannot take the hooks', () => {
  it('regression: a frozen BasicCrawler.prototype threw an uncoded TypeError after RobotsTxtFile.find, load and from were already replaced (left so, with no handle to restore them); now ERR_INPUT and nothing replaced', () => {
    const crawlee = fakeCrawlee()
    const { find, load, from } = crawlee.RobotsTxtFile
    Object.freeze(crawlee.BasicCrawler!.prototype)
    expect(() => useWithCrawlee(crawlee)).toThrow(expect.objectContaining({ code: 'ERR_INPUT', message: expect.stringMatching(/getRobotsTxtFileForUrl cannot be replaced/) }))
    expect([crawlee.RobotsTxtFile.find, crawlee.RobotsTxtFile.load, crawlee.RobotsTxtFile.from]).toEqual([find, load, from])

    const frozen = fakeCrawlee({ crawler: false })
    Object.freeze(frozen.RobotsTxtFile)
    expect(() => useWithCrawlee(frozen)).toThrow(expect.objectContaining({ code: 'ERR_INPUT', message: expect.stringMatching(/RobotsTxtFile\.find cannot be replaced/) }))
  })

  it('regression: a module whose RobotsTxtFile getter gave the class once and then undefined threw an uncoded TypeError (the member was read twice); the class is now read once', () => {
    const crawlee = fakeCrawlee({ crawler: false })
    let reads = 0
    const shifty = { get RobotsTxtFile() { return reads++ === 0 ? crawlee.RobotsTxtFile : undefined } }
    const handle = useWithCrawlee(shifty as unknown as CrawleeModule)
    expect(reads).toBe(1)
    handle.restore()
  })
})

describe('useWithCrawlee: inherited options', () => {
  it('regression: an option the options object inherits (Object.create(defaults)) was ignored in silence (its own keys only were read), where fetchRobots and RobotsCache honour it; now it counts, checked as an own one', () => {
    for (const defaults of [{ timeoutMs: -1 }, { userAgent: 'Bot\r\nX-Injected: 1' }, { limit: 5 }, { timeout: 5 }]) {
      const crawlee = fakeCrawlee({ crawler: false })
      expect(() => useWithCrawlee(crawlee, Object.create(defaults)), JSON.stringify(defaults)).toThrow(expect.objectContaining({ name: expect.stringMatching(/^Robots/) }))
    }
    const crawlee = fakeCrawlee({ crawler: false })
    useWithCrawlee(crawlee, Object.create({ userAgent: 'InheritedBot', timeoutMs: 5000 })).restore()
    // An own __proto__ key (JSON.parse makes one) is a key, refused as no option, not the copy's prototype.
    expect(() => useWithCrawlee(fakeCrawlee({ crawler: false }), JSON.parse('{"__proto__": {"timeoutMs": -1}}'))).toThrow(/"__proto__" is not an option/)
  })
})
