/**
 * The tester page in Debian's Chromium (playwright-core, never a downloaded
 * browser), served by `robots-automaton playground` and opened from disk:
 * the reference's 145 vectors typed in and read back (verdict, highlighted
 * line), diagnostics, files, stand-ins, diff mode, a shared link, keyboard
 * and labels, 500 KiB with 10,000 URLs; a screenshot kept in test-artifacts/.
 */
import { deflateRawSync } from 'node:zlib'
import { spawn, type ChildProcess } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseRobots } from '../../src/index.js'
import { agentTokens } from '../../src/playground/page-state.js'
import { CLI, ensureBuilt, ROOT } from '../cli/helpers.js'

const CHROMIUM = '/usr/bin/chromium'
const hasChromium = existsSync(CHROMIUM)
if (!hasChromium) console.log(`tester page: ${CHROMIUM} is missing (apt-get install chromium), so the page is not opened in a browser`)

/** The reference's 145 allow/disallow vectors (test/data/conformance). */
const VECTORS = JSON.parse(readFileSync(resolve(ROOT, 'test/data/conformance/google-robots-test.json'), 'utf8')) as {
  id: string
  robotstxt: string
  useragent: string
  url: string
  allowed: boolean
}[]

let server: ChildProcess | undefined
let origin = ''
let context: BrowserContext
let profile = ''
/** Every URL the browser asked for, on every page of the context. */
const requests: string[] = []
const errors: string[] = []

/** Starts `robots-automaton playground --port 0` and resolves to the address it prints. */
function startServer(): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [CLI, 'playground', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] })
    server = child
    let out = ''
    let err = ''
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString()
      if (out.includes('\n')) resolvePromise(out.trim())
    })
    child.stderr.on('data', (c: Buffer) => (err += c.toString()))
    child.on('error', reject)
    child.on('close', (status) => reject(new Error(`playground exited (${status}) before printing its address: ${err}`)))
  })
}

async function newPage(): Promise<Page> {
  const page = await context.newPage()
  page.on('pageerror', (e) => errors.push(e.message))
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text())
  })
  return page
}

/** Puts `text` into a text field as a paste leaves it: the value, and one input event. */
async function paste(page: Page, selector: string, text: string): Promise<void> {
  await page.locator(selector).evaluate((el: HTMLTextAreaElement, value: string) => {
    el.value = value
    el.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertFromPaste' }))
  }, text)
}

/** Waits until the results match the input (the page marks them pending at each input event). */
async function settled(page: Page): Promise<void> {
  await page.locator('#results[data-status="done"]').waitFor()
}

/** The first result row's verdict and the editor's highlighted line (0 when none is shown). */
async function firstResult(page: Page, editor = 'a'): Promise<{ verdict: string | null; line: number }> {
  const verdict = await page.locator('#rows tr').first().getAttribute('data-verdict')
  const hl = page.locator(`#editor-${editor} .hl`)
  const line = (await hl.isHidden()) ? 0 : Number(await hl.getAttribute('data-line'))
  return { verdict, line }
}

beforeAll(async () => {
  if (!hasChromium) return
  ensureBuilt()
  origin = await startServer()
  const { chromium } = await import('playwright-core')
  profile = mkdtempSync(join(tmpdir(), 'robots-chromium-'))
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    viewport: { width: 1200, height: 860 },
  })
  // A busy machine may be slow: actions wait for the page however long it takes (no real-time bound).
  context.setDefaultTimeout(300_000)
  context.on('request', (r) => requests.push(r.url()))
})

afterAll(async () => {
  await context?.close()
  server?.kill('SIGTERM')
  if (profile) rmSync(profile, { recursive: true, force: true })
})

describe.skipIf(!hasChromium)('tester page in Chromium', { timeout: 300_000 }, () => {
  it('serves the page; it judges its sample as it opens, and loads nothing but its two files', async () => {
    expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/)
    const page = await newPage()
    await page.goto(origin)
    await settled(page)
    expect(await page.title()).toBe('robots.txt tester: robots-automaton')
    expect(await page.locator('#summary').innerText()).toBe('6 URLs for Googlebot: 3 allowed, 3 disallowed.')
    expect(requests.filter((u) => !u.startsWith(origin))).toEqual([])
    expect(new Set(requests.map((u) => new URL(u).pathname))).toEqual(new Set(['/', '/playground.js']))
    await page.close()
  })

  it("the reference's 145 vectors, typed in: each verdict and highlighted line is the library's and the reference's", async () => {
    const page = await newPage()
    // The page's clock is Playwright's: the pause the page waits after an input (150 ms) passes at once instead
    // of 145 times in real time. Typing key by key, in real time, has its own test below.
    await page.clock.install()
    await page.goto(origin)
    await page.clock.runFor(1000)
    await settled(page)
    const disagreements: string[] = []
    for (const r of VECTORS) {
      // The URL list skips empty lines: the empty URL is typed as '/', the path the reference takes it for.
      const url = r.url === '' ? '/' : r.url
      await page.fill('#robots-a', r.robotstxt)
      await page.fill('#agents', r.useragent)
      await page.fill('#urls', url)
      // Past the input pause and the link's: the page judges the input, draws, and writes its link.
      await page.clock.runFor(1000)
      await settled(page)
      const got = await firstResult(page)
      const e = parseRobots(r.robotstxt).agents(agentTokens(r.useragent)).explain(url)
      const want = { verdict: e.allowed ? 'allowed' : 'disallowed', line: e.rule?.line ?? 0 }
      if (JSON.stringify(got) !== JSON.stringify(want) || e.allowed !== r.allowed) disagreements.push(`${r.id}: page ${JSON.stringify(got)}, library ${JSON.stringify(want)}, reference ${r.allowed}`)
    }
    expect(disagreements).toEqual([])
    await page.close()
  }, 600_000)

  it('typed key by key: diagnostics at their lines, a line button puts the caret there, the deciding line is highlighted', async () => {
    const page = await newPage()
    await page.goto(origin)
    await settled(page)
    await page.fill('#robots-a', '')
    await page.locator('#robots-a').pressSequentially('User-agent: *\nDisalow: /tmp/\nDisallow: private\nAllow: /d/index.html\n')
    await page.fill('#urls', '/tmp/x\n/d/\n/private')
    await page.fill('#agents', 'Googlebot')
    await settled(page)
    // The gutter marks lines 2 (a typo the reference accepts: warning) and 3 (a pattern that cannot match: error).
    expect(await page.locator('#editor-a .gutter .n.warning').allInnerTexts()).toEqual(['2'])
    expect(await page.locator('#editor-a .gutter .n.error').allInnerTexts()).toEqual(['3'])
    const items = await page.locator('#diags-a li').allInnerTexts()
    expect(items.map((t) => t.replace(/\s+/g, ' '))).toEqual([
      'line 2 warning: key is a misspelling the reference accepts [typo]',
      'line 3 error: pattern does not start with "/" or "*": it can never match a path: "private" [pattern-start]',
    ])
    expect(await page.locator('#diags-a-count').innerText()).toBe('Diagnostics: 1 error, 1 warning, 0 info.')
    await page.locator('#diags-a button[data-line="3"]').click()
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('robots-a')
    expect(await page.locator('#robots-a').evaluate((t: HTMLTextAreaElement) => t.value.slice(0, t.selectionStart).split('\n').length)).toBe(3)
    // Verdicts: the typo line decides /tmp/x; /d/ is allowed by the implied directory form of line 4.
    const rows = page.locator('#rows tr')
    expect(await rows.evaluateAll((trs: HTMLTableRowElement[]) => trs.map((tr) => [tr.dataset.verdict, tr.dataset.line, tr.cells[2].innerText.replace(/\s+/g, ' ')]))).toEqual([
      ['disallowed', '2', 'line 2 Disallow: /tmp/'],
      ['allowed', '4', 'line 4 implied: Allow: /d/$ (from line 4: Allow: /d/index.html)'],
      ['allowed', '0', 'no matching rule'],
    ])
    expect(await rows.nth(1).locator('.rule').getAttribute('class')).toBe('rule implied')
    expect(await page.locator('#editor-a .hl').getAttribute('data-line')).toBe('2')
    expect(await page.locator('#editor-a .hl').getAttribute('data-kind')).toBe('disallow')
    await rows.nth(1).locator('button').click()
    expect(await page.locator('#editor-a .hl').getAttribute('data-line')).toBe('4')
    expect(await page.locator('#editor-a .hl').getAttribute('data-kind')).toBe('allow')
    expect(await rows.nth(1).getAttribute('aria-current')).toBe('true')
    // An agent that is not a product token: the library's warning, and the * rules.
    await page.fill('#agents', 'Googlebot/2.1')
    await settled(page)
    expect(await page.locator('#diags-a li').last().innerText()).toContain('[agent-not-product-token]')
    await page.close()
  })

  it('a robots.txt file dropped on the editor, or opened with the file button, replaces the text', async () => {
    const page = await newPage()
    await page.goto(origin)
    await settled(page)
    const dropped = await page.evaluateHandle(() => {
      const dt = new DataTransfer()
      dt.items.add(new File(['User-agent: *\nDisallow: /dropped\n'], 'robots.txt', { type: 'text/plain' }))
      return dt
    })
    await page.dispatchEvent('#editor-a', 'dragover', { dataTransfer: dropped })
    expect(await page.locator('#editor-a').getAttribute('class')).toContain('dropping')
    await page.dispatchEvent('#editor-a', 'drop', { dataTransfer: dropped })
    await page.waitForFunction(() => (document.getElementById('robots-a') as HTMLTextAreaElement).value.includes('/dropped'))
    await page.fill('#urls', '/dropped/x')
    await settled(page)
    expect(await firstResult(page)).toEqual({ verdict: 'disallowed', line: 2 })
    await page.setInputFiles('#file-a', { name: 'robots.txt', mimeType: 'text/plain', buffer: Buffer.from('User-agent: *\nAllow: /\nDisallow: /dropped/x$\n') })
    await page.waitForFunction(() => (document.getElementById('robots-a') as HTMLTextAreaElement).value.includes('$'))
    await settled(page)
    expect(await firstResult(page)).toEqual({ verdict: 'disallowed', line: 3 })
    await page.close()
  })

  it('a file that could not be read was dropped with no word said (an unhandled rejection), and of several files dropped the others were left in silence: the note says both', async () => {
    const page = await newPage()
    await page.goto(origin)
    await settled(page)
    const before = await page.locator('#robots-a').inputValue()
    // A folder dropped, or a file gone since it was chosen: reading it fails.
    await page.evaluate(() => {
      const read = Blob.prototype.arrayBuffer
      // In the page (the browser's global), not in this process.
      Blob.prototype.arrayBuffer = function (this: Blob) {
        return this.size === 7 ? Promise.reject(new DOMException('A requested file or directory could not be found.', 'NotFoundError')) : read.call(this)
      }
    })
    const pageErrors = errors.length
    await page.setInputFiles('#file-a', { name: 'gone.txt', mimeType: 'text/plain', buffer: Buffer.from('Allow: ') })
    await page.waitForFunction(() => document.getElementById('diags-a-count')!.textContent!.includes('could not be read'))
    await settled(page)
    expect(await page.locator('#diags-a-count').innerText()).toMatch(/^"gone\.txt" could not be read \(A requested file or directory could not be found\.\): the editor keeps its text\. /)
    expect(await page.locator('#robots-a').inputValue()).toBe(before)
    expect(errors.slice(pageErrors)).toEqual([])
    const two = await page.evaluateHandle(() => {
      const dt = new DataTransfer()
      dt.items.add(new File(['User-agent: *\nDisallow: /old\n'], 'old.txt', { type: 'text/plain' }))
      dt.items.add(new File(['User-agent: *\nDisallow: /new\n'], 'new.txt', { type: 'text/plain' }))
      return dt
    })
    await page.dispatchEvent('#editor-a', 'drop', { dataTransfer: two })
    await page.waitForFunction(() => (document.getElementById('robots-a') as HTMLTextAreaElement).value.includes('/old'))
    await settled(page)
    expect(await page.locator('#diags-a-count').innerText()).toMatch(/^2 files were given: only the first, "old\.txt", is opened\. /)
    // The note goes once the text is edited.
    await page.fill('#robots-a', 'User-agent: *\n')
    await settled(page)
    expect(await page.locator('#diags-a-count').innerText()).toBe('No diagnostics.')
    await page.close()
  })

  it('an opened file that is not valid UTF-8 is judged as its bytes, as check judges it, until its text is edited', async () => {
    const page = await newPage()
    await page.goto(origin)
    await settled(page)
    // Latin-1, as many servers send it: the reference escapes the byte 0xE9 to %E9; the editor can only show U+FFFD.
    const body = Buffer.concat([Buffer.from('User-agent: *\r\nDisallow: /caf'), Buffer.from([0xe9]), Buffer.from('\r\n')])
    await page.setInputFiles('#file-a', { name: 'robots.txt', mimeType: 'text/plain', buffer: body })
    await page.waitForFunction(() => (document.getElementById('robots-a') as HTMLTextAreaElement).value.includes('caf'))
    await page.fill('#agents', 'bot')
    await page.fill('#urls', '/caf%E9\n/caf%EF%BF%BD')
    await settled(page)
    const rows = page.locator('#rows tr')
    const verdicts = (): Promise<string[][]> => rows.evaluateAll((trs: HTMLTableRowElement[]) => trs.map((tr) => [tr.dataset.verdict ?? '', tr.dataset.line ?? '']))
    const m = parseRobots(new Uint8Array(body)).agent('bot')
    expect(m.explain('/caf%E9')).toEqual({ allowed: false, rule: { line: 2, kind: 'disallow', pattern: '/caf%E9' } })
    expect(await verdicts()).toEqual([['disallowed', '2'], ['allowed', '0']])
    expect(await page.locator('#diags-a-count').innerText()).toContain('not valid UTF-8: it is judged as its bytes')
    expect(await page.locator('#diags-a li').allInnerTexts()).toEqual(['line 2 warning: line is not valid UTF-8 [invalid-utf8]'])
    // Compared with itself, the new version starts as the same bytes: no URL changes.
    await page.check('#mode-diff')
    await settled(page)
    expect(await page.locator('#summary').innerText()).toBe('2 URLs compared for bot: 0 now disallowed, 0 now allowed, 2 unchanged.')
    await page.check('#mode-single')
    // Edited, the text is what is judged (U+FFFD is three bytes), and the note is gone.
    await paste(page, '#robots-a', (await page.locator('#robots-a').inputValue()) + 'Allow: /x\n')
    await settled(page)
    expect(await verdicts()).toEqual([['allowed', '0'], ['disallowed', '2']])
    expect(await page.locator('#diags-a-count').innerText()).not.toContain('UTF-8')
    await page.close()
  })

  it('a valid UTF-8 file past 1 MiB whose cut splits a character is not called invalid UTF-8; the note says the file was cut and its verdicts are check\'s', async () => {
    const page = await newPage()
    await page.goto(origin)
    await settled(page)
    // The 1 MiB limit falls inside the é.
    const head = 'User-agent: *\nDisallow: /x\n# '
    const body = Buffer.concat([Buffer.from(head), Buffer.alloc((1 << 20) - head.length - 1, 0x61), Buffer.from('\u00e9\nDisallow: /y\n')])
    await page.setInputFiles('#file-a', { name: 'robots.txt', mimeType: 'text/plain', buffer: body })
    await page.waitForFunction(() => (document.getElementById('robots-a') as HTMLTextAreaElement).value.length > 1000)
    await page.fill('#agents', 'bot')
    await page.fill('#urls', '/x\n/y')
    await settled(page)
    const note = await page.locator('#diags-a-count').innerText()
    expect(note).toContain(`The file is ${body.length.toLocaleString('en-US')} bytes: its first 1,024 KiB are shown and judged (the parser reads 500 KiB).`)
    expect(note).not.toContain('UTF-8')
    const m = parseRobots(new Uint8Array(body)).agent('bot')
    const rows = await page.locator('#rows tr').evaluateAll((trs: HTMLTableRowElement[]) => trs.map((tr) => tr.dataset.verdict))
    expect(rows).toEqual([m.isAllowed('/x') ? 'allowed' : 'disallowed', m.isAllowed('/y') ? 'allowed' : 'disallowed'])
    // Edited, the note goes.
    await paste(page, '#robots-a', 'User-agent: *\n')
    await settled(page)
    expect(await page.locator('#diags-a-count').innerText()).not.toContain('The file is')
    await page.close()
  })

  it('megabytes pasted into the editor were inserted whole (seconds of a stalled page, a hang when typed in): now the editor keeps the first 1 MiB as for an opened file, says what was cut, and gives the library\'s verdicts for it', async () => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin })
    const page = await newPage()
    await page.goto(origin)
    await settled(page)
    // About 4 MB of rules, some with a two-byte character; a rule past the cut.
    const lines = ['User-agent: *', 'Disallow: /x']
    for (let i = 0, n = 0; n < 4_000_000; i++) {
      const line = `Disallow: /s\u00e9ction-${i}/*/page.html$`
      lines.push(line)
      n += line.length + 1
    }
    const body = lines.join('\n') + '\nDisallow: /y\n'
    const size = Buffer.byteLength(body)
    const urls = ['/x', '/y', '/s%C3%A9ction-7/a/page.html', '/s%C3%A9ction-99999/a/page.html', '/elsewhere']
    await page.fill('#agents', 'bot')
    await page.fill('#urls', urls.join('\n'))
    await settled(page)
    const editor = page.locator('#robots-a')
    const length = (): Promise<number> => editor.evaluate((t: HTMLTextAreaElement) => t.value.length)
    /** The editor's text, checked as the first 1 MiB of the paste, and the verdicts as the library's for it. */
    const judged = async (what: string): Promise<void> => {
      // The guard only stops a stalled page from holding the run: no time is asserted.
      await page.locator('#results[data-status="done"]').waitFor({ timeout: 120_000 })
      const text = await editor.inputValue()
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(1 << 20)
      expect(Buffer.byteLength(text)).toBeGreaterThan((1 << 20) - 4)
      expect(body.startsWith(text)).toBe(true)
      expect(await page.locator('#diags-a-count').innerText()).toContain(
        `With the text ${what}, the robots.txt came to ${size.toLocaleString('en-US')} bytes: only its first 1,024 KiB are kept, shown and judged, as for an opened file (the parser reads 500 KiB); the rest was dropped.`,
      )
      const kept = parseRobots(new Uint8Array(Buffer.from(text))).agent('bot')
      const whole = parseRobots(body).agent('bot')
      const rows = await page.locator('#rows tr').evaluateAll((trs: HTMLTableRowElement[]) => trs.map((tr) => tr.dataset.verdict))
      expect(rows).toEqual(urls.map((u) => (kept.isAllowed(u) ? 'allowed' : 'disallowed')))
      expect(rows).toEqual(urls.map((u) => (whole.isAllowed(u) ? 'allowed' : 'disallowed')))
      // The gutter draws a screenful.
      expect(await page.locator('#editor-a .gutter .n').count()).toBeLessThan(40)
    }
    // A real paste (Ctrl+V from the clipboard) over the whole text.
    await page.evaluate((t) => navigator.clipboard.writeText(t), body)
    await editor.focus()
    await page.keyboard.press('Control+A')
    await page.keyboard.press('Control+V')
    await page.waitForFunction(() => (document.getElementById('robots-a') as HTMLTextAreaElement).value.length > 1000)
    await judged('pasted')
    // Inserted as typed text (which hung the page): cut the same way.
    await page.keyboard.press('Control+A')
    await page.keyboard.insertText('User-agent: *\n')
    await settled(page)
    expect(await length()).toBe(14)
    expect(await page.locator('#diags-a-count').innerText()).not.toContain('came to')
    await page.keyboard.press('Control+A')
    await page.keyboard.insertText(body)
    await judged('inserted')
    // Edited, the note goes; a short paste is left to the field.
    await page.evaluate(() => navigator.clipboard.writeText('User-agent: *\nDisallow: /elsewhere\n'))
    await page.keyboard.press('Control+A')
    await page.keyboard.press('Control+V')
    await settled(page)
    expect(await editor.inputValue()).toBe('User-agent: *\nDisallow: /elsewhere\n')
    expect(await page.locator('#diags-a-count').innerText()).not.toContain('came to')
    expect(await page.locator('#rows tr').evaluateAll((trs: HTMLTableRowElement[]) => trs.map((tr) => tr.dataset.verdict))).toEqual(['allowed', 'allowed', 'allowed', 'allowed', 'disallowed'])
    expect(errors).toEqual([])
    await context.clearPermissions()
    await page.close()
  })

  it('the stand-ins: unreachable disallows every URL by an implied rule, unavailable allows every URL', async () => {
    const page = await newPage()
    await page.goto(origin)
    await settled(page)
    await page.selectOption('#outcome-a', 'unreachable')
    await settled(page)
    const rules = await page.locator('#rows tr').evaluateAll((trs: HTMLTableRowElement[]) => trs.map((tr) => [tr.dataset.verdict, tr.cells[2].innerText]))
    expect(rules.length).toBe(6)
    for (const r of rules) expect(r).toEqual(['disallowed', 'implied: Disallow: / (robots.txt unreachable)'])
    expect(await page.locator('#editor-a .hl').isHidden()).toBe(true)
    await page.selectOption('#outcome-a', 'unavailable')
    await settled(page)
    expect(await page.locator('#summary').innerText()).toBe('6 URLs for Googlebot: 6 allowed, 0 disallowed.')
    await page.close()
  })

  it('diff mode: two versions side by side, the URLs whose verdict changes as diff finds them, both lines highlighted', async () => {
    const page = await newPage()
    await page.goto(origin)
    await settled(page)
    await page.check('#mode-diff')
    expect(await page.locator('#side-b').isVisible()).toBe(true)
    const before = 'User-agent: *\nDisallow: /a/\nDisallow: /b/\n'
    const after = 'User-agent: *\nDisallow: /b/\nDisallow: /c/\nAllow: /b/open\n'
    await page.fill('#robots-a', before)
    await page.fill('#robots-b', after)
    await page.fill('#agents', 'bot')
    await page.fill('#urls', '/a/1\n/b/1\n/b/open\n/c/1\n/d')
    await settled(page)
    const rows = await page.locator('#rows tr').evaluateAll((trs: HTMLTableRowElement[]) => trs.map((tr) => [tr.dataset.change, tr.cells[1].innerText, tr.cells[2].innerText, tr.cells[3].innerText]))
    expect(rows).toEqual([
      ['now-allowed', '/a/1', 'line 2 Disallow: /a/', 'no matching rule'],
      ['now-allowed', '/b/open', 'line 3 Disallow: /b/', 'line 4 Allow: /b/open'],
      ['now-disallowed', '/c/1', 'no matching rule', 'line 3 Disallow: /c/'],
    ])
    // The same changes as the library's verdicts, URL by URL.
    const a = parseRobots(before).agent('bot')
    const b = parseRobots(after).agent('bot')
    expect(rows.map((r) => r[1])).toEqual(['/a/1', '/b/1', '/b/open', '/c/1', '/d'].filter((u) => a.isAllowed(u) !== b.isAllowed(u)))
    expect(await page.locator('#summary').innerText()).toBe('5 URLs compared for bot: 1 now disallowed, 2 now allowed, 2 unchanged.')
    await page.locator('#rows tr').nth(1).locator('button').first().click()
    expect(await page.locator('#editor-a .hl').getAttribute('data-line')).toBe('3')
    expect(await page.locator('#editor-b .hl').getAttribute('data-line')).toBe('4')
    await page.close()
  })

  it('a shared link reopens the same case, in a new page and after a reload', async () => {
    const page = await newPage()
    await page.goto(origin)
    await settled(page)
    await page.check('#mode-diff')
    await page.fill('#robots-a', 'User-agent: *\nDisallow: /x\n# é 💩\n')
    await page.fill('#robots-b', 'User-agent: *\nDisallow: /y\n')
    await page.selectOption('#outcome-b', 'unavailable')
    await page.fill('#agents', 'Googlebot, Googlebot-News')
    await page.fill('#urls', '/x\n/y\n/z')
    await settled(page)
    // The link of this case, not one written for the sample or a case between two inputs.
    await page.locator('#link[data-status="done"]').waitFor()
    expect(await page.evaluate(() => location.hash.startsWith('#s=') && (document.getElementById('link') as HTMLInputElement).value === location.href)).toBe(true)
    const link = await page.locator('#link').inputValue()
    const summary = await page.locator('#summary').innerText()
    const fields = async (p: Page): Promise<unknown[]> => [
      await p.locator('#mode-diff').isChecked(),
      await p.locator('#robots-a').inputValue(),
      await p.locator('#robots-b').inputValue(),
      await p.locator('#outcome-b').inputValue(),
      await p.locator('#agents').inputValue(),
      await p.locator('#urls').inputValue(),
      await p.locator('#summary').innerText(),
    ]
    const want = [true, 'User-agent: *\nDisallow: /x\n# é 💩\n', 'User-agent: *\nDisallow: /y\n', 'unavailable', 'Googlebot, Googlebot-News', '/x\n/y\n/z', summary]
    expect(summary).toBe('3 URLs compared for Googlebot, Googlebot-News: 0 now disallowed, 1 now allowed, 2 unchanged.')
    const other = await newPage()
    await other.goto(link)
    await settled(other)
    expect(await fields(other)).toEqual(want)
    await page.reload()
    await settled(page)
    expect(await fields(page)).toEqual(want)
    await other.close()
    await page.close()
  })

  it('a link whose case inflates past the limit is refused with a message; the page opens its sample and stays usable', async () => {
    const json = Buffer.concat([Buffer.from('[0,"'), Buffer.alloc(64 << 20, 0x61), Buffer.from('",0,"",0,"",""]')])
    const link = `${origin}#s=1.${deflateRawSync(json, { level: 9 }).toString('base64url')}`
    const page = await newPage()
    await page.goto(link)
    await settled(page)
    expect(await page.locator('#link-note').isVisible()).toBe(true)
    expect(await page.locator('#link-note').innerText()).toMatch(/larger than the tester page opens \(8 MiB once unpacked/)
    expect(await page.locator('#agents').inputValue()).toBe('Googlebot')
    expect(await page.locator('#rows tr').count()).toBeGreaterThan(0)
    await page.close()
  })

  it('a damaged or newer link opened the sample with no word said: now a message says so, and the address keeps the link until the case is edited', async () => {
    const page = await newPage()
    const good = Buffer.from(JSON.stringify([0, 'User-agent: *\nDisallow: /', 0, '', 0, '/x', 'Googlebot'])).toString('base64url')
    for (const [fragment, message] of [
      [`#s=0.${good.slice(0, -5)}`, /^This link is damaged \(cut short or changed on the way\)/],
      [`#s=0.${Buffer.from(JSON.stringify([0, 5, 0, '', 0, '/x', 'Googlebot'])).toString('base64url')}`, /^This link is damaged/],
      [`#s=2.${good}`, /^This link was made by a newer version of the tester page/],
    ] as const) {
      await page.goto('about:blank')
      await page.goto(`${origin}${fragment}`)
      await settled(page)
      expect(await page.locator('#link-note').isVisible()).toBe(true)
      expect(await page.locator('#link-note').innerText()).toMatch(message)
      expect(await page.locator('#agents').inputValue()).toBe('Googlebot')
      expect(await page.locator('#summary').innerText()).toBe('6 URLs for Googlebot: 3 allowed, 3 disallowed.')
      await page.locator('#link[data-status="done"]').waitFor()
      expect(await page.locator('#link').inputValue()).toBe('')
      expect(await page.evaluate(() => location.hash)).toBe(fragment)
    }
    // A damaged link put into the address of a page that holds a case leaves the case as it was (it was replaced by the sample).
    await page.fill('#urls', '/mine')
    await settled(page)
    await page.locator('#link[data-status="done"]').waitFor()
    await page.evaluate((f) => (location.hash = f), `#s=0.${good.slice(0, -5)}`)
    await page.waitForFunction(() => document.getElementById('link-note')!.textContent!.startsWith('This link is damaged'))
    await settled(page)
    expect(await page.locator('#link-note').isVisible()).toBe(true)
    expect(await page.locator('#urls').inputValue()).toBe('/mine')
    expect(await page.locator('#summary').innerText()).toBe('1 URL for Googlebot: 1 allowed, 0 disallowed.')
    // An edit makes the case the page's own: its link is written.
    await page.fill('#urls', '/y')
    await settled(page)
    await page.locator('#link[data-status="done"]').waitFor()
    expect(await page.evaluate(() => location.hash)).toMatch(/^#s=1\./)
    expect(await page.locator('#link').inputValue()).toBe(await page.evaluate(() => location.href))
    await page.close()
  })

  it('several crawlers: a column each, every verdict and line the library gives the crawler alone; in diff mode too', async () => {
    const page = await newPage()
    await page.goto(origin)
    await settled(page)
    const body = 'User-agent: GPTBot\nDisallow: /\n\nUser-agent: Googlebot-Image\nDisallow: /img/\nAllow: /img/index.html\n\nUser-agent: *\nDisallow: /private/\n'
    const urls = ['/', '/img/a.png', '/img/', '/private/x', 'https://e.com/page']
    await page.fill('#robots-a', body)
    await page.fill('#agents', 'Googlebot')
    await page.fill('#crawlers', 'GPTBot, CCBot, Googlebot+Googlebot-Image')
    await page.fill('#urls', urls.join('\n'))
    await settled(page)
    const crawlers = [['Googlebot'], ['GPTBot'], ['CCBot'], ['Googlebot', 'Googlebot-Image']]
    expect(await page.locator('#thead th').allInnerTexts()).toEqual(['URL', 'Googlebot', 'GPTBot', 'CCBot', 'Googlebot+Googlebot-Image'])
    const rows = await page.locator('#rows tr').evaluateAll((trs: HTMLTableRowElement[]) => trs.map((tr) => [tr.dataset.verdicts, tr.dataset.lines]))
    const robots = parseRobots(body)
    const want = urls.map((u) => {
      const each = crawlers.map((c) => robots.agents(c).explain(u))
      return [each.map((e) => (e.allowed ? 'allowed' : 'disallowed')).join(' '), each.map((e) => e.rule?.line ?? 0).join(' ')]
    })
    expect(rows).toEqual(want)
    expect(await page.locator('#summary').innerText()).toBe('5 URLs for 4 crawlers; allowed: Googlebot 4, GPTBot 0, CCBot 4, Googlebot+Googlebot-Image 4.')
    // A crawler's line button highlights its deciding line.
    await page.locator('#rows tr').nth(1).locator('button[data-crawler="3"]').click()
    expect(await page.locator('#editor-a .hl').getAttribute('data-line')).toBe('5')
    expect(await page.locator('#editor-a .hl').getAttribute('data-kind')).toBe('disallow')
    // Compared with a version that lets GPTBot in: only its column changes.
    await page.check('#mode-diff')
    await page.fill('#robots-b', body.replace('User-agent: GPTBot\nDisallow: /\n\n', ''))
    await settled(page)
    const changes = await page.locator('#rows tr').evaluateAll((trs: HTMLTableRowElement[]) => trs.map((tr) => [tr.cells[0].innerText, tr.dataset.changes]))
    expect(changes).toEqual([
      ['/', 'unchanged now-allowed unchanged unchanged'],
      ['/img/a.png', 'unchanged now-allowed unchanged unchanged'],
      ['/img/', 'unchanged now-allowed unchanged unchanged'],
      ['https://e.com/page', 'unchanged now-allowed unchanged unchanged'],
    ])
    await page.close()
  })

  it('many crawlers froze the page: 300 crawlers drew 200 rows of 300 cells each at once, and a link of 5,000 crawlers judged them all; now a page of rows holds as many cells as one crawler\'s, and past check --crawlers\'s 1,000 none is judged, said so', async () => {
    const page = await newPage()
    await page.goto(origin)
    await settled(page)
    await paste(page, '#urls', Array.from({ length: 300 }, (_, i) => `/private/${i}`).join('\n'))
    const names = Array.from({ length: 300 }, (_, i) => `Bot${i}`)
    await paste(page, '#crawlers', names.join(','))
    await settled(page)
    // 301 columns: one row at a time, as many cells as a page of 200 rows of one crawler's verdict.
    expect(await page.locator('#thead th').count()).toBe(302)
    expect(await page.locator('#rows tr').count()).toBe(1)
    expect(await page.locator('#more').innerText()).toBe('Show 1 more (299 not shown)')
    expect(await page.locator('#summary').innerText()).toMatch(/^300 URLs for 301 crawlers; allowed: Googlebot 300, Bot0 0, /)
    await page.locator('#more').click()
    expect(await page.locator('#rows tr').count()).toBe(2)
    // Ten crawlers: 40 rows a page; the rows are every URL's, in order.
    await paste(page, '#crawlers', names.slice(0, 9).join(','))
    await settled(page)
    expect(await page.locator('#rows tr').count()).toBe(40)
    expect(await page.locator('#rows tr td.url').first().innerText()).toBe('/private/0')
    // One more than check --crawlers takes: refused, said so, no crawler judged.
    await paste(page, '#crawlers', Array.from({ length: 1001 }, (_, i) => `Bot${i}`).join(','))
    await settled(page)
    expect(await page.locator('#summary').innerText()).toBe('The more-crawlers field names 1,001 crawlers: the page judges at most 1,000 beside the first (as check --crawlers does), so none was judged.')
    expect(await page.locator('#rows tr').count()).toBe(0)
    await page.close()
  })

  it('a 1 MB crawler name made a 1 MB live region (the summary, read aloud): now each name shows 80 characters at most, and 20 crawlers at most are listed', async () => {
    const page = await newPage()
    await page.goto(origin)
    await settled(page)
    await paste(page, '#agents', `A${'b'.repeat(1 << 20)}`)
    await settled(page)
    expect(await page.locator('#summary').innerText()).toMatch(/^6 URLs for Ab{78}…: \d allowed, \d disallowed\.$/)
    await paste(page, '#agents', 'Googlebot')
    await paste(page, '#crawlers', [`\u{1F600}`.repeat(60), ...Array.from({ length: 24 }, (_, i) => `Bot${i}`)].join(','))
    await settled(page)
    // 39 emoji of two UTF-16 units each and a half: the half is dropped, never split.
    expect(await page.locator('#summary').innerText()).toMatch(/^6 URLs for 26 crawlers; allowed: Googlebot \d, \u{1F600}{39}… \d, (Bot\d+ \d, ){17}Bot17 \d and 6 more \(in the table\)\.$/u)
    await page.close()
  })

  it('keyboard and screen reader: every control labelled, focus in reading order, results in a live region, rows reachable by Tab', async () => {
    const page = await newPage()
    await page.goto(origin)
    await settled(page)
    const unlabelled = await page.evaluate(() =>
      Array.from(document.querySelectorAll('input, textarea, select, button'))
        .filter((el) => !(el as HTMLElement).hidden && !(el as HTMLElement).closest('[hidden]'))
        .filter((el) => {
          const labels = (el as HTMLInputElement).labels
          return !(labels && labels.length > 0) && !el.getAttribute('aria-label') && !(el.textContent ?? '').trim()
        })
        .map((el) => el.id || el.outerHTML.slice(0, 60)),
    )
    expect(unlabelled).toEqual([])
    expect(await page.locator('#summary').getAttribute('role')).toBe('status')
    expect(await page.locator('#summary').getAttribute('aria-live')).toBe('polite')
    expect(await page.locator('#table caption').innerText()).toContain('Each URL with its verdict')
    expect(await page.locator('#thead th').evaluateAll((ths) => ths.map((th) => th.getAttribute('scope')))).toEqual(['col', 'col', 'col'])
    // Tab from the top: the controls in reading order, the editor before the URLs before the results.
    await page.locator('body').focus()
    const order: string[] = []
    for (let i = 0; i < 13; i++) {
      await page.keyboard.press('Tab')
      order.push(await page.evaluate(() => document.activeElement?.id || (document.activeElement as HTMLElement)?.className || ''))
    }
    expect(order.slice(0, 8)).toEqual(['mode-single', 'agents', 'crawlers', 'file-a', 'outcome-a', 'robots-a', 'line', 'line'])
    expect(order.indexOf('urls')).toBe(8)
    expect(order.slice(9)).toEqual(['line', 'line', 'line', 'line'])
    // Enter on a result's line button highlights that line.
    await page.keyboard.press('Shift+Tab')
    await page.keyboard.press('Enter')
    const selected = await page.locator('#rows tr[aria-current="true"]').getAttribute('data-line')
    expect(await page.locator('#editor-a .hl').getAttribute('data-line')).toBe(selected)
    // Tab inside the editor moves on (no focus trap): from the robots.txt to its diagnostics.
    await page.locator('#robots-a').focus()
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.line)).toBe('10')
    await page.close()
  })

  it('a 500 KiB robots.txt and 10,000 URLs: judged in slices, the editor draws a screenful, a new input replaces a run', async () => {
    const page = await newPage()
    await page.goto(origin)
    await settled(page)
    const lines = ['User-agent: *']
    for (let i = 0; lines.join('\n').length < 512_000 - 40; i++) lines.push(`Disallow: /section-${i}/*/page-${i}.html$`)
    const body = lines.join('\n') + '\n'
    const urls = Array.from({ length: 10_000 }, (_, i) => `https://www.example.com/section-${i % 3000}/x/page-${i % 3000}.html`).join('\n')
    await page.evaluate(() => {
      const p = document.getElementById('progress')!
      const w = window as unknown as { seen: string[] }
      w.seen = []
      new MutationObserver(() => w.seen.push(p.getAttribute('value') ?? '')).observe(p, { attributes: true, attributeFilter: ['value'] })
    })
    // The robots.txt through the file input, the URLs pasted (Chromium's own text insertion, which page.fill
    // drives, takes seconds per 100 KB in any textarea: the paste's result and its input event stand for it).
    await page.setInputFiles('#file-a', { name: 'robots.txt', mimeType: 'text/plain', buffer: Buffer.from(body) })
    await page.fill('#agents', 'Googlebot')
    await paste(page, '#urls', urls)
    await settled(page)
    expect(await page.locator('#robots-a').inputValue()).toBe(body)
    expect(await page.locator('#summary').innerText()).toBe('10,000 URLs for Googlebot: 0 allowed, 10,000 disallowed.')
    expect(Number(await page.locator('#results').getAttribute('data-slices'))).toBeGreaterThanOrEqual(10)
    const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen.map(Number))
    expect(seen.filter((v) => v > 0 && v < 10_000).length).toBeGreaterThanOrEqual(9)
    // 200 rows drawn, the rest a button away; the gutter holds a screenful of numbers, not 13,000.
    expect(await page.locator('#rows tr').count()).toBe(200)
    expect(await page.locator('#more').innerText()).toBe('Show 200 more (9,800 not shown)')
    expect(await page.locator('#editor-a .gutter .n').count()).toBeLessThan(40)
    // The deciding line of a URL near the end of the file is highlighted and scrolled to.
    const last = lines.length
    await page.fill('#urls', `/section-${last - 2}/a/page-${last - 2}.html`)
    await settled(page)
    expect(await page.locator('#editor-a .hl').getAttribute('data-line')).toBe(String(last))
    expect(await page.locator('#editor-a .hl').isVisible()).toBe(true)
    expect(await page.locator('#editor-a .gutter .n', { hasText: new RegExp(`^${last}$`) }).count()).toBe(1)
    // Typing while a long run is under way (in the page, at its first progress): the run is dropped, its
    // summary never shows, and the results are the new input's.
    await page.evaluate(() => {
      const w = window as unknown as { switchedAt: number; summaries: string[] }
      const progress = document.getElementById('progress') as HTMLProgressElement
      const summary = document.getElementById('summary')!
      w.switchedAt = -1
      w.summaries = []
      new MutationObserver(() => w.summaries.push(summary.textContent ?? '')).observe(summary, { childList: true, characterData: true, subtree: true })
      const watch = new MutationObserver(() => {
        if (progress.max !== 10_000 || !(progress.value > 0 && progress.value < 10_000)) return
        watch.disconnect()
        w.switchedAt = progress.value
        const urls = document.getElementById('urls') as HTMLTextAreaElement
        urls.value = '/section-1/q/page-1.html\n/elsewhere'
        urls.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText' }))
      })
      watch.observe(progress, { attributes: true, attributeFilter: ['value'] })
    })
    await paste(page, '#urls', urls)
    await page.waitForFunction(() => (window as unknown as { switchedAt: number }).switchedAt > 0)
    await settled(page)
    expect(await page.locator('#summary').innerText()).toBe('2 URLs for Googlebot: 1 allowed, 1 disallowed.')
    const w = await page.evaluate(() => {
      const { switchedAt, summaries } = window as unknown as { switchedAt: number; summaries: string[] }
      return { switchedAt, summaries }
    })
    expect(w.switchedAt).toBeLessThan(10_000)
    expect(w.summaries).toEqual(['2 URLs for Googlebot: 1 allowed, 1 disallowed.'])
    expect(errors).toEqual([])
    await page.close()
  }, 300_000)

  it('works from disk, with no server (file://), and keeps a screenshot', async () => {
    const page = await newPage()
    const file = pathToFileURL(resolve(ROOT, 'dist/playground/index.html')).href
    await page.goto(file)
    await settled(page)
    expect(await page.locator('#summary').innerText()).toBe('6 URLs for Googlebot: 3 allowed, 3 disallowed.')
    expect(requests.filter((u) => u.startsWith('file:')).every((u) => u === file || u.endsWith('/dist/playground/playground.js'))).toBe(true)
    await page.setViewportSize({ width: 1024, height: 1010 })
    mkdirSync(resolve(ROOT, 'test-artifacts'), { recursive: true })
    const shot = resolve(ROOT, 'test-artifacts/playground.png')
    await page.screenshot({ path: shot })
    expect(readFileSync(shot).subarray(1, 4).toString()).toBe('PNG')
    if (process.env.UPDATE_SCREENSHOT === '1') copyFileSync(shot, resolve(ROOT, 'docs/playground.png'))
    expect(errors).toEqual([])
    await page.close()
  })
})
