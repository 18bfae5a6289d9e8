// Temporary body files: one per distinct body, exact bytes, bounded in number.
import { existsSync, readFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { describe, expect, it } from 'vitest'
import { BodyFiles } from '../../../src/compare/adapters/body-files.js'

describe('BodyFiles', () => {
  it('writes each distinct body once, with its exact bytes, and keeps at most its capacity', () => {
    const files = new BodyFiles(3)
    const bodies = [0, 1, 2, 3].map((i) => new Uint8Array([0xef, i, 0x0d]))
    const a = files.path(bodies[0])
    expect(readFileSync(a)).toEqual(Buffer.from(bodies[0]))
    expect(files.path(new Uint8Array(bodies[0]))).toBe(a)
    files.path(bodies[1])
    files.path(bodies[2])
    files.path(bodies[0]) // used again: now the newest
    const d = files.path(bodies[3]) // evicts bodies[1]
    expect(files.size).toBe(3)
    expect(existsSync(a) && existsSync(d)).toBe(true)
    const b = files.path(bodies[1]) // written again
    expect(readFileSync(b)).toEqual(Buffer.from(bodies[1]))
    const dir = dirname(a)
    files.remove()
    expect(existsSync(dir)).toBe(false)
  })
})
