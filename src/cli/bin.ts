#!/usr/bin/env node
/**
 * Entry point of the `robots-automaton` command (built to `dist/cli.js`):
 * guards stdout and stderr (a closed stdout ends quietly), says which
 * outputs a stop signal leaves unwritten, runs {@link main} and exits with
 * its code once stdout has taken everything.
 */
import { main, reportFailure } from './main.js'
import { exitAfterStdout, guardStdio, note } from './common/stdio.js'
import { unwrittenOutputs } from './common/output-file.js'
import { onUnhandledSignal } from '../tools/last-resort.js'

guardStdio()
// A signal that no run handles (pack, filter, the writes at a run's end) is said, with the outputs it leaves unwritten, then ends the process.
onUnhandledSignal((name) => {
  const outputs = unwrittenOutputs()
  note(`interrupted by ${name}${outputs.length > 0 ? `: ${outputs.join(', ')} not written (left as it was)` : ''}`)
})
main(process.argv.slice(2)).then(exitAfterStdout, (err) => exitAfterStdout(reportFailure(err)))
