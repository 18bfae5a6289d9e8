/**
 * Node built-ins the transport loads when it first connects, resolves a name
 * or decodes a body, not when it is imported: a program or a command that
 * never fetches does not pay for loading TLS, the resolver and zlib. Both builds: an ES module
 * has `import.meta.url`, the CommonJS bundle `__filename`.
 */
import { createRequire } from 'node:module'

const load = createRequire(import.meta.url ?? __filename)

export const tls = (): typeof import('node:tls') => load('node:tls')
export const dns = (): typeof import('node:dns') => load('node:dns')
export const zlib = (): typeof import('node:zlib') => load('node:zlib')
