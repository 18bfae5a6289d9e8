/**
 * Process groups for the implementations under test: every process
 * `compare` starts (a `--batch` adapter, a `--cmd` case, a matrix's version
 * and availability commands) is spawned detached, so that it leads a process
 * group of its own, and is ended with its whole group: whatever it started in
 * the background ends with it. Groups still alive when this process exits
 * are killed then (the run's end, an interrupt, a crash of the harness).
 * A process that leaves its group itself (`setsid`) is out of reach.
 */
import type { ChildProcess } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { CompareError, describeSystemError } from '../compare-error.js'

/** Groups started and not yet killed, by their id (the leader's pid). */
const live = new Set<number>()
let hooked = false

/** Kills every group still alive (synchronously: it runs on exit, and before a process ends by a signal). */
export function killAll(): void {
  for (const pgid of live) signalGroup(pgid, 'SIGKILL')
  live.clear()
}

function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal)
    return true
  } catch {
    return false // no such group any more
  }
}

/** Records a child spawned with `detached: true` as the leader of a group to kill at the latest when this process exits. */
export function trackGroup(child: ChildProcess): void {
  if (child.pid === undefined) return
  live.add(child.pid)
  if (!hooked) {
    hooked = true
    process.on('exit', killAll)
  }
}

/** Sends `signal` (default SIGKILL) to the child's whole group; SIGKILL also forgets the group. */
export function killGroup(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): void {
  const pgid = child.pid
  if (pgid === undefined) return
  if (!signalGroup(pgid, signal) && child.exitCode === null && child.signalCode === null) child.kill(signal)
  if (signal === 'SIGKILL') live.delete(pgid)
}

/** Codes of a spawn that failed for want of this machine's resources (descriptors, processes, memory), whatever the program. */
const LOCAL_SPAWN_CODES = new Set(['EMFILE', 'ENFILE', 'EAGAIN', 'ENOMEM'])

/**
 * The harness's own failure (exit 1) when starting `what` failed on this
 * machine: never the implementation's answer, failure or absence. Else
 * undefined (a program missing or not executable is the implementation's).
 */
export function localSpawnFailure(err: unknown, what: string): CompareError | undefined {
  const code = (err as NodeJS.ErrnoException | null)?.code
  if (code === undefined || !LOCAL_SPAWN_CODES.has(code)) return undefined
  const hint = code === 'EMFILE' || code === 'ENFILE' ? ' (ulimit -n, --concurrency)' : ''
  return new CompareError('ERR_ADAPTER', `cannot start ${what}: ${describeSystemError(err)} on this machine${hint}, not a failure of the implementation`)
}

/** Parent and process group of `pid` from Linux's /proc, or undefined (gone, or no /proc). */
function parentOf(pid: string): { ppid: number; pgrp: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1')
    const f = stat.slice(stat.lastIndexOf(') ') + 2).split(' ')
    return f[0] === 'Z' ? undefined : { ppid: Number(f[1]), pgrp: Number(f[2]) }
  } catch {
    return undefined
  }
}

/**
 * Kills the processes this process started in its own group (those a
 * `--module` adapter's thread started with execSync or spawn, which no
 * group of {@link trackGroup} holds), with every process they started:
 * a thread blocked waiting for one is then freed and can be stopped.
 * Linux only (/proc); elsewhere nothing is done.
 */
export function killOwnChildren(): void {
  let names: string[]
  try {
    names = readdirSync('/proc').filter((n) => /^[0-9]+$/.test(n))
  } catch {
    return
  }
  const self = parentOf(String(process.pid))
  if (self === undefined) return
  const children = new Map<number, number[]>()
  const group = new Map<number, number>()
  for (const n of names) {
    const p = parentOf(n)
    if (p === undefined) continue
    const list = children.get(p.ppid) ?? []
    list.push(Number(n))
    children.set(p.ppid, list)
    group.set(Number(n), p.pgrp)
  }
  const doomed: number[] = []
  const visit = (pid: number): void => {
    doomed.push(pid)
    for (const c of children.get(pid) ?? []) visit(c)
  }
  for (const c of children.get(process.pid) ?? []) if (group.get(c) === self.pgrp && !live.has(c)) visit(c)
  for (const pid of doomed) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // Gone already.
    }
  }
}
