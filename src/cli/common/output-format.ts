/**
 * The one output convention of the commands that print results:
 * `--format text|jsonl` ({@link formatOption}, {@link outputFormat}), with the
 * older spellings kept as aliases: `--json` (check, lint) and `--format lines`
 * (filter, diff).
 */
import { flag, optionValue, type OptionSpec, type ParsedArgs } from './args.js'
import { UsageError } from './cli-error.js'

/** What a command prints: text lines, or one JSON object per line. */
export type Format = 'text' | 'jsonl'

/** `--format text|jsonl`; `lines` too where it was the name of text (filter, diff). */
export function formatOption(withLines = false): OptionSpec {
  return { name: 'format', value: true, choices: withLines ? ['text', 'jsonl', 'lines'] : ['text', 'jsonl'] }
}

/** `--json`, an alias of `--format jsonl` (check, lint). */
export const JSON_OPTION: OptionSpec = { name: 'json', value: false }

/** The format asked for: `--format` (`lines` read as `text`), or `--json`; a usage error when the two disagree. */
export function outputFormat(args: ParsedArgs): Format {
  const given = optionValue(args, 'format')
  const json = flag(args, 'json')
  if (json && given !== undefined && given !== 'jsonl') throw new UsageError(`'--json' is '--format jsonl': it cannot go with '--format ${given}'`)
  if (json || given === 'jsonl') return 'jsonl'
  return 'text'
}
