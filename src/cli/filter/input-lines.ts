/**
 * Every line of the inputs, read as `filter` reads them and located by a
 * {@link LineLocator} ({@link forEachInputLine}): for the commands that take
 * lines one by one in the main thread (`check` from stdin, `diff`, `fetch`).
 * `filter` reads the same blocks and locates each line with the same
 * locator, in its judging threads.
 */
import { lineEnd, urlEnd } from '../../index.js'
import { openInput, type InputFile } from './input.js'
import { blockSizeFromEnv, lineBlocks } from './line-blocks.js'
import type { LineFault, LineLocator } from './line-locator.js'

/**
 * One line, as `visit` gets it: the line `bytes[start, end)` without its
 * ending (as `urlEnd` cuts it), its number in its input (from 1), and what
 * the locator found (`fault`; the URL and host are in the locator's fields).
 * `bytes` is reused after the block: copy what must outlive it.
 */
export type LineVisitor = (bytes: Uint8Array, start: number, end: number, fault: LineFault, line: number, input: InputFile) => void

/**
 * Reads `inputs` in order (files or stdin, gzip or not: input.ts), cuts
 * them into lines (line-blocks.ts), locates each line with `locator` and
 * calls `visit`; after a block's lines, `afterBlock(pause)` (`pause`: the
 * input paused, flush what was written).
 */
export async function forEachInputLine(
  inputs: readonly InputFile[],
  locator: LineLocator,
  visit: LineVisitor,
  afterBlock: (pause: boolean) => Promise<void>,
): Promise<void> {
  for (const input of inputs) {
    const reader = await openInput(input, { bytes: 0 })
    let number = 0
    try {
      for await (const block of lineBlocks(reader, input.name, blockSizeFromEnv())) {
        const bytes = block.bytes
        for (let pos = 0; pos < bytes.length; ) {
          const lf = lineEnd(bytes, pos)
          const end = urlEnd(bytes, pos, lf)
          visit(bytes, pos, end, locator.locate(bytes, pos, end), ++number, input)
          pos = lf + 1
        }
        await afterBlock(block.pause)
      }
    } finally {
      await reader.close()
    }
  }
}
