/** Whether processes are alive, read from /proc (a zombie, dead but not yet reaped, counts as gone). */
import { readdirSync, readFileSync } from 'node:fs'

/** The state letter and process group of a pid from /proc/PID/stat, or undefined when there is no such process. */
function stat(pid: number): { state: string; pgrp: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses, so read after the last ')'.
    const rest = text.slice(text.lastIndexOf(')') + 2).split(' ')
    return { state: rest[0], pgrp: Number(rest[2]) }
  } catch {
    return undefined
  }
}

/** Whether the process runs (or sleeps): it exists and is no zombie. */
export function alive(pid: number): boolean {
  const s = stat(pid)
  return s !== undefined && s.state !== 'Z' && s.state !== 'X'
}

/** The live processes of a process group. */
export function groupMembers(pgid: number): number[] {
  const out: number[] = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    const s = stat(Number(name))
    if (s && s.pgrp === pgid && s.state !== 'Z' && s.state !== 'X') out.push(Number(name))
  }
  return out
}

/** Waits until `pid` is gone (polling, at most `maxMs`): true when it is. */
export async function waitGone(pid: number, maxMs = 30_000): Promise<boolean> {
  const end = Date.now() + maxMs
  while (alive(pid)) {
    if (Date.now() > end) return false
    await new Promise((r) => setTimeout(r, 50))
  }
  return true
}
