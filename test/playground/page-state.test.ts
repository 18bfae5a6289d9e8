/**
 * The tester page's state in its address (src/playground/page-state.ts): a
 * round trip through the fragment for every kind of content, links that
 * cannot be read open the page as usual, and how the agents field and the
 * URL list are read.
 */
import { deflateRawSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
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

  it('a fragment that holds no state, or a broken one, gives null (the page opens with its sample)', async () => {
    const good = await encodeState(SAMPLE)
    for (const bad of ['', '#', '#top', '#s=', '#s=2.abc', '#s=1.', good.slice(0, good.length - 9), '#s=0.' + Buffer.from('[1,2]').toString('base64url'), '#s=0.' + Buffer.from('{}').toString('base64url'), '#s=0.%%%']) {
      expect(await decodeState(bad), bad).toBeNull()
    }
  })

  it('values of the wrong type read as empty or as the default outcome', async () => {
    const b64 = Buffer.from(JSON.stringify([1, 5, 9, null, -1, 7, {}])).toString('base64url')
    expect(await decodeState(`#s=0.${b64}`)).toEqual({ mode: 'diff', a: { text: '', outcome: 'file' }, b: { text: '', outcome: 'file' }, urls: '', agents: '', crawlers: '' })
  })
})

describe('the agents field, the more-crawlers field and the URL list', () => {
  it('more crawlers: separated by commas, A+B one crawler of two tokens, trimmed, empty ones dropped', () => {
    expect(crawlerList('')).toEqual([])
    expect(crawlerList(' GPTBot, CCBot ,, Googlebot + Googlebot-Image,+ ')).toEqual([['GPTBot'], ['CCBot'], ['Googlebot', 'Googlebot-Image']])
    expect(crawlerList('Foo Bar')).toEqual([['Foo Bar']])
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
