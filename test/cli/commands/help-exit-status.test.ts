/**
 * Every command's --help has an EXIT STATUS section (pack's had none, fetch's
 * left out 2), and it lists the statuses docs/cli.md's table gives that
 * command: 0, 1 and 2 for every one; 3, 4, 129, 130 and 143 exactly for the
 * commands the table's row names.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { AUDIT_HELP } from '../../../src/cli/commands/audit-help.js'
import { CHECK_HELP } from '../../../src/cli/commands/check-help.js'
import { COMPARE_HELP } from '../../../src/cli/commands/compare-help.js'
import { DIFF_HELP } from '../../../src/cli/commands/diff-help.js'
import { FETCH_HELP } from '../../../src/cli/commands/fetch-help.js'
import { FILTER_HELP } from '../../../src/cli/commands/filter-help.js'
import { LINT_HELP } from '../../../src/cli/commands/lint-help.js'
import { PACK_HELP } from '../../../src/cli/commands/pack-help.js'
import { PLAYGROUND_HELP } from '../../../src/cli/commands/playground-help.js'
import { ROOT } from '../helpers.js'

const HELP: Record<string, string> = {
  audit: AUDIT_HELP,
  check: CHECK_HELP,
  compare: COMPARE_HELP,
  diff: DIFF_HELP,
  fetch: FETCH_HELP,
  filter: FILTER_HELP,
  lint: LINT_HELP,
  pack: PACK_HELP,
  playground: PLAYGROUND_HELP,
}
const COMMANDS = Object.keys(HELP)

/** The statuses a help's EXIT STATUS section lists (`  3  …`, `  130, 143`). */
function helpStatuses(help: string): Set<number> | undefined {
  const m = /\nEXIT STATUS\n([\s\S]*?)(?:\n\n|$)/.exec(help)
  if (m === null) return undefined
  const out = new Set<number>()
  for (const line of m[1]!.split('\n')) {
    const codes = /^ {2}(\d+(?:, \d+)*)(?: |$)/.exec(line)
    if (codes !== null) for (const c of codes[1]!.split(', ')) out.add(Number(c))
  }
  return out
}

/** docs/cli.md's exit table: each status and the commands its row names (`check --exit-code`, `diff`'s, ...). */
function tableRows(): Map<number, Set<string>> {
  const page = readFileSync(join(ROOT, 'docs/cli.md'), 'utf8')
  const section = page.slice(page.indexOf('## Exit status and errors'))
  const rows = new Map<number, Set<string>>()
  for (const line of section.split('\n')) {
    const m = /^\| (\d+(?:, \d+)*) \| (.*) \|$/.exec(line)
    if (m === null) continue
    const named = new Set<string>()
    for (const c of COMMANDS) if (new RegExp(`\`${c}[\` ']`).test(m[2]!)) named.add(c)
    for (const code of m[1]!.split(', ')) rows.set(Number(code), named)
  }
  return rows
}

describe("each command's EXIT STATUS matches docs/cli.md", () => {
  const rows = tableRows()

  it('the table has its rows', () => {
    expect([...rows.keys()].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 129, 130, 143])
  })

  it.each(COMMANDS)('%s --help lists its statuses', (command) => {
    const listed = helpStatuses(HELP[command]!)
    expect(listed, `${command} --help has no EXIT STATUS section`).toBeDefined()
    for (const code of [0, 1, 2]) expect(listed!.has(code), `${command}: ${code}`).toBe(true)
    for (const code of listed!) expect(rows.has(code), `${command}: ${code} is not in the table`).toBe(true)
    for (const code of [3, 4, 129, 130, 143]) {
      expect(listed!.has(code), `${command}: status ${code} (table names ${[...rows.get(code)!].join(', ')})`).toBe(rows.get(code)!.has(command))
    }
  })
})
