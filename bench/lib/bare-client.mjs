// The baseline of bench/fetch.mjs: a bare Node client, the least a fetcher
// can do per origin: `http.request` with a new connection per request
// (`agent: false`), GET /robots.txt of each name `okI.bench.test` (Host header),
// the body read to its end, `--concurrency` requests in flight, nothing
// parsed or kept. Run in a process of its own, as the CLI is.
//
//   node bench/lib/bare-client.mjs --port PORT --origins N --concurrency C
//
// Prints one line of JSON: { seconds, requests, statuses }.
import { request } from 'node:http'

const argv = process.argv.slice(2)
const option = (name) => Number(argv[argv.indexOf(name) + 1])
const PORT = option('--port')
const ORIGINS = option('--origins')
const CONCURRENCY = option('--concurrency')

const statuses = {}
let next = 0
let done = 0

function one() {
  return new Promise((resolve) => {
    const i = next++
    const req = request({ host: '127.0.0.1', port: PORT, path: '/robots.txt', headers: { host: `ok${i}.bench.test:${PORT}` }, agent: false }, (res) => {
      statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1
      res.on('data', () => {})
      res.on('end', resolve)
      res.on('error', resolve)
    })
    req.on('error', () => {
      statuses.error = (statuses.error ?? 0) + 1
      resolve()
    })
    req.setTimeout(2000, () => req.destroy())
    req.end()
  })
}

async function worker() {
  while (next < ORIGINS) {
    await one()
    done++
  }
}

const started = performance.now()
await Promise.all(Array.from({ length: CONCURRENCY }, worker))
console.log(JSON.stringify({ seconds: (performance.now() - started) / 1000, requests: done, statuses }))
