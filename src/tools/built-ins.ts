/**
 * Node built-ins that only some commands use (processes, threads, a server,
 * hashes, line readers, gzip), loaded when first asked for: a command that never
 * uses one does not pay for loading it at start-up, as a static import makes
 * every run of the command line do. Types come from `import type`.
 */
import { createRequire } from 'node:module'

const load = createRequire(import.meta.url)

export const childProcess = (): typeof import('node:child_process') => load('node:child_process')
export const nodeCrypto = (): typeof import('node:crypto') => load('node:crypto')
export const dgram = (): typeof import('node:dgram') => load('node:dgram')
export const http = (): typeof import('node:http') => load('node:http')
export const readline = (): typeof import('node:readline') => load('node:readline')
export const workerThreads = (): typeof import('node:worker_threads') => load('node:worker_threads')
export const zlib = (): typeof import('node:zlib') => load('node:zlib')
export const v8 = (): typeof import('node:v8') => load('node:v8')
