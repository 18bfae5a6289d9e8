/**
 * `tsc -p CONFIG` in process, for the tests that type-check a user's project
 * against the package's typings: TypeScript's compiler API builds the
 * project's program and gives its diagnostics as tsc prints them
 * (`file(line,col): error TSnnnn: …`, paths relative to the config's folder).
 *
 * TypeScript's own lib files (`lib.*.d.ts`) are parsed and bound once per
 * setting that shapes a source file (the key of TypeScript's own document
 * registry, which shares them between the programs of an editor) and shared
 * by the programs of a test file: parsing them was most of a tsc process's
 * work. Every program is still checked whole, the project's files and the
 * package's `.d.ts` files anew.
 */
import { dirname, resolve } from 'node:path'
import ts from 'typescript'

const LIB_DIR = dirname(ts.getDefaultLibFilePath({}))

/** Lib files already parsed, by setting, parse mode and name. */
const libFiles = new Map<string, ts.SourceFile>()

/** The options that shape a source file, as TypeScript keys its shared files (every option when its key is not there). */
function settingKey(options: ts.CompilerOptions): string {
  const internal = ts as unknown as { getKeyForCompilerOptions?: (o: ts.CompilerOptions, which: unknown) => string; sourceFileAffectingCompilerOptions?: unknown }
  if (typeof internal.getKeyForCompilerOptions === 'function' && Array.isArray(internal.sourceFileAffectingCompilerOptions)) {
    return internal.getKeyForCompilerOptions(options, internal.sourceFileAffectingCompilerOptions)
  }
  return JSON.stringify(options)
}

/** The lines `tsc -p config` prints for its diagnostics (none: an empty list). */
export function typecheck(config: string): string[] {
  const path = resolve(config)
  const dir = dirname(path)
  const parsed = ts.getParsedCommandLineOfConfigFile(path, undefined, {
    ...ts.sys,
    getCurrentDirectory: () => dir,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'))
    },
  })
  if (parsed === undefined) throw new Error(`cannot read ${path}`)
  const host = ts.createCompilerHost(parsed.options)
  host.getCurrentDirectory = () => dir
  const key = settingKey(parsed.options)
  const read = host.getSourceFile.bind(host)
  host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreate) => {
    if (dirname(fileName) !== LIB_DIR) return read(fileName, languageVersionOrOptions, onError, shouldCreate)
    const mode = typeof languageVersionOrOptions === 'object' ? languageVersionOrOptions : { languageVersion: languageVersionOrOptions }
    const id = `${key}|${mode.languageVersion}|${mode.impliedNodeFormat}|${mode.jsDocParsingMode}|${fileName}`
    let file = libFiles.get(id)
    if (file === undefined) {
      file = read(fileName, languageVersionOrOptions, onError, shouldCreate)
      if (file !== undefined) libFiles.set(id, file)
    }
    return file
  }
  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    host,
    projectReferences: parsed.projectReferences,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(parsed),
  })
  const text = ts.formatDiagnostics(ts.getPreEmitDiagnostics(program), { getCanonicalFileName: (f) => f, getCurrentDirectory: () => dir, getNewLine: () => '\n' })
  return text.split('\n').filter((l) => /error TS/.test(l))
}
