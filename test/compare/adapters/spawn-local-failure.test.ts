// A process that cannot be started for want of this machine's resources (EMFILE, EAGAIN) is the harness's
// failure (exit 1), never the implementation's answer or failure. Node's spawn then gives a child without
// pipes and an 'error' event on the next tick: the fake below does the same.
import { EventEmitter } from 'node:events'
import { createRequire } from 'node:module'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AdapterFailure } from '../../../src/compare/adapters/adapter.js'
import { BatchAdapter } from '../../../src/compare/adapters/batch-adapter.js'
import { CmdAdapter } from '../../../src/compare/adapters/cmd-adapter.js'
import { firstLine } from '../../../src/compare/matrix.js'

// The module the harness loads its processes from (src/tools/built-ins.ts): its spawn is replaced for each test.
const childProcess = createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process')
const realSpawn = childProcess.spawn
beforeEach(() => {
  childProcess.spawn = (() => {
    const child = Object.assign(new EventEmitter(), { pid: undefined, exitCode: null, signalCode: null, kill: () => false })
    process.nextTick(() => child.emit('error', Object.assign(new Error('spawn EMFILE'), { code: 'EMFILE', errno: -24, syscall: 'spawn' })))
    return child
  }) as unknown as typeof realSpawn
})
afterEach(() => {
  childProcess.spawn = realSpawn
})

const request = { robots: new Uint8Array(0), agents: ['a'], url: '/' }

async function localFailure(work: Promise<unknown>): Promise<void> {
  const err = await work.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err).toMatchObject({ code: 'ERR_ADAPTER', message: expect.stringMatching(/too many open files on this machine \(ulimit -n, --concurrency\), not a failure of the implementation/) })
  expect(err).not.toBeInstanceOf(AdapterFailure)
}

describe('a spawn that fails on this machine (regression: EMFILE crashed --cmd and --batch with "Cannot read properties of undefined (reading \'setEncoding\')")', () => {
  it('--cmd: stops the run as the harness failure, at start-up and for a case, not an error answer of the implementation', async () => {
    const adapter = new CmdAdapter({ template: 'tool %url%', allowedExit: 0, disallowedExit: 1, concurrency: 2, timeoutMs: 600_000 })
    await localFailure(adapter.start())
    await localFailure(adapter.judgeAll([request, request], () => {}))
    await adapter.close()
  })

  it('--batch: the start fails as the harness, not as an adapter that could not start', async () => {
    const adapter = new BatchAdapter({ command: 'tool', robotsVia: 'path', multiAgent: false, window: 4, timeoutMs: 600_000 })
    await localFailure(adapter.start())
    await adapter.close()
  })

  it('--matrix: a version or available command, not an implementation said not to be installed', async () => {
    await localFailure(firstLine('tool --version'))
  })
})
