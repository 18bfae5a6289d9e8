/**
 * An address on this machine that never completes a TCP handshake, as a
 * host that drops packets does: a socket listening there in a worker
 * thread that never accepts (its event loop is blocked), its accept queue
 * filled by connections of its own, so the kernel drops every further SYN
 * and a connection attempt stays pending. Nothing leaves the machine.
 */
import { connect, type Socket } from 'node:net'
import { Worker } from 'node:worker_threads'

export interface SilentAddress {
  readonly host: string
  readonly port: number
  close(): Promise<void>
}

const LISTENER = `
const { parentPort, workerData } = require('node:worker_threads')
const server = require('node:net').createServer().listen({ host: workerData.host, port: workerData.port, backlog: 1 }, () => {
  parentPort.postMessage(server.address().port)
  // Blocked until the test wakes it: nothing is accepted meanwhile.
  Atomics.wait(new Int32Array(workerData.wake), 0, 0)
  server.close()
})
server.on('error', (err) => parentPort.postMessage(String(err)))
`

/** A silent `host:port` (`port` 0: any free one). */
export async function startSilentAddress(host: string, port = 0): Promise<SilentAddress> {
  const wake = new SharedArrayBuffer(4)
  const worker = new Worker(LISTENER, { eval: true, workerData: { host, port, wake } })
  const got = await new Promise<unknown>((resolve, reject) => {
    worker.once('message', resolve)
    worker.once('error', reject)
  })
  if (typeof got !== 'number') throw new Error(`cannot listen on ${host}:${port}: ${String(got)}`)
  // A backlog of one holds two connections (Linux); each is connected before the next is made.
  const fillers: Socket[] = []
  for (let i = 0; i < 2; i++) {
    const s = connect({ host, port: got })
    s.on('error', () => {})
    fillers.push(s)
    await new Promise((resolve) => s.once('connect', resolve))
  }
  return {
    host,
    port: got,
    async close() {
      for (const s of fillers) s.destroy()
      const view = new Int32Array(wake)
      Atomics.store(view, 0, 1)
      Atomics.notify(view, 0)
      await worker.terminate()
    },
  }
}
