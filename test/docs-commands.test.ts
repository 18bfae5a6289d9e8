/**
 * The command lists of the README ("Command line") and docs/cli.md
 * ("Commands") are the program's commands, as its help lists them: each
 * command once, in a `robots-automaton COMMAND …` line of the page's first
 * sh block of that section, and the number the prose gives is their count.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MAIN_HELP } from '../src/cli/main-help.js'
import { ROOT } from './support/build.js'

const COMMANDS = /\nCOMMANDS\n([\s\S]*?)\n\n/
  .exec(MAIN_HELP)![1]!
  .split('\n')
  .map((l) => /^ {2}([a-z]+) /.exec(l)![1]!)

const NUMBERS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve']

/** The commands of the first sh block after `heading`, and the number word of the prose between them. */
function listed(file: string, heading: string): { commands: string[]; said: string | undefined } {
  const text = readFileSync(join(ROOT, file), 'utf8')
  const at = text.indexOf(`\n${heading}\n`)
  expect(at, `${file}: ${heading}`).toBeGreaterThanOrEqual(0)
  const rest = text.slice(at)
  const block = /```sh\n([\s\S]*?)```/.exec(rest)!
  const prose = rest.slice(0, block.index).toLowerCase()
  const said = NUMBERS.find((n) => new RegExp(`\\b${n}\\s+commands\\b`).test(prose))
  const commands = block[1]!.split('\n').flatMap((l) => /^robots-automaton ([a-z]+)\b/.exec(l)?.[1] ?? [])
  return { commands, said }
}

describe("the pages' command lists are the program's", () => {
  it('the help lists the commands', () => {
    expect(COMMANDS).toContain('audit')
    expect(COMMANDS.length).toBeGreaterThan(5)
  })

  it.each([
    ['README.md', '## Command line'],
    ['docs/cli.md', '## Commands'],
  ])('regression: %s listed eight commands (or said eight of nine), audit left out; it lists every command once, and says how many', (file, heading) => {
    const { commands, said } = listed(file, heading)
    expect([...commands].sort()).toEqual([...COMMANDS].sort())
    expect(said).toBe(NUMBERS[COMMANDS.length])
  })
})
