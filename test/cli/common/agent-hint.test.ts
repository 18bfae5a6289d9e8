/**
 * The warning of a crawler token that is not a product token (`--agent`,
 * `--crawlers`) names the token to give instead when there is one: a full
 * User-Agent header's crawler (`Googlebot`), never the browser name it
 * opens with (`Mozilla`). In-process: the warning's text.
 */
import { describe, expect, it } from 'vitest'
import { agentWarning, agentWarnings } from '../../../src/cli/common/agent-option.js'
import { crawlerWarnings, parseCrawlers } from '../../../src/cli/common/crawlers-option.js'

describe('the warning of a token that is not a product token', () => {
  it('regression: a full User-Agent header given as --agent got no hint of its crawler\'s token (the library\'s names "Mozilla"); now the warning names Googlebot, and nothing for a browser\'s header', () => {
    const header = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'
    expect(agentWarning(header)).toBe(`warning: --agent '${header}' is not a product token ([A-Za-z_-]+), so it matches no User-agent line (give its product token instead: 'Googlebot'); only '*' groups apply`)
    expect(agentWarning('MyBot/1.0 (+https://my.example/bot)')).toContain("(give its product token instead: 'MyBot')")
    // A User-agent line `MJ12bot` reads as `MJ`: the token that names it.
    expect(agentWarning('Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/)')).toContain("(give its product token instead: 'MJ')")
    // One word is no header: its warning is as it was.
    expect(agentWarning('MyBot/1.0')).toBe("warning: --agent 'MyBot/1.0' is not a product token ([A-Za-z_-]+), so it matches no User-agent line; only '*' groups apply")
    expect(agentWarning('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36')).toMatch(/matches no User-agent line; only/)
    expect(agentWarning('123')).not.toContain('give')
    expect(agentWarning('x'.repeat(1_000_000) + ' (compatible)')).toContain('give its product token instead')
    // Beside a product token, the hint stays and only the '*' clause goes.
    expect(agentWarnings([header, 'bingbot'])).toEqual([`warning: --agent '${header}' is not a product token ([A-Za-z_-]+), so it matches no User-agent line (give its product token instead: 'Googlebot')`])
    expect(crawlerWarnings(parseCrawlers(['Mozilla/5.0 (compatible; bingbot/2.0)']))).toEqual([
      "warning: --crawlers 'Mozilla/5.0 (compatible; bingbot/2.0)': 'Mozilla/5.0 (compatible; bingbot/2.0)' is not a product token ([A-Za-z_-]+), so it matches no User-agent line (give its product token instead: 'bingbot'); only '*' groups apply",
    ])
  })
})
