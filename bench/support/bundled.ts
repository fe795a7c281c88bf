import { mkdirSync, rmSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build } from 'esbuild'
import type * as Core from './core-entry.js'

/**
 * chatrail's code as apps run it: bundled by esbuild (as tsup builds dist/), loaded by Node's own
 * module loader. Importing `src/` from a bench runs it through vite-node's SSR transform instead,
 * which turns every call across modules into a getter on a module namespace object: the
 * conversation layer, split into small files, paid that on every turn where the controller's
 * baseline paid less, and the ratios measured the transform, not chatrail. The bundle is written
 * under node_modules/.cache, which vitest leaves to Node (dependencies stay imports).
 */
const root = fileURLToPath(new URL('../..', import.meta.url))

export async function loadBundled(): Promise<typeof Core>
/** Another entry (`src/index.ts`, say), when a bench needs less than core-entry's set. */
export async function loadBundled<T>(entry: string): Promise<T>
export async function loadBundled(entry = `${root}bench/support/core-entry.ts`): Promise<unknown> {
  const dir = `${root}node_modules/.cache/chatrail-bench`
  mkdirSync(dir, { recursive: true })
  const outfile = `${dir}/core-${process.pid}.mjs`
  await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    outfile,
    logLevel: 'error',
  })
  try {
    return (await import(pathToFileURL(outfile).href)) as unknown
  } finally {
    rmSync(outfile, { force: true }) // loaded: the file is no longer needed
  }
}
