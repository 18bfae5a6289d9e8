import { describeArgument } from '../net/option-checks.js'

/** Plain words for the system errors a user meets when naming files (the tools' messages), in the Node entry. */
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
  EROFS: 'read-only file system',
  EDQUOT: 'disk quota exceeded',
  ENFILE: 'too many open files in the system',
  ENXIO: 'no such device or address',
  EBADF: 'bad file descriptor',
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
  // Never the caller's own toString (an object's coercion may throw or lie).
  const message = typeof e?.message === 'string' ? e.message : typeof err === 'object' && err !== null ? describeArgument(err) : String(err)
  return message.split('\n')[0]
}
