// `npm start`: the main job on a fresh clone. Builds dist/ when it is missing
// or older than src/ (scripts/dist-state.mjs), then runs
//   robots-automaton filter --robots-dir corpus/robots --agent Googlebot --print verdicts corpus/urls.txt
// over the bundled sample corpus, shows the first verdicts and the summary.
import { spawn, execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { dirname, join } from 'node:path'
import { distState } from './dist-state.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const cli = join(root, 'dist/cli.js')
const SHOWN = 10

const state = distState(root)
if (!state.fresh) {
  console.error(`${state.reason}: building (npm run build)...`)
  execFileSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' })
}

const args = ['filter', '--robots-dir', 'corpus/robots', '--agent', 'Googlebot', '--print', 'verdicts', 'corpus/urls.txt']
console.log(`$ robots-automaton ${args.join(' ')}`)
const child = spawn(process.execPath, [cli, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })

let pending = ''
let lines = 0
let disallowedShown = 0
child.stdout.setEncoding('utf8')
child.stdout.on('data', (chunk) => {
  pending += chunk
  let nl
  while ((nl = pending.indexOf('\n')) >= 0) {
    const line = pending.slice(0, nl)
    pending = pending.slice(nl + 1)
    lines++
    // Show the first lines, and a few disallowed ones as they come.
    if (lines <= SHOWN || (line.startsWith('disallowed') && disallowedShown < 5)) {
      if (line.startsWith('disallowed')) disallowedShown++
      console.log(line)
    }
  }
})
let stderr = ''
child.stderr.setEncoding('utf8')
child.stderr.on('data', (chunk) => (stderr += chunk))
child.on('close', (code) => {
  console.log(`... (${lines.toLocaleString('en-US')} verdict lines in all)`)
  process.stdout.write(stderr)
  process.exitCode = code ?? 1
})
