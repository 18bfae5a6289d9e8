/** Lines in a block, counted as `filter` cuts them (src/match/lines.ts: LF bytes, plus a last line without one). */

/** Lines in `bytes` (LF bytes, plus a last line without one), found with Buffer#indexOf (memchr). */
export function countLines(bytes: Uint8Array): number {
  const b = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length)
  let n = 0
  let at = -1
  while ((at = b.indexOf(10, at + 1)) >= 0) n++
  return b.length > 0 && b[b.length - 1] !== 10 ? n + 1 : n
}
