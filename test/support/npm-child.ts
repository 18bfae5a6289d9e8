/** Running npm and the packed package from a test, as a user's shell would. */
import { execFileSync } from 'node:child_process'

/** The environment for child npm runs: without the npm_* variables of an enclosing `npm test`. */
export function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env)) if (!k.toLowerCase().startsWith('npm_')) env[k] = v
  return env
}

/** Runs `cmd args` in `cwd` with {@link cleanEnv}; its stdout, or a thrown error with its stderr. */
export function sh(cmd: string, args: string[], cwd: string): string {
  return execFileSync(cmd, args, { cwd, env: cleanEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
}
