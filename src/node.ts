/**
 * Node-only entry point (`robots-automaton/node`): robots.txt files from disk
 * and Node readable streams. The core (`robots-automaton`) stays free of Node
 * built-ins; this module adds what needs `node:fs`.
 *
 * @module robots-automaton/node
 */
import { open } from 'node:fs/promises'
import { parseRobotsStream, type ParseOptions, type Robots } from './index.js'

export { parseRobotsStream, type ByteSource, type ParseOptions } from './index.js'

/** Read size when streaming a robots.txt file from disk. */
const FILE_CHUNK = 64 * 1024

/**
 * Parses a robots.txt file. The file is streamed and reading stops at the
 * parsing limit, so a huge file costs no more than the limit. Rejects with
 * the system error (`code` `ENOENT`, `EISDIR`, …) when the file cannot be read.
 */
export async function parseRobotsFile(path: string | URL, options: ParseOptions = {}): Promise<Robots> {
  const handle = await open(path, 'r')
  try {
    const info = await handle.stat()
    if (info.isDirectory()) {
      throw Object.assign(new Error(`EISDIR: illegal operation on a directory, read '${String(path)}'`), {
        code: 'EISDIR',
        errno: -21,
        syscall: 'read',
      })
    }
    const stream = handle.createReadStream({ highWaterMark: FILE_CHUNK, autoClose: false })
    return await parseRobotsStream(stream, options)
  } finally {
    await handle.close()
  }
}

/** Plain words for the system errors a user meets when naming files. */
const SYSTEM_WORDS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EISDIR: 'is a directory',
  ENOTDIR: 'not a directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENAMETOOLONG: 'file name too long',
  ELOOP: 'too many symbolic links',
  EMFILE: 'too many open files',
  EIO: 'input/output error',
  ENOSPC: 'no space left on device',
  Z_DATA_ERROR: 'not valid gzip data',
  Z_BUF_ERROR: 'gzip data is cut short',
}

/**
 * A short description of a Node system error, as the command line words it:
 * `no such file or directory` for `ENOENT`, `permission denied` for
 * `EACCES`, …; for any other error, the first line of its message.
 */
export function describeSystemError(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown }
  if (typeof e?.code === 'string' && Object.hasOwn(SYSTEM_WORDS, e.code)) return SYSTEM_WORDS[e.code]
  const message = typeof e?.message === 'string' ? e.message : String(err)
  return message.split('\n')[0]
}
