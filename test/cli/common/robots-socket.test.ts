/**
 * A ROBOTS file argument (`check`, `lint`, `diff`, `filter --robots`) that is
 * a Unix socket: no robots.txt can be read from it, and the error says so in
 * the words `--robots-dir` and `lint DIR` use for one.
 */
import { createServer, type Server } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, run, tempDir } from '../helpers.js'

const tmp = tempDir()
const socket = tmp.path('robots.sock')
let server: Server
beforeAll(async () => {
  ensureBuilt()
  server = createServer()
  await new Promise<void>((resolve) => server.listen(socket, resolve))
})
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()))
  tmp.cleanup()
})

describe.skipIf(process.platform === 'win32')('regression: a socket as ROBOTS failed with the raw system error (ENXIO: no such device or address, open ...), now it is named as not a regular file', () => {
  const commands: [string, string[]][] = [
    ['filter --robots', ['filter', '--robots', socket, '--agent', 'A']],
    ['check', ['check', socket, '--agent', 'A', 'https://a.test/']],
    ['lint', ['lint', socket]],
    ['diff', ['diff', socket, socket, '--agent', 'A']],
  ]
  for (const [name, args] of commands) {
    it(name, async () => {
      const r = await run(args, { input: 'https://a.test/\n' })
      expect(r.status).toBe(1)
      expect(r.stdout.toString()).toBe('')
      expect(r.stderr).toContain(`cannot read robots.txt '${socket}': not a regular file (a socket)\n`)
      expect(r.stderr).not.toContain('ENXIO')
    })
  }
})
