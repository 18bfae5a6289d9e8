/**
 * Errors by layer: src/errors.ts holds the core's errors only; the command
 * line's (CliError, UsageError, with exit codes) live in src/cli/common/,
 * compare's (CompareError, AdapterFailure) in src/compare/. Every one is a
 * RobotsError with a code, and each layer's codes are its own.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import * as core from '../src/index.js'
import * as errors from '../src/errors.js'
import { describeSystemError } from '../src/node.js'
import { CliError, readError as cliReadError, UsageError, type CliErrorCode } from '../src/cli/common/cli-error.js'
import { CompareError, readError as compareReadError, usageError, type CompareErrorCode } from '../src/compare/compare-error.js'
import { AdapterFailure } from '../src/compare/adapters/adapter.js'
import type { RobotsErrorCode } from '../src/index.js'

const ROOT = resolve(__dirname, '..')

/** The core's codes, as the type names them (checked both ways below). */
const CORE_CODES: RobotsErrorCode[] = ['ERR_INPUT', 'ERR_LIMIT', 'ERR_BUDGET', 'ERR_CAPACITY', 'ERR_RANGE', 'ERR_FORMAT', 'ERR_VERSION', 'ERR_FETCH', 'ERR_LOCAL']

describe('errors by layer', () => {
  it("src/errors.ts exports the core's classes and helpers, and nothing of the tools", () => {
    const classes = Object.entries(errors).filter(([, v]) => typeof v === 'function' && /^[A-Z]/.test(v.name)).map(([k]) => k).sort()
    expect(classes).toEqual(['RobotsError', 'RobotsFormatError', 'RobotsInputError', 'RobotsLimitError', 'RobotsRangeError'])
    const text = readFileSync(resolve(ROOT, 'src/errors.ts'), 'utf8')
    for (const tool of ['CliError', 'UsageError', 'exitCode', 'ERR_USAGE', 'ERR_ADAPTER', 'ERR_WORKER', 'ERR_LISTEN', 'ERR_NO_URL', 'ERR_READ', 'ERR_WRITE']) {
      expect(text.includes(`'${tool}'`) || new RegExp(`class ${tool}\\b`).test(text), tool).toBe(false)
    }
    expect(Object.keys(core).filter((k) => /Error$/.test(k)).sort()).toEqual(['RobotsError', 'RobotsFormatError', 'RobotsInputError', 'RobotsLimitError', 'RobotsRangeError'])
  })

  it("RobotsErrorCode is the core's codes only (the tools' codes are not assignable to it)", () => {
    const all: Record<RobotsErrorCode, true> = { ERR_INPUT: true, ERR_LIMIT: true, ERR_BUDGET: true, ERR_CAPACITY: true, ERR_RANGE: true, ERR_FORMAT: true, ERR_VERSION: true, ERR_FETCH: true, ERR_LOCAL: true }
    expect(Object.keys(all).sort()).toEqual([...CORE_CODES].sort())
    // @ts-expect-error a command-line code is not a core code
    const usage: RobotsErrorCode = 'ERR_USAGE'
    // @ts-expect-error nor is compare's
    const adapter: RobotsErrorCode = 'ERR_ADAPTER'
    expect([usage, adapter]).toEqual(['ERR_USAGE', 'ERR_ADAPTER'])
  })

  it("the command line's errors: RobotsErrors with its codes and exit codes", () => {
    const e = new CliError('ERR_NO_URL', 'no URL', 4)
    expect(e).toBeInstanceOf(core.RobotsError)
    expect(e).toBeInstanceOf(Error)
    expect([e.code, e.exitCode, e.name]).toEqual(['ERR_NO_URL', 4, 'CliError'])
    const u = new UsageError('bad option')
    expect(u).toBeInstanceOf(CliError)
    expect(u).toBeInstanceOf(core.RobotsError)
    expect([u.code, u.exitCode, u.name]).toEqual(['ERR_USAGE', 2, 'UsageError'])
    const r = cliReadError('robots.txt', 'x', Object.assign(new Error('ENOENT: …'), { code: 'ENOENT' }))
    expect([r.code, r.exitCode, r.message]).toEqual(['ERR_READ', 1, "cannot read robots.txt 'x': no such file or directory"])
    const code: CliErrorCode = e.code
    expect(code).toBe('ERR_NO_URL')
  })

  it("compare's errors: RobotsErrors with its codes; the adapter's failure is one", () => {
    const usage = usageError('bad --cases')
    expect(usage).toBeInstanceOf(CompareError)
    expect(usage).toBeInstanceOf(core.RobotsError)
    expect([usage.code, usage.exitCode, usage.name]).toEqual(['ERR_USAGE', 2, 'CompareError'])
    const failure = new AdapterFailure('exited', 'stderr text')
    expect(failure).toBeInstanceOf(CompareError)
    expect(failure).toBeInstanceOf(core.RobotsError)
    expect(failure).not.toBeInstanceOf(CliError)
    expect([failure.code, failure.exitCode, failure.name, failure.stderr]).toEqual(['ERR_ADAPTER', 1, 'AdapterFailure', 'stderr text'])
    const r = compareReadError('cases', 'c.jsonl', Object.assign(new Error('x'), { code: 'EACCES' }))
    expect([r.code, r.exitCode, r.message]).toEqual(['ERR_READ', 1, "cannot read cases 'c.jsonl': permission denied"])
    const code: CompareErrorCode = failure.code
    expect(code).toBe('ERR_ADAPTER')
  })

  it("regression: the Node entry's OutputError (ERR_OUTPUT) extended Error only, though every error the library throws is a RobotsError", async () => {
    const { OutputError, checkOutput } = await import('../src/node.js')
    const e = new OutputError('cannot write x')
    expect(e).toBeInstanceOf(core.RobotsError)
    expect([e.code, e.name, e.message]).toEqual(['ERR_OUTPUT', 'OutputError', 'cannot write x'])
    let thrown: unknown
    try {
      checkOutput('/proc/robots-automaton-no-such/out', 'report')
    } catch (err) {
      thrown = err
    }
    expect(thrown).toBeInstanceOf(core.RobotsError)
    expect(thrown).toMatchObject({ code: 'ERR_OUTPUT' })
  })

  it('the layers do not mix: the core throws none of them; a CompareError is no CliError and back', () => {
    expect(new CliError('ERR_READ', 'x')).not.toBeInstanceOf(CompareError)
    expect(new CompareError('ERR_READ', 'x')).not.toBeInstanceOf(CliError)
    expect(new core.RobotsInputError('x')).not.toBeInstanceOf(CliError)
  })

  it('describeSystemError (robots-automaton/node): plain words for system errors, the first line of any other message', () => {
    expect(describeSystemError(Object.assign(new Error('ENOENT: no such file, open x'), { code: 'ENOENT' }))).toBe('no such file or directory')
    expect(describeSystemError(Object.assign(new Error('x'), { code: 'EISDIR' }))).toBe('is a directory')
    expect(describeSystemError(Object.assign(new Error('first\nsecond'), { code: 'EWEIRD' }))).toBe('first')
    expect(describeSystemError(Object.assign(new Error('proto'), { code: '__proto__' }))).toBe('proto')
    expect(describeSystemError('a string')).toBe('a string')
    expect(describeSystemError(null)).toBe('null')
  })
})
