// Runs a batch adapter script in this process and, when it exits, writes this
// process's CPU time ({ user, system } in µs, process.cpuUsage()) to the file
// named by CPU_OUT: the adapter's own time, apart from the harness's.
//
//   CPU_OUT=/tmp/cpu.json node bench/lib/cpu-wrap.mjs examples/adapters/robots-parser-batch.mjs
import { writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

const [script] = process.argv.splice(2, 1)
process.on('exit', () => {
  if (process.env.CPU_OUT) writeFileSync(process.env.CPU_OUT, JSON.stringify({ ...process.cpuUsage(), wallMs: performance.now() }))
})
await import(pathToFileURL(resolve(script)).href)
