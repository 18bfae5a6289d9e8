// The tester page (`npm run playground`; also part of `npm run build`): src/playground/index.html and
// one esbuild bundle of src/playground/tester-page.ts with the core library, into dist/playground/.
// Static: the page loads nothing else, so it works from a file, offline, or from `robots-automaton playground`.
import { build, transform } from 'esbuild'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** Builds dist/playground/ (index.html, playground.js). */
export async function buildPlayground() {
  mkdirSync('dist/playground', { recursive: true })
  await build({
    entryPoints: ['src/playground/tester-page.ts'],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
    outfile: 'dist/playground/playground.js',
  })
  // The page as written, its style sheet minified.
  const page = readFileSync('src/playground/index.html', 'utf8')
  const style = /<style>([\s\S]*?)<\/style>/.exec(page)
  if (style === null) throw new Error('src/playground/index.html: no <style> element')
  const css = (await transform(style[1], { loader: 'css', minify: true, logLevel: 'warning' })).code.trimEnd()
  writeFileSync('dist/playground/index.html', page.replace(style[0], () => `<style>${css}</style>`))
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildPlayground()
  console.log('built dist/playground/ (open dist/playground/index.html, or run: robots-automaton playground)')
}
