// The distributed check (npm run test:distributed): robots-automaton as a pipe
// stage of Dask distributed. Starts a dask-scheduler and two dask-workers on
// 127.0.0.1, packs the corpus into a bundle (a RobotsStore's toBytes(); checked
// against --robots-dir in one process first), runs scripts/distributed/dask_filter.py
// (a dask.bag of input pieces, each piped through `filter --bundle` on a
// worker, the bundle shipped to the workers) and checks that the pieces'
// outputs, concatenated, are byte for byte the one-process output. Then the
// fetch recipe, scripts/distributed/dask_fetch.py: the URLs' origins split
// across the workers, each fetching its partition from a server started here
// on 127.0.0.1 (--resolve) into a bundle, one pack merging them; each origin
// must be asked once, and the merged bundle answer as --robots-dir.
//
// Input: the paired corpus URLs of ../shared when it is there, else the bundled
// sample (corpus/urls.txt), with the last line's newline removed (the last
// piece then ends without one too).
//
// Without Dask (Debian's python3-distributed) it prints one line saying the
// check was skipped and exits 0, or 1 with --require.
import { spawn, spawnSync } from 'node:child_process'
import { createServer as createHttpServer } from 'node:http'
import { createServer } from 'node:net'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const CLI = join(ROOT, 'dist/cli.js')
const SHARED = join(ROOT, '../shared/corpus')
const require_ = process.argv.includes('--require')
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3'
const children = []

function skip(reason) {
  console.log(`distributed check skipped: ${reason}`)
  process.exit(require_ ? 1 : 0)
}

function fail(message) {
  console.error(`distributed check failed: ${message}`)
  cleanup()
  process.exit(1)
}

function cleanup() {
  // Only the processes started here, by their ids.
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM')
}

/** Stops the processes started here and waits (at most 10 s, then SIGKILL) until they are gone. */
async function stopAll() {
  const alive = children.filter((c) => c.exitCode === null && c.signalCode === null)
  const gone = alive.map((c) => new Promise((resolve) => c.once('exit', resolve)))
  for (const c of alive) c.kill('SIGTERM')
  const timer = setTimeout(() => alive.forEach((c) => c.exitCode === null && c.signalCode === null && c.kill('SIGKILL')), 10_000)
  await Promise.all(gone)
  clearTimeout(timer)
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address()
      s.close(() => resolve(port))
    })
  })
}

/** Starts a long-running process; its output is kept for the failure message. */
function start(cmd, args, cwd) {
  const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
  child.log = ''
  child.stdout.on('data', (c) => (child.log += c))
  child.stderr.on('data', (c) => (child.log += c))
  children.push(child)
  return child
}

const probe = spawnSync(PYTHON, ['-c', 'import dask.bag, distributed'], { encoding: 'utf8' })
if (probe.status !== 0) skip(`Dask is not installed (apt-get install python3-distributed); ${PYTHON}: ${(probe.stderr || probe.error?.message || '').trim().split('\n').pop()}`)
for (const tool of ['dask-scheduler', 'dask-worker']) {
  if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) skip(`${tool} is not on the PATH`)
}
if (!existsSync(CLI)) fail('dist/cli.js is missing: run npm run build first')

const work = mkdtempSync(join(tmpdir(), 'robots-dask-'))
process.on('exit', () => {
  cleanup()
  rmSync(work, { recursive: true, force: true })
})
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(1))

const full = existsSync(join(SHARED, 'urls/paired.tsv'))
const robotsDir = full ? join(SHARED, 'robots/anubhavp28-benchmark') : join(ROOT, 'corpus/robots')
const urls = full
  ? readFileSync(join(SHARED, 'urls/paired.tsv'), 'utf8').split('\n').slice(1).filter(Boolean).map((l) => l.split('\t')[2]).join('\n')
  : readFileSync(join(ROOT, 'corpus/urls.txt'), 'utf8').trimEnd()
const input = join(work, 'urls.txt')
writeFileSync(input, urls)
const bundle = join(work, 'robots.bundle')
const packed = spawnSync(process.execPath, [CLI, 'pack', robotsDir, '-o', bundle, '-q'], { encoding: 'utf8' })
if (packed.status !== 0) fail(`pack: ${packed.stderr}`)
const one = spawnSync(process.execPath, [CLI, 'filter', '--bundle', bundle, '--agent', 'Googlebot', '--print', 'verdicts', '-q', input], { maxBuffer: 1 << 30 })
if (one.status !== 0) fail(`filter: ${one.stderr}`)
// The bundle (a RobotsStore's bytes) answers as the directory it was packed from.
const byDir = spawnSync(process.execPath, [CLI, 'filter', '--robots-dir', robotsDir, '--agent', 'Googlebot', '--print', 'verdicts', '-q', input], { maxBuffer: 1 << 30 })
if (byDir.status !== 0) fail(`filter --robots-dir: ${byDir.stderr}`)
if (!byDir.stdout.equals(one.stdout)) fail('filter --bundle and filter --robots-dir give different output')

const port = await freePort()
const address = `tcp://127.0.0.1:${port}`
const started = performance.now()
start('dask-scheduler', ['--host', '127.0.0.1', '--port', String(port), '--no-dashboard'], work)
for (let i = 0; i < 2; i++) {
  // --no-nanny: the worker is this process itself, so stopping it stops the worker.
  start('dask-worker', [address, '--no-nanny', '--nthreads', '1', '--no-dashboard', '--host', '127.0.0.1', '--local-directory', join(work, `worker-${i}`)], work)
}
const output = join(work, 'distributed.txt')
const client = spawnSync(PYTHON, [join(ROOT, 'scripts/distributed/dask_filter.py'), address, bundle, input, output, CLI, '8'], { encoding: 'utf8', timeout: 170_000 })
if (client.status !== 0) fail(`the Dask client failed (${client.status ?? client.signal}):\n${client.stderr}\n${children.map((c) => c.log).join('\n')}`)
const report = JSON.parse(client.stdout.trim().split('\n').pop())
const got = readFileSync(output)
if (report.workers.length !== 2) fail(`the bundle went to ${report.workers.length} workers, not 2`)
if (report.ran_on.length !== 2) fail(`the pieces ran on ${report.ran_on.length} worker(s), not on both`)
if (!got.equals(one.stdout)) fail(`the concatenated output (${got.length} bytes) differs from the one-process output (${one.stdout.length} bytes)`)
const lines = one.stdout.toString().split('\n').length - 1

// A piece in which no line holds a URL exits 4 where the whole input would not: no failure of the piece.
// Here every piece but the first holds only blank lines; the run must pass and match one process.
// When no line of the whole input holds a URL, the Dask run exits 4 as one process does.
// A line that starts with a UTF-8 BOM or gzip's 1f 8b is a line in the middle of an input, but an input's
// mark at a piece's start: no piece may start with one (here only the first line is judged).
const first = urls.split('\n', 1)[0]
const marks = [[], [0xef, 0xbb, 0xbf], [0x1f, 0x8b]] // every line after the first starts with one
const marked = Buffer.concat(Array.from({ length: 64 }, (_, i) => Buffer.from([...marks[i === 0 ? 0 : 1 + (i % 2)], ...Buffer.from(`${first}\n`)])))
for (const [name, text, status] of [['sparse.txt', `${first}\n${'\n'.repeat(400)}`, 0], ['blank.txt', '\n'.repeat(400), 4], ['marked.txt', marked, 0]]) {
  const path = join(work, name)
  writeFileSync(path, text)
  const alone = spawnSync(process.execPath, [CLI, 'filter', '--bundle', bundle, '--agent', 'Googlebot', '--print', 'verdicts', '-q', path])
  if (alone.status !== status) fail(`filter ${name}: exit ${alone.status}, not ${status}: ${alone.stderr}`)
  const out = join(work, `${name}.out`)
  const run = spawnSync(PYTHON, [join(ROOT, 'scripts/distributed/dask_filter.py'), address, bundle, path, out, CLI, '8'], { encoding: 'utf8', timeout: 170_000 })
  if (run.status !== status) fail(`the Dask client on ${name} exited ${run.status ?? run.signal}, where one process exits ${status}:\n${run.stderr}`)
  if (status === 0 && !readFileSync(out).equals(alone.stdout)) fail(`the concatenated output of ${name} differs from the one-process output`)
}
console.log(
  `distributed check passed: ${lines.toLocaleString('en-US')} URLs (${full ? 'the paired corpus' : 'the bundled sample'}) in ${report.pieces} pieces on 2 Dask workers, ` +
    `byte for byte the one-process output (${((performance.now() - started) / 1000).toFixed(1)} s)`,
)

// The fetch recipe: every host's robots.txt from a server here, by Host header (404 without a file).
const asked = new Map()
const server = createHttpServer((req, res) => {
  const host = (req.headers.host ?? '').replace(/:\d+$/, '')
  asked.set(host, (asked.get(host) ?? 0) + 1)
  const file = join(robotsDir, host)
  const body = /^[a-z0-9.-]+$/.test(host) && req.url === '/robots.txt' && existsSync(file) ? readFileSync(file) : undefined
  res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/plain' })
  res.end(body)
})
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
const serverPort = server.address().port
const fetchInput = join(work, 'fetch-urls.txt')
const httpUrls = urls.split('\n').map((u) => {
  const x = new URL(u)
  return `http://${x.hostname}:${serverPort}${x.pathname}${x.search}`
})
// Each host also spelt with its first letter percent-escaped (the same origin to the URL parser): each
// origin must still be fetched once, by one partition. Blank lines and a line without a URL go along.
const spelt = httpUrls.map((u) => u.replace(/^http:\/\/([a-z])/, (_, c) => `http://%${c.charCodeAt(0).toString(16)}`))
writeFileSync(fetchInput, [...httpUrls, '', ...spelt, 'no URL here', ''].join('\n') + '\n')
const fetched = join(work, 'fetched.bundle')
const fetchStarted = performance.now()
/** Runs dask_fetch.py on INPUT into OUTPUT (not blocking: the server above answers meanwhile). */
const runFetchClient = (input, output) => new Promise((resolve) => {
  const child = spawn(PYTHON, [join(ROOT, 'scripts/distributed/dask_fetch.py'), address, input, output, CLI, '8', '--resolve', `*:${serverPort}:127.0.0.1`], { stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (c) => (stdout += c))
  child.stderr.on('data', (c) => (stderr += c))
  const timer = setTimeout(() => child.kill('SIGTERM'), 170_000)
  child.on('close', (status, signal) => {
    clearTimeout(timer)
    resolve({ status, signal, stdout, stderr })
  })
})
const fetchClient = await runFetchClient(fetchInput, fetched)
if (fetchClient.status !== 0) fail(`the Dask fetch client failed (${fetchClient.status ?? fetchClient.signal}):\n${fetchClient.stderr}\n${children.map((c) => c.log).join('\n')}`)
const fetchReport = JSON.parse(fetchClient.stdout.trim().split('\n').pop())
const hosts = new Set(httpUrls.map((u) => new URL(u).hostname))
if (fetchReport.ran_on.length !== 2) fail(`the fetch partitions ran on ${fetchReport.ran_on.length} worker(s), not on both`)
if (asked.size !== hosts.size || [...asked.values()].some((n) => n !== 1)) fail(`each of ${hosts.size} origins must be asked once; asked ${asked.size}, some more than once: ${[...asked].filter(([, n]) => n !== 1).slice(0, 5)}`)
const viaFetch = spawnSync(process.execPath, [CLI, 'filter', '--bundle', fetched, '--agent', 'Googlebot', '--print', 'verdicts', '-q', fetchInput], { maxBuffer: 1 << 30 })
const viaDir = spawnSync(process.execPath, [CLI, 'filter', '--robots-dir', robotsDir, '--agent', 'Googlebot', '--print', 'verdicts', '-q', fetchInput], { maxBuffer: 1 << 30 })
if (viaFetch.status !== 0 || viaDir.status !== 0) fail(`filter after the fetch: ${viaFetch.stderr}${viaDir.stderr}`)
if (!viaFetch.stdout.equals(viaDir.stdout)) fail('the merged bundle of the Dask fetch does not answer as --robots-dir on the same files')
console.log(
  `distributed fetch passed: ${hosts.size.toLocaleString('en-US')} origins in ${fetchReport.partitions} partitions on 2 Dask workers, each asked once, ` +
    `merged by one pack; it answers as --robots-dir (${((performance.now() - fetchStarted) / 1000).toFixed(1)} s)`,
)

// A partition in which no line holds a URL exits 4, and is no failure; a run in which none does exits 4.
// A line with an input's mark (see marked.txt above) first in a partition must not read as one: 1f 8b as gzip fails the fetch.
const fetchMarked = Buffer.concat([Buffer.from(`${httpUrls[0]}\n`), ...marks.slice(1).reverse().map((m) => Buffer.from([...m, ...Buffer.from(`${httpUrls[1]}\n`)]))])
for (const [name, text, status] of [['fetch-sparse.txt', `${httpUrls[0]}\n\n\nno URL\n`, 0], ['fetch-blank.txt', '\n\nno URL\n', 4], ['fetch-marked.txt', fetchMarked, 0]]) {
  const path = join(work, name)
  writeFileSync(path, text)
  const run = await runFetchClient(path, join(work, `${name}.bundle`))
  if (run.status !== status) fail(`the Dask fetch client on ${name} exited ${run.status ?? run.signal}, where one fetch exits ${status}:\n${run.stderr}`)
}
server.close()
await stopAll()
process.exit(0)
