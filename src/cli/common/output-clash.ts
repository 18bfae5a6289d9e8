/**
 * Outputs that would overwrite what the run reads, or one another: an
 * output file that is one of the run's inputs (`fetch urls.txt -o urls.txt`,
 * `pack fetched.jsonl -o fetched.jsonl`) replaces the user's data with the
 * run's result, and two outputs that are one file (`compare --json r --csv
 * r`) keep only the one written last. Both are usage errors, found before
 * any work. Files are told apart as the system does (device and inode: a
 * link or a second name of the file is the file); a path not there yet by
 * its folder's real path and its name. Stdout, FIFOs and devices are
 * streams, not files, and are left out.
 */
import { realpathSync, statSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { UsageError } from './cli-error.js'
import type { OutputTarget } from './output-file.js'
import { printable } from '../../tools/printable.js'

/** An output of the run: the option that names it and the file it replaces (undefined: a stream, or not given). */
export interface NamedOutput {
  readonly option: string
  readonly file: string | undefined
}

/** An input of the run: what it is in messages (`input file`, `'--module' file`) and its path (`-` and undefined are skipped). */
export interface NamedInput {
  readonly what: string
  readonly path: string | undefined
  /** The output option meant to replace this input once it is read (`-o` of `fetch --update B -o B`). */
  readonly replacedBy?: string
}

/** The file an output target replaces, or undefined for stdout, a FIFO or a device. */
export function outputFile(target: OutputTarget | undefined): string | undefined {
  return target?.kind === 'file' ? target.file : undefined
}

/** What makes two paths one file: device and inode when it exists, else its folder's real path and its name. */
function identity(path: string): string | undefined {
  try {
    const info = statSync(path)
    return info.isFile() ? `${info.dev}:${info.ino}` : undefined
  } catch {
    const full = resolve(path)
    try {
      return join(realpathSync(dirname(full)), basename(full))
    } catch {
      return full
    }
  }
}

/**
 * Throws a usage error when an output is one of `inputs` (unless that input
 * is `replacedBy` it) or two outputs are one file.
 */
export function checkOutputsApart(outputs: readonly NamedOutput[], inputs: readonly NamedInput[]): void {
  const seen = new Map<string, NamedOutput>()
  for (const out of outputs) {
    if (out.file === undefined) continue
    const id = identity(out.file)
    if (id === undefined) continue
    const first = seen.get(id)
    if (first !== undefined) {
      throw new UsageError(`options '${first.option}' and '${out.option}' name the same file ('${printable(out.file)}'): one would overwrite the other; name another file`)
    }
    seen.set(id, out)
  }
  for (const input of inputs) {
    if (input.path === undefined || input.path === '-') continue
    let info
    try {
      info = statSync(input.path)
    } catch {
      continue // not there: the input's own read names it
    }
    if (!info.isFile()) continue
    const out = seen.get(`${info.dev}:${info.ino}`)
    if (out === undefined || out.option === input.replacedBy) continue
    throw new UsageError(`option '${out.option}' names the ${input.what} '${printable(input.path)}': it would be replaced by the output; name another file`)
  }
}
