/**
 * The tester page's state in its address (src/playground/page-state.ts): a
 * round trip through the fragment for every kind of content, links that
 * cannot be read are refused with a message, and how the agents field and the
 * URL list are read.
 */
import { deflateRawSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { parseRobots } from '../../src/index.js'
import { agentTokens, crawlerList, decodeState, encodeState, SAMPLE, urlList, type PageState } from '../../src/playground/page-state.js'

const CASES: PageState[] = [
  SAMPLE,
  { mode: 'diff', a: { text: 'User-agent: *\nDisallow: /a\n', outcome: 'file' }, b: { text: '', outcome: 'unreachable' }, urls: '/a\n/b', agents: 'Googlebot, Bingbot', crawlers: '' },
  { mode: 'single', a: { text: 'é 💩 \u0000 \r\n\t#', outcome: 'unavailable' }, b: { text: 'x', outcome: 'file' }, urls: '', agents: '', crawlers: 'GPTBot, Googlebot+Googlebot-Image' },
  { mode: 'single', a: { text: 'Disallow: /x\n'.repeat(40_000), outcome: 'file' }, b: { text: '', outcome: 'file' }, urls: 'https://e.com/\n'.repeat(10_000), agents: 'a', crawlers: '' },
]

describe('the state in the fragment', () => {
  it.each(CASES.map((c, i) => [i, c] as const))('case %i: decode(encode(state)) is the state', async (_i, state) => {
    const fragment = await encodeState(state)
    expect(fragment).toMatch(/^#s=1\.[A-Za-z0-9_-]+$/)
    expect(await decodeState(fragment)).toEqual(state)
    expect(await decodeState(fragment.slice(1))).toEqual(state)
  })

  it('compresses: a 520 KB case makes a link of a few KB', async () => {
    const fragment = await encodeState(CASES[3])
    expect(fragment.length).toBeLessThan(20_000)
  })

  it('the uncompressed codec (a browser without CompressionStream) is read too', async () => {
    const json = JSON.stringify([0, 'User-agent: *', 2, '', 0, '/x', 'Googlebot'])
    const b64 = Buffer.from(json).toString('base64url')
    expect(await decodeState(`#s=0.${b64}`)).toEqual({ mode: 'single', a: { text: 'User-agent: *', outcome: 'unreachable' }, b: { text: '', outcome: 'file' }, urls: '/x', agents: 'Googlebot', crawlers: '' })
  })

  it('a fragment that is not a case link gives null (the page opens with its sample)', async () => {
    for (const other of ['', '#', '#top', '#section-2', '#x=1.abc']) expect(await decodeState(other), other).toBeNull()
  })
})

/** What decodeState refuses `fragment` with: the LinkRefused's message, or a failure of the test. */
async function refusal(fragment: string): Promise<string> {
  const err = await decodeState(fragment).then(
    (v) => new Error(`opened ${JSON.stringify(v)}`),
    (e: Error) => e,
  )
  expect(err.name, fragment.slice(0, 60)).toBe('LinkRefused')
  return err.message
}

const plain = (v: unknown): string => `#s=0.${Buffer.from(JSON.stringify(v)).toString('base64url')}`

describe('a damaged or newer link opened the sample with no word said, and the answers shown were not the shared case', () => {
  it('a link cut short, changed, or not a case is refused as damaged, with a message the page shows', async () => {
    const good = await encodeState(SAMPLE)
    const damaged = [
      '#s=',
      '#s=1.',
      '#s=1',
      good.slice(0, good.length - 9),
      good.slice(0, 30),
      `${good}%`,
      '#s=0.%%%',
      '#s=0.A',
      plain([1, 2]),
      plain({}),
      plain({ __proto__: null, constructor: 1 }),
      '#s=0.' + Buffer.from('{"__proto__":{"length":7}}').toString('base64url'),
      '#s=0.' + Buffer.from([0xff, 0xfe, 0x5b, 0x5d]).toString('base64url'),
      '#s=0.' + Buffer.from('[0,"x",0,"",0,"/x","Googlebot"').toString('base64url'),
    ]
    for (const bad of damaged) expect(await refusal(bad)).toMatch(/^This link is damaged \(cut short or changed on the way\)/)
  })

  it('a value the page never writes is refused, not read as empty or as another outcome', async () => {
    const ok = [0, 'User-agent: *\nDisallow: /', 0, '', 0, '/x', 'Googlebot']
    for (const [at, value] of [[0, 2], [0, '1'], [0, true], [1, 5], [1, null], [2, 3], [2, -1], [2, 1.5], [2, '0'], [3, {}], [4, 9], [5, ['/x']], [6, 7], [7, 0], [7, null]] as const) {
      const v: unknown[] = [...ok]
      v[at] = value
      expect(await refusal(plain(v)), `field ${at}: ${JSON.stringify(value)}`).toMatch(/^This link is damaged/)
    }
    // A value's wrong type is never taken for the empty text: a link of `Disallow: /` does not allow /x.
    expect(await decodeState(plain(ok))).toMatchObject({ a: { text: 'User-agent: *\nDisallow: /', outcome: 'file' } })
  })

  it('a link of a newer version (a codec or fields this page does not know) is refused as such', async () => {
    for (const newer of ['#s=2.abcd', '#s=10.abcd', '#s=z.abcd', plain([0, 'x', 0, '', 0, '/x', 'Googlebot', '', 'more'])]) {
      expect(await refusal(newer), newer).toMatch(/^This link was made by a newer version of the tester page/)
    }
  })
})

describe('the agents field, the more-crawlers field and the URL list', () => {
  it('more crawlers: separated by commas, A+B one crawler of two tokens, trimmed, empty ones dropped', () => {
    expect(crawlerList('')).toEqual([])
    expect(crawlerList(' GPTBot, CCBot ,, Googlebot + Googlebot-Image,+ ')).toEqual([['GPTBot'], ['CCBot'], ['Googlebot', 'Googlebot-Image']])
    expect(crawlerList('Foo Bar')).toEqual([['Foo Bar']])
  })

  it('a no-break space around a name stays the token\'s in both fields, as check --agent and --crawlers keep it: the page gives their answer', () => {
    expect(crawlerList('\u00a0GPTBot, CCBot\u2003+\u00a0Googlebot ,\ufeffX')).toEqual([['\u00a0GPTBot'], ['CCBot\u2003', '\u00a0Googlebot'], ['\ufeffX']])
    expect(agentTokens(' Googlebot\u00a0,\t\u3000Googlebot-Image ')).toEqual(['Googlebot\u00a0', '\u3000Googlebot-Image'])
    const robots = parseRobots('User-agent: GPTBot\nDisallow: /\n')
    expect(robots.crawlers(crawlerList('GPTBot,\u00a0GPTBot')).isAllowed('/x')).toEqual([false, true])
  })

  it('links made before the more-crawlers field (seven fields) still open; an eighth field holds the crawlers', async () => {
    const seven = Buffer.from(JSON.stringify([0, 'User-agent: *', 0, '', 0, '/x', 'Googlebot'])).toString('base64url')
    expect((await decodeState(`#s=0.${seven}`))?.crawlers).toBe('')
    const b64 = Buffer.from(JSON.stringify([0, 'User-agent: *', 0, '', 0, '/x', 'Googlebot', 'GPTBot+CCBot'])).toString('base64url')
    expect((await decodeState(`#s=0.${b64}`))?.crawlers).toBe('GPTBot+CCBot')
  })

  it('agents: split at commas, trimmed, taken whole otherwise; none is *', () => {
    expect(agentTokens('Googlebot')).toEqual(['Googlebot'])
    expect(agentTokens(' Googlebot , Googlebot-Image,,')).toEqual(['Googlebot', 'Googlebot-Image'])
    expect(agentTokens('Foo Bar')).toEqual(['Foo Bar'])
    expect(agentTokens('')).toEqual(['*'])
    expect(agentTokens(' , ')).toEqual(['*'])
  })

  it('URLs: one per line, as given (spaces kept), empty lines skipped, a CR before the LF dropped', () => {
    expect(urlList('/a\n\n /b \r\nhttps://e.com/c\r\n')).toEqual(['/a', ' /b ', 'https://e.com/c'])
    expect(urlList('')).toEqual([])
  })
})

describe('issue 27 #9: the tester page inflated a 272 KB link into 200 MiB and crashed the tab', () => {
  it('a link whose case inflates past the limit is refused with a message, the inflating stopped there', async () => {
    const json = Buffer.concat([Buffer.from('[0,"'), Buffer.alloc(64 << 20, 0x61), Buffer.from('",0,"",0,"",""]')])
    const link = `#s=1.${deflateRawSync(json, { level: 9 }).toString('base64url')}`
    expect(link.length).toBeLessThan(300_000)
    const refused = await decodeState(link).then(
      () => undefined,
      (err: Error) => err,
    )
    expect(refused?.name).toBe('LinkRefused')
    expect(refused?.message).toMatch(/^This link holds a case larger than the tester page opens \(8 MiB once unpacked, or a link of 1,500,000 characters\): it was not opened\.$/)
  })

  it('a link longer than the limit is refused before anything is decoded; one within it opens', async () => {
    await expect(decodeState(`#s=1.${'A'.repeat(1_500_001)}`)).rejects.toThrow(/larger than the tester page opens/)
    await expect(decodeState(`#s=0.${Buffer.from('x'.repeat(9 << 20)).toString('base64url')}`)).rejects.toThrow(/larger than the tester page opens/)
    const state = { ...SAMPLE, urls: 'https://e.com/\n'.repeat(100_000) }
    expect(await decodeState(await encodeState(state))).toEqual(state)
    await expect(encodeState({ ...SAMPLE, urls: 'x'.repeat(9 << 20) })).rejects.toThrow(/too large for a link/)
  })
})
