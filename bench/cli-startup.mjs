// The command line's start: the CPU time (user + system) of one short run of
// `robots-automaton`, against a bare `node -e 0` in the same run (the part of
// a run that is Node's own). A run that checks a URL or two is mostly start:
// scripts that call `check` per URL, and the test suite's thousands of runs,
// pay it each time.
//
//   node bench/cli-startup.mjs [--runs N] [--cli PATH]...   (build first: npm run build)
//
// Each command runs N times (default 21), interleaved with the others; the
// median is reported, and its ratio to the bare Node run. --cli PATH (again
// for more) measures another build's dist/cli.js beside this one's, for
// before/after figures in the same run.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const argv = process.argv.slice(2)
const runs = Number(argv[argv.indexOf('--runs') + 1] || 21)
const clis = [join(root, 'dist/cli.js')]
argv.forEach((a, i) => a === '--cli' && clis.push(resolve(argv[i + 1])))

const tmp = mkdtempSync(join(tmpdir(), 'cli-startup-'))
const hook = join(tmp, 'cpu.cjs')
const report = join(tmp, 'cpu.txt')
// The child's own CPU time, written when it exits.
writeFileSync(hook, `process.on('exit', () => { const u = process.cpuUsage(); require('fs').writeFileSync(${JSON.stringify(report)}, String(u.user + u.system)) })\n`)
const robots = join(tmp, 'robots.txt')
writeFileSync(robots, 'User-agent: *\nDisallow: /private\n')
const urls = join(tmp, 'urls.txt')
writeFileSync(urls, 'https://example.com/\nhttps://example.com/private/x\n')

const commands = [['bare node', ['-e', '0']]]
for (const cli of clis) {
  const tag = clis.length > 1 ? ` (${cli})` : ''
  commands.push(
    [`--version${tag}`, [cli, '--version']],
    [`check ROBOTS URL URL${tag}`, [cli, 'check', robots, '/', '/private/x', '--agent', 'Googlebot']],
    [`filter --robots ROBOTS LIST${tag}`, [cli, 'filter', '--robots', robots, '--agent', 'Googlebot', '-q', urls]],
    [`compare --help${tag}`, [cli, 'compare', '--help']],
  )
}

const samples = commands.map(() => [])
for (let r = 0; r < runs; r++) {
  commands.forEach(([, args], i) => {
    rmSync(report, { force: true })
    const p = spawnSync(process.execPath, ['--require', hook, ...args], { stdio: ['ignore', 'ignore', 'pipe'] })
    if (p.status !== 0 && p.status !== 3) throw new Error(`${args.join(' ')}: exit ${p.status}: ${p.stderr}`)
    samples[i].push(Number(readFileSync(report, 'utf8')) / 1000)
  })
}
rmSync(tmp, { recursive: true, force: true })

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1]
const bare = median(samples[0])
console.log(`CPU per run, median of ${runs} (user + system, ms), and its ratio to a bare node -e 0:`)
commands.forEach(([name], i) => {
  const m = median(samples[i])
  console.log(`${m.toFixed(1).padStart(8)} ms  ${(m / bare).toFixed(2)}×  ${name}`)
})
