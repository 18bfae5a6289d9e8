// The field's leaderboard, made by ONE `compare --matrix` command over the
// reference's unit vectors, google/robotstxt-spec-test and 100,000 cases of
// the shared corpus (its robots.txt files by --robots-dir, its paired URL list
// by --urls), and written to docs/compare-leaderboard.md with the command, the
// date, the versions and the machine. The timing table goes to
// bench/out/compare-leaderboard-timing.md (figures live in bench/RESULTS.md,
// not in docs/).
//
//   node bench/compare-leaderboard.mjs [--count 100000] [--from bench/out/board.md]
//
// --from re-renders the page from a Markdown board written earlier by the
// same command (no run). Needs ../shared (the spec-test files and the corpus)
// and a built dist/.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT } from './lib/corpus.mjs'
import { parseArgs } from './lib/stats.mjs'

const opts = parseArgs(process.argv.slice(2), { count: 100_000 })
const out = join(ROOT, 'bench/out')
mkdirSync(out, { recursive: true })
const command = [
  'compare', '--matrix', 'examples/adapters/leaderboard.json',
  '--cases', 'unit', '--cases', 'spec-test:../shared/spec-test',
  '--cases', 'corpus', '--robots-dir', '../shared/corpus/robots/anubhavp28-benchmark',
  '--urls', '../shared/corpus/urls/paired.tsv', '--urls-field', '3', '--count', String(opts.count),
  '--json', 'board.json', '--markdown', 'board.md',
]

let board
if (opts.from) board = readFileSync(opts.from, 'utf8')
else {
  for (const need of ['../shared/spec-test', '../shared/corpus/urls/paired.tsv']) {
    if (!existsSync(join(ROOT, need))) throw new Error(`${need} is missing: the leaderboard runs on the shared data`)
  }
  const t0 = performance.now()
  const r = spawnSync(process.execPath, [join(ROOT, 'dist/cli.js'), ...command], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] })
  // 0: every implementation ran through; 4: one failed (its cells say so).
  if (r.status !== 0 && r.status !== 4) throw new Error(`compare --matrix failed (${r.status})`)
  console.log(`the matrix ran in ${((performance.now() - t0) / 60_000).toFixed(1)} min`)
  for (const f of ['board.json', 'board.md']) renameSync(join(ROOT, f), join(out, f))
  board = readFileSync(join(out, 'board.md'), 'utf8')
}

// The board without its timing table (figures belong to bench/RESULTS.md).
const timingAt = board.indexOf('\n**Timing**')
const nextAt = board.indexOf('\n**', timingAt + 1)
const timing = board.slice(timingAt, nextAt).trim()
const page = board.slice(0, timingAt) + board.slice(nextAt)
const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim()
const debian = existsSync('/etc/debian_version') ? readFileSync('/etc/debian_version', 'utf8').trim() : 'unknown'

writeFileSync(
  join(ROOT, 'docs/compare-leaderboard.md'),
  `# The leaderboard

The agreement of robots.txt implementations in five languages with the
reference (google/robotstxt) and with RFC 9309, made by one \`compare --matrix\`
command ([compare.md](compare.md#a-leaderboard---matrix-adaptersjson)) with
[\`examples/adapters/leaderboard.json\`](../examples/adapters/leaderboard.json),
from the repository's root, on Debian ${debian} with its packages and the npm
packages of \`package-lock.json\`; node ${process.version}; commit ${commit}
(\`node bench/compare-leaderboard.mjs\` runs it again and writes this page).
The sets: google/robotstxt's 145 unit vectors, google/robotstxt-spec-test's
400 expectations, and 100,000 cases generated from the shared corpus's
robots.txt files of the robots.txt benchmark crawl and the URLs that crawl
found on the same sites (\`../shared/corpus\`, \`urls/paired.tsv\`, its third
column). "needs" names what a clean machine lacks; an implementation not
installed where the board was made has \`–\` in its cells. The same run's
timings (start-up, cases/s, the harness's ceiling) are in
[bench/history/compare.md](../bench/history/compare.md#compare-leaderboard);
\`test/cli/commands/compare-matrix.test.ts\` runs the command again on the unit
and spec-test sets and checks every cell of those columns.

${page.trim()}
`,
)
writeFileSync(join(out, 'compare-leaderboard-timing.md'), `${timing}\n`)
console.log(`wrote docs/compare-leaderboard.md and bench/out/compare-leaderboard-timing.md\n\n${timing}`)
