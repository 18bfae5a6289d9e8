// Crawlee for the tests in test/crawlee/ and bench/crawlee.mjs. It is no
// dependency of robots-automaton: test/crawlee/fixture/ holds a package.json
// and package-lock.json of its own, installed here (`npm ci`) into a cache
// folder outside the repository, once per lock file and shared by every
// clone, so that `npm ci` of the package stays light. A second install puts
// the drop-in package (a tarball) under an override of robots-parser, as a
// user does; it is made offline from npm's cache.
//
// The cache folder: $ROBOTS_AUTOMATON_CRAWLEE_CACHE, else
// $XDG_CACHE_HOME/robots-automaton, else ~/.cache/robots-automaton (the
// system's temporary folder when that cannot be made). Concurrent test
// processes take turns through a lock folder.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
export const FIXTURE = join(ROOT, 'test/crawlee/fixture')
const READY = '.robots-automaton-ready'
const LOCK_STALE_MS = 15 * 60_000
const INSTALL_TIMEOUT_MS = 10 * 60_000
const DAY_MS = 86_400_000

function cacheRoot() {
  const candidates = [
    process.env.ROBOTS_AUTOMATON_CRAWLEE_CACHE,
    join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'robots-automaton'),
    join(tmpdir(), 'robots-automaton-cache'),
  ]
  for (const dir of candidates) {
    if (!dir) continue
    try {
      mkdirSync(dir, { recursive: true })
      return dir
    } catch {
      // next one
    }
  }
  throw new Error('no writable cache folder for the Crawlee fixture')
}

/** The environment of child npm runs: without the npm_* variables of an enclosing `npm test`. */
function npmEnv() {
  const env = {}
  for (const [k, v] of Object.entries(process.env)) if (!k.toLowerCase().startsWith('npm_')) env[k] = v
  return env
}

function npm(args, cwd, timeout = INSTALL_TIMEOUT_MS) {
  return execFileSync('npm', args, { cwd, env: npmEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout })
}

function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
}

function alive(pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return err.code === 'EPERM'
  }
}

/** Runs `work` holding the lock folder `lock` (waiting for another process's turn; a dead holder's lock is taken over). */
function withLock(lock, work) {
  for (;;) {
    try {
      mkdirSync(lock)
      writeFileSync(join(lock, 'pid'), String(process.pid))
      break
    } catch (err) {
      if (err.code !== 'EEXIST') throw err
      let stale = false
      try {
        const pid = Number(readFileSync(join(lock, 'pid'), 'utf8'))
        stale = (pid > 0 && !alive(pid)) || Date.now() - statSync(lock).mtimeMs > LOCK_STALE_MS
      } catch {
        stale = Date.now() - (existsSync(lock) ? statSync(lock).mtimeMs : 0) > 5_000
      }
      if (stale) rmSync(lock, { recursive: true, force: true })
      else sleep(250)
    }
  }
  try {
    return work()
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

function digest(...parts) {
  const h = createHash('sha256')
  for (const p of parts) h.update(p)
  return h.digest('hex').slice(0, 12)
}

/** Why the registry cannot be reached, or undefined when it can. */
function registryUnreachable() {
  try {
    npm(['ping'], ROOT, 30_000)
    return undefined
  } catch (err) {
    const registry = (() => {
      try {
        return npm(['config', 'get', 'registry'], ROOT, 10_000).trim()
      } catch {
        return 'the npm registry'
      }
    })()
    const why = String(err.stderr || err.message).trim().split('\n').filter(Boolean).pop() ?? ''
    return `the npm registry (${registry}) cannot be reached${why ? ` (${why})` : ''}`
  }
}

/**
 * Installs the fixture (once) and, with `dropIn` (a drop-in tarball), a copy
 * with `"overrides": { "robots-parser": "file:<tarball>" }`. Returns the
 * folder whose node_modules hold Crawlee, or `skip` with the reason when the
 * registry cannot be reached and the install did not succeed. Any other
 * failure throws.
 */
export function installCrawlee({ dropIn } = {}) {
  const pkg = readFileSync(join(FIXTURE, 'package.json'))
  const lock = readFileSync(join(FIXTURE, 'package-lock.json'))
  const root = cacheRoot()
  const stock = join(root, `crawlee-${digest(pkg, lock)}`)
  const ready = (dir, stamp) => existsSync(join(dir, READY)) && readFileSync(join(dir, READY), 'utf8') === stamp
  const stockStamp = digest(pkg, lock)
  const result = withLock(`${stock}.lock`, () => {
    if (!ready(stock, stockStamp)) {
      rmSync(stock, { recursive: true, force: true })
      mkdirSync(stock, { recursive: true })
      cpSync(join(FIXTURE, 'package.json'), join(stock, 'package.json'))
      cpSync(join(FIXTURE, 'package-lock.json'), join(stock, 'package-lock.json'))
      try {
        npm(['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'], stock)
      } catch (err) {
        const unreachable = registryUnreachable()
        if (unreachable) return { skip: `Crawlee could not be installed: ${unreachable}` }
        throw new Error(`npm ci of the Crawlee fixture failed in ${stock}:\n${err.stderr || err.message}`)
      }
      writeFileSync(join(stock, READY), stockStamp)
    }
    if (dropIn === undefined) return { dir: stock }
    // The drop-in copy: the same lock, robots-parser overridden by the tarball (offline: all else is in npm's cache now).
    const tarball = readFileSync(dropIn)
    const stamp = digest(pkg, lock, tarball)
    const dir = `${stock}-dropin-${stamp}`
    if (!ready(dir, stamp)) {
      // Copies for older tarballs: dropped a day after they were made (another checkout may still be testing one).
      for (const old of readdirSync(root)) {
        const path = join(root, old)
        if (old.startsWith(`crawlee-${stockStamp}-dropin-`) && !old.endsWith('.lock') && Date.now() - statSync(path).mtimeMs > DAY_MS) {
          rmSync(path, { recursive: true, force: true })
        }
      }
      mkdirSync(dir, { recursive: true })
      const local = join(dir, 'robots-automaton-compat.tgz')
      writeFileSync(local, tarball)
      const manifest = JSON.parse(pkg.toString('utf8'))
      // An absolute path: npm resolves a relative file: override against the package that depends on it.
      manifest.overrides = { 'robots-parser': `file:${local}` }
      writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2) + '\n')
      cpSync(join(FIXTURE, 'package-lock.json'), join(dir, 'package-lock.json'))
      try {
        npm(['install', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], dir)
      } catch (err) {
        throw new Error(`npm install of the drop-in override failed in ${dir}:\n${err.stderr || err.message}`)
      }
      writeFileSync(join(dir, READY), stamp)
    }
    return { dir }
  })
  return result
}
