/**
 * The tester page's entry (bundled with the core library into
 * playground.js by scripts/build-playground.mjs): reads the controls, judges
 * as the input changes (after a short pause, in slices), draws diagnostics
 * and results, and keeps the case in the address's fragment.
 */
import type { Diagnostic } from '../index.js'
import { RobotsEditor } from './editor.js'
import { diffAll, diffEach, judgeAll, judgeEach, JudgedSide, type Change, type RunToken, type Verdict } from './judge.js'
import { agentTokens, crawlerList, decodeState, encodeState, LinkRefused, MAX_LINK_CHARS, SAMPLE, urlList, type Outcome, type PageState, type RobotsSide } from './page-state.js'
import { bodyOf, cappedInsert, fileText, firstBytes, MAX_FILE_BYTES, openedFile, type OpenedFile } from './opened-file.js'
import { ResultsView } from './results-view.js'

/** Most crawlers of the more-crawlers field: `check --crawlers`'s limit. */
const MAX_CRAWLERS = 1000
/** Pause after the last keystroke before judging (ms). */
const INPUT_PAUSE_MS = 150
/** Pause before the address is rewritten (ms): encoding a large case costs more than judging it. */
const LINK_PAUSE_MS = 400

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T
const count = (n: number): string => n.toLocaleString('en-US')
const plural = (n: number, word: string): string => `${count(n)} ${word}${n === 1 ? '' : 's'}`
/** Crawlers named in the summary, a live region read aloud: the table has them all. */
const SUMMARY_CRAWLERS = 20
/** A name as the summary shows it: at most 80 characters. */
const clip = (s: string): string => (s.length <= 80 ? s : `${s.slice(0, /[\uD800-\uDBFF]/.test(s[78]) ? 78 : 79)}…`)
/** The summary's list of crawlers: the first ones, clipped, then how many more. */
const firstOf = (parts: readonly string[]): string =>
  parts.length <= SUMMARY_CRAWLERS ? parts.join(', ') : `${parts.slice(0, SUMMARY_CRAWLERS).join(', ')} and ${count(parts.length - SUMMARY_CRAWLERS)} more (in the table)`

/** One robots.txt panel: its editor, fetch outcome, file input and diagnostics list. */
class Side {
  readonly editor: RobotsEditor
  readonly outcome: HTMLSelectElement
  private readonly list: HTMLUListElement
  private readonly countNote: HTMLElement
  /** The file last opened, judged as its bytes while the editor holds its text unedited. */
  private file: OpenedFile | undefined
  /**
   * A file opened, or text pasted, past MAX_FILE_BYTES: its size, what was cut, and the text shown for
   * its first bytes (the note stays while the text is unedited).
   */
  private cut: { size: number; what: 'file' | 'pasted' | 'inserted'; shown: string } | undefined
  /** What the last drop or open could not do (a file that could not be read, files past the first): said while the text is the one it left. */
  private opening: { note: string; shown: string } | undefined

  constructor(
    key: 'a' | 'b',
    private readonly changed: () => void,
  ) {
    const root = $(`editor-${key}`)
    this.editor = new RobotsEditor(root)
    this.outcome = $(`outcome-${key}`)
    this.list = $(`diags-${key}`)
    this.countNote = $(`diags-${key}-count`)
    this.outcome.addEventListener('change', changed)
    this.editor.textarea.addEventListener('input', changed)
    // Text pasted or inserted past the limit is cut as an opened file is (the field would take seconds to insert megabytes).
    this.editor.textarea.addEventListener('paste', (e) => {
      const data = e.clipboardData?.getData('text/plain')
      if (data !== undefined && this.insert(data, 'pasted')) e.preventDefault()
    })
    this.editor.textarea.addEventListener('beforeinput', (e) => {
      const data = e.data ?? e.dataTransfer?.getData('text/plain')
      if (e.cancelable && typeof data === 'string' && this.insert(data, e.inputType === 'insertFromPaste' ? 'pasted' : 'inserted')) e.preventDefault()
    })
    this.list.addEventListener('click', (e) => {
      const b = (e.target as Element).closest('button[data-line]')
      if (b instanceof HTMLButtonElement) this.editor.revealLine(Number(b.dataset.line), true)
    })
    const file = $<HTMLInputElement>(`file-${key}`)
    file.addEventListener('change', () => {
      if (file.files !== null) void this.open(file.files)
      file.value = ''
    })
    root.addEventListener('dragover', (e) => {
      e.preventDefault()
      root.classList.add('dropping')
    })
    root.addEventListener('dragleave', () => root.classList.remove('dropping'))
    root.addEventListener('drop', (e) => {
      e.preventDefault()
      root.classList.remove('dropping')
      if (e.dataTransfer !== null) void this.open(e.dataTransfer.files)
    })
  }

  get state(): RobotsSide {
    return { text: this.editor.value, outcome: this.outcome.value as Outcome }
  }

  set state(s: RobotsSide) {
    this.file = undefined
    this.cut = undefined
    this.opening = undefined
    this.editor.value = s.text
    this.outcome.value = s.outcome
  }

  /** The bytes to judge instead of the text: the opened file's, until its text is edited. */
  get bytes(): Uint8Array | undefined {
    return bodyOf(this.file, this.editor.value)
  }

  /** A key of what is judged: the text, or the opened file whose bytes are. */
  get bodyKey(): string {
    return this.bytes === undefined ? '' : `file ${this.file?.serial}`
  }

  /** Takes the other side's text and outcome, and its opened file (the comparison starts as a copy). */
  copy(other: Side): void {
    this.state = other.state
    this.file = other.bytes === undefined ? undefined : other.file
    this.cut = other.cut
  }

  /**
   * Opens the first of the files dropped or chosen. One that cannot be read
   * (a folder, a file gone or not readable) leaves the editor as it was, and
   * the note says so; so does a drop of several files, of which only the
   * first is opened.
   */
  private async open(files: FileList): Promise<void> {
    const f = files[0]
    if (f === undefined) return
    const others = files.length > 1 ? `${count(files.length)} files were given: only the first, ${JSON.stringify(f.name)}, is opened. ` : ''
    let read: Uint8Array
    try {
      // One byte more than kept tells a file cut at the limit from one that ends there.
      read = new Uint8Array(await f.slice(0, MAX_FILE_BYTES + 1).arrayBuffer())
    } catch (err) {
      const why = err instanceof Error && err.message !== '' ? ` (${err.message})` : ''
      this.opening = { note: `${others}${JSON.stringify(f.name)} could not be read${why}: the editor keeps its text. `, shown: this.editor.value }
      this.changed()
      return
    }
    this.load(f, read)
    this.opening = others === '' ? undefined : { note: others, shown: this.editor.value }
    this.changed()
  }

  /**
   * Inserts `data` at the selection itself when the text would pass
   * MAX_FILE_BYTES: its first bytes are kept, and the note says what was cut.
   * False when it fits (the field inserts it, keeping undo).
   */
  private insert(data: string, what: 'pasted' | 'inserted'): boolean {
    const ta = this.editor.textarea
    const capped = cappedInsert(ta.value, ta.selectionStart, ta.selectionEnd, data, MAX_FILE_BYTES)
    if (capped === undefined) return false
    this.editor.value = capped.text
    ta.setSelectionRange(capped.caret, capped.caret)
    this.file = undefined
    this.opening = undefined
    this.cut = { size: capped.size, what, shown: this.editor.value }
    this.changed()
    return true
  }

  private load(file: File, read: Uint8Array): void {
    const bytes = firstBytes(read, MAX_FILE_BYTES)
    this.editor.value = fileText(bytes)
    this.file = openedFile(bytes, this.editor.value)
    this.cut = read.length > MAX_FILE_BYTES ? { size: file.size, what: 'file', shown: this.editor.value } : undefined
  }

  /** Lists the diagnostics (a button per line, which puts the caret there) and marks them in the gutter. */
  showDiagnostics(diagnostics: readonly Diagnostic[], outcome: Outcome): void {
    this.editor.setDiagnostics(diagnostics)
    const items = diagnostics.map((d) => {
      const li = document.createElement('li')
      li.className = d.severity
      if (d.line > 0) {
        const b = document.createElement('button')
        b.type = 'button'
        b.className = 'line'
        b.dataset.line = String(d.line)
        b.textContent = `line ${d.line}`
        li.append(b, ' ')
      }
      const sev = document.createElement('span')
      sev.className = 'sev'
      sev.textContent = `${d.severity}: `
      const code = document.createElement('code')
      code.textContent = d.code
      li.append(sev, `${d.message} [`, code, ']')
      return li
    })
    this.list.replaceChildren(...items)
    const by = { error: 0, warning: 0, info: 0 }
    for (const d of diagnostics) by[d.severity]++
    const bytes =
      outcome === 'file' && this.bytes !== undefined && !this.file?.utf8
        ? 'The file is not valid UTF-8: it is judged as its bytes, as served, until you edit it (the editor shows the invalid bytes as \uFFFD, and a link holds the text). '
        : ''
    const c = this.cut !== undefined && this.cut.shown === this.editor.value ? this.cut : undefined
    const cut =
      c === undefined
        ? ''
        : c.what === 'file'
          ? `The file is ${count(c.size)} bytes: its first ${count(MAX_FILE_BYTES >> 10)} KiB are shown and judged (the parser reads 500 KiB). `
          : `With the text ${c.what}, the robots.txt came to ${count(c.size)} bytes: only its first ${count(MAX_FILE_BYTES >> 10)} KiB are kept, shown and judged, as for an opened file (the parser reads 500 KiB); the rest was dropped. `
    const opening = this.opening !== undefined && this.opening.shown === this.editor.value ? this.opening.note : ''
    this.countNote.textContent =
      opening +
      cut +
      bytes +
      (outcome === 'unavailable'
        ? 'Unavailable (4xx): the text is not used, every URL is allowed (RFC 9309 §2.3.1.3).'
        : outcome === 'unreachable'
          ? 'Unreachable (5xx or no answer): the text is not used, every URL is disallowed (RFC 9309 §2.3.1.4).'
          : diagnostics.length === 0
            ? 'No diagnostics.'
            : `Diagnostics: ${plural(by.error, 'error')}, ${plural(by.warning, 'warning')}, ${count(by.info)} info.`)
  }
}

class Page {
  private readonly a: Side
  private readonly b: Side
  private readonly urls = $<HTMLTextAreaElement>('urls')
  private readonly agents = $<HTMLInputElement>('agents')
  private readonly crawlers = $<HTMLInputElement>('crawlers')
  private readonly results = $('results')
  private readonly summary = $('summary')
  private readonly progress = $<HTMLProgressElement>('progress')
  private readonly link = $<HTMLInputElement>('link')
  private readonly view: ResultsView
  private run: RunToken = { cancelled: false }
  private inputTimer = 0
  private linkTimer = 0
  /** Counts the case's changes: a link encoded for an older case is not written. */
  private linkSeq = 0
  /** The last sides judged, by their input, so that editing the URLs does not parse the robots.txt again. */
  private cache = new Map<string, JudgedSide>()
  /** Whether a case is open (the link's or the sample): a link refused later leaves it as it is. */
  private opened = false

  constructor() {
    const changed = (): void => this.changed()
    this.a = new Side('a', changed)
    this.b = new Side('b', changed)
    this.view = new ResultsView($('rows'), $('thead'), $('caption'), $('more'), (i) => this.highlight(i))
    this.urls.addEventListener('input', changed)
    this.agents.addEventListener('input', changed)
    this.crawlers.addEventListener('input', changed)
    document.querySelectorAll<HTMLInputElement>('input[name=mode]').forEach((r) => r.addEventListener('change', () => this.modeChanged()))
    $('copy').addEventListener('click', () => void this.copyLink())
    window.addEventListener('hashchange', () => void this.openLink())
  }

  get mode(): PageState['mode'] {
    return $<HTMLInputElement>('mode-diff').checked ? 'diff' : 'single'
  }

  get state(): PageState {
    return { mode: this.mode, a: this.a.state, b: this.b.state, urls: this.urls.value, agents: this.agents.value, crawlers: this.crawlers.value }
  }

  set state(s: PageState) {
    $<HTMLInputElement>(s.mode === 'diff' ? 'mode-diff' : 'mode-single').checked = true
    this.a.state = s.a
    this.b.state = s.b
    this.urls.value = s.urls
    this.agents.value = s.agents
    this.crawlers.value = s.crawlers
    this.showMode()
  }

  /** Opens the case of the address's fragment, or the sample. */
  async openLink(): Promise<void> {
    const note = $('link-note')
    let fromLink: PageState | null
    try {
      fromLink = await decodeState(location.hash)
      note.hidden = true
    } catch (err) {
      if (!(err instanceof LinkRefused)) throw err
      // Said so, and the sample opens; the address keeps the link until the case is edited.
      note.textContent = err.message
      note.hidden = false
      // A link pasted into the address of an open page leaves its case as it was; a page opening with one shows its sample.
      if (!this.opened) {
        this.opened = true
        this.state = SAMPLE
        this.changed(false)
      }
      return
    }
    this.opened = true
    if (fromLink !== null && JSON.stringify(fromLink) === JSON.stringify(this.state)) return
    this.state = fromLink ?? SAMPLE
    this.changed()
  }

  private showMode(): void {
    const diff = this.mode === 'diff'
    document.body.classList.toggle('diff', diff)
    $('side-b').hidden = !diff
    $('label-a').textContent = diff ? 'Old robots.txt' : 'robots.txt'
  }

  private modeChanged(): void {
    // Entering the comparison with an empty new version starts it as a copy of the old one.
    if (this.mode === 'diff' && this.b.editor.value === '') this.b.copy(this.a)
    this.showMode()
    this.changed()
  }

  /**
   * Input changed: results are pending at once (tests and screen readers can
   * tell), judged after a pause. `link` false: the address is left as it is
   * (a link the page refused stays there, to be read or mended), and the
   * link field is empty until the case is edited.
   */
  private changed(link = true): void {
    this.run.cancelled = true
    this.results.dataset.status = 'pending'
    clearTimeout(this.inputTimer)
    this.inputTimer = window.setTimeout(() => void this.judge(), INPUT_PAUSE_MS)
    clearTimeout(this.linkTimer)
    this.linkSeq++
    if (!link) {
      this.link.value = ''
      this.link.dataset.status = 'done'
      return
    }
    this.link.dataset.status = 'pending'
    this.linkTimer = window.setTimeout(() => void this.writeLink(), LINK_PAUSE_MS)
  }

  private side(s: RobotsSide, from: Side, tokens: readonly string[], others: readonly string[][]): JudgedSide {
    const key = JSON.stringify([s.outcome, s.outcome === 'file' ? s.text : '', from.bodyKey, tokens, others])
    let judged = this.cache.get(key)
    if (judged === undefined) {
      judged = new JudgedSide(s, tokens, others, from.bytes)
      this.cache.set(key, judged)
    }
    return judged
  }

  private async judge(): Promise<void> {
    const token: RunToken = { cancelled: false }
    this.run = token
    const state = this.state
    const tokens = agentTokens(state.agents)
    const listed = crawlerList(state.crawlers)
    // Past the limit of `check --crawlers`, no crawler is judged (their sides are parsed for the diagnostics alone).
    const tooMany = listed.length > MAX_CRAWLERS
    const others = tooMany ? [] : listed
    const urls = urlList(state.urls)
    const a = this.side(state.a, this.a, tokens, others)
    const b = state.mode === 'diff' ? this.side(state.b, this.b, tokens, others) : undefined
    // Only the sides in use stay cached.
    this.cache = new Map([...this.cache].filter(([, v]) => v === a || v === b))
    this.a.showDiagnostics(a.diagnostics(state.a), state.a.outcome)
    if (b !== undefined) this.b.showDiagnostics(b.diagnostics(state.b), state.b.outcome)
    this.progress.hidden = urls.length < 2000
    this.progress.max = Math.max(1, urls.length)
    this.progress.value = 0
    let slices = 0
    const progress = (done: number): void => {
      slices++
      this.progress.value = done
    }
    const crawler = tokens.length === 1 ? tokens[0] : tokens.join(', ')
    const shown = clip(crawler)
    if (tooMany) {
      this.finish(token, `The more-crawlers field names ${count(listed.length)} crawlers: the page judges at most ${count(MAX_CRAWLERS)} beside the first (as check --crawlers does), so none was judged.`)
      this.view.show({ kind: 'crawlers', names: [], rows: [] })
    } else if (others.length > 0) {
      // Several crawlers: a column each, the first crawler first.
      const names = [crawler, ...others.map((c) => c.join('+'))]
      if (b === undefined) {
        const rows = await judgeEach(a, urls, token, progress)
        if (rows === null) return
        const each = firstOf(names.map((n, k) => `${clip(n)} ${count(rows.filter((r) => r[k].allowed).length)}`))
        this.finish(token, `${plural(urls.length, 'URL')} for ${names.length} crawlers; allowed: ${each}.`)
        this.view.show({ kind: 'crawlers', names, rows })
      } else {
        const changes = await diffEach(a, b, urls, token, progress)
        if (changes === null) return
        const each = firstOf(names.map((n, k) => `${clip(n)} ${count(changes.filter((c) => c.changes[k] === 'now-disallowed').length)}/${count(changes.filter((c) => c.changes[k] === 'now-allowed').length)}`))
        this.finish(token, `${plural(urls.length, 'URL')} compared for ${names.length} crawlers: ${count(changes.length)} with a change for some crawler; now disallowed/now allowed: ${each}.`)
        this.view.show({ kind: 'crawlers-diff', names, changes })
      }
    } else if (b === undefined) {
      const verdicts = await judgeAll(a, urls, token, progress)
      if (verdicts === null) return
      const disallowed = verdicts.filter((v) => !v.allowed).length
      this.finish(token, `${plural(urls.length, 'URL')} for ${shown}: ${count(urls.length - disallowed)} allowed, ${count(disallowed)} disallowed.`)
      this.view.show({ kind: 'single', verdicts })
    } else {
      const changes = await diffAll(a, b, urls, token, progress)
      if (changes === null) return
      const nowAllowed = changes.filter((c) => c.change === 'now-allowed').length
      this.finish(
        token,
        `${plural(urls.length, 'URL')} compared for ${shown}: ${count(changes.length - nowAllowed)} now disallowed, ${count(nowAllowed)} now allowed, ${count(urls.length - changes.length)} unchanged.`,
      )
      this.view.show({ kind: 'diff', changes })
    }
    // How many slices the judging took (the tests check that a long list gives the thread back).
    this.results.dataset.slices = String(slices)
    this.results.dataset.status = 'done'
  }

  private finish(token: RunToken, summary: string): void {
    if (token.cancelled) return
    this.progress.hidden = true
    this.summary.textContent = summary
  }

  /** Highlights the deciding line(s) of result `index` in the editor(s). */
  private highlight(index: number): void {
    const row = this.view.selectedRow()
    const mark = (side: Side, v: Verdict | undefined): void => {
      side.editor.setHighlight(v?.line ?? 0, v === undefined ? 'none' : v.allowed ? 'allow' : 'disallow')
      if (v !== undefined) side.editor.revealLine(v.line, false)
    }
    if (index < 0 || row === undefined) {
      mark(this.a, undefined)
      mark(this.b, undefined)
    } else if ('change' in row) {
      const c = row as Change
      mark(this.a, c.old)
      mark(this.b, c.new)
    } else {
      mark(this.a, row)
      mark(this.b, undefined)
    }
  }

  /** Writes the case's link into the address and the link field (`data-status` "done" once it is the case's). */
  private async writeLink(): Promise<void> {
    const seq = this.linkSeq
    let fragment: string | undefined
    let refused = ''
    try {
      fragment = await encodeState(this.state)
    } catch (err) {
      if (!(err instanceof LinkRefused)) throw err
      refused = err.message
    }
    // The case changed while it was encoded: the write its change scheduled follows.
    if (seq !== this.linkSeq) return
    if (fragment === undefined) this.link.value = refused
    else if (fragment.length > MAX_LINK_CHARS) this.link.value = 'This case is too large for a link.'
    else {
      history.replaceState(null, '', fragment)
      this.link.value = location.href
    }
    this.link.dataset.status = 'done'
  }

  private async copyLink(): Promise<void> {
    await this.writeLink()
    const done = $('copied')
    try {
      await navigator.clipboard.writeText(this.link.value)
      done.textContent = 'Copied.'
    } catch {
      this.link.select()
      done.textContent = 'Selected: copy it with Ctrl+C.'
    }
  }
}

void new Page().openLink()
