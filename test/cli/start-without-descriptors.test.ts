/**
 * A start this machine cannot make: with too few file descriptors left to
 * read the command's modules (`ulimit -n`), the command says so in one line
 * and exits 1, never Node's stack trace.
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { CLI } from './helpers.js'

describe.skipIf(!existsSync('/bin/bash'))('regression: a start with too few file descriptors to load the modules ended in a stack trace (EMFILE)', () => {
  it('ulimit -n 22: one line naming EMFILE and what to do, exit 1; with enough descriptors the same command runs', () => {
    const run = (n: number) => spawnSync('/bin/bash', ['-c', `ulimit -n ${n} && exec "$@"`, 'bash', process.execPath, CLI, '--version'], { encoding: 'utf8' })
    const short = run(22)
    // A start that did get its descriptors (a lighter Node) proves nothing here, but must then be a normal one.
    if (short.status === 0) {
      expect(short.stdout).toMatch(/^robots-automaton \d/)
      return
    }
    expect(short.stderr).toBe('robots-automaton: cannot start: no file descriptor left to load its modules (EMFILE): raise the limit (ulimit -n)\n')
    expect(short.status).toBe(1)
    const enough = run(256)
    expect(enough.status).toBe(0)
    expect(enough.stdout).toMatch(/^robots-automaton \d/)
  })
})
