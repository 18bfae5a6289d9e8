/**
 * The harness's ceiling: a null adapter (a Node process that answers every
 * request "allowed" without reading it) run through the batch protocol on
 * the same cases, so that a batch adapter's rate can be read against the
 * most the harness itself can take.
 */
import type { OnAnswer, Request } from './adapter.js'
import { BatchAdapter } from './batch-adapter.js'

/**
 * The null adapter's program: echoes each request's id with `"allowed": true`,
 * one write per chunk read. Only a line's first characters are kept (the id
 * is there) and only the new chunk is searched for line ends, so a line costs
 * its length once, however long (bodies sent inline).
 */
const NULL_SCRIPT = `let head = ''
process.stdin.setEncoding('utf8')
process.stdin.on('data', (d) => {
  let out = ''
  let at = 0
  let nl
  while ((nl = d.indexOf('\\n', at)) >= 0) {
    const m = /^\\{"id":(\\d+)/.exec(head + d.slice(at, Math.min(nl, at + 24)))
    if (m) out += '{"id":' + m[1] + ',"allowed":true}\\n'
    head = ''
    at = nl + 1
  }
  if (head.length < 24) head += d.slice(at, at + 24 - head.length)
  if (out) process.stdout.write(out)
})`

/**
 * Cases per second of the null adapter over `requests`, with the window and
 * body transport of the run; `onAnswer` does the run's per-answer work
 * (counting), so that the ceiling is the harness's as a real run has it.
 */
export async function measureCeiling(requests: readonly Request[], window: number, robotsVia: 'path' | 'inline', timeoutMs: number, onAnswer: OnAnswer): Promise<number> {
  const adapter = new BatchAdapter({ command: 'the null adapter', argv: [process.execPath, '-e', NULL_SCRIPT], robotsVia, multiAgent: true, window, timeoutMs })
  try {
    await adapter.start()
    const t0 = performance.now()
    await adapter.judgeAll(requests, onAnswer)
    const ms = performance.now() - t0
    return ms > 0 ? (requests.length * 1000) / ms : 0
  } finally {
    await adapter.close()
  }
}
