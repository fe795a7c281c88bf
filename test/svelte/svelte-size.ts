import { gzipSync } from 'node:zlib'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import type { Plugin } from 'esbuild'
import { sveltePlugin } from './svelte-plugin.js'

/**
 * The size of chatrail/svelte's own code as an app ships it: renderers/svelte/index.ts and its
 * `.svelte` files compiled by esbuild-svelte (Svelte's client output), minified, gzipped; the view
 * model (src/, and the props check still in renderers/react) and Svelte's runtime are external,
 * counted apart (`viewModelGzipBytes`: the same build with only Svelte external, minus the own code).
 */
export interface SvelteSize {
  /** The entry and the chunks it imports statically: what a page that mounts `<ChatSession>` loads first. */
  gzipBytes: number
  /** The entry's source files. */
  inputs: string[]
  /** What the entry imports from outside its own code. */
  imports: string[]
  /** The chunks loaded on first use (message actions, dialog card, component views), each with its size. */
  lazy: Array<{ inputs: string[]; gzipBytes: number }>
  /** The view model the entry imports (src/), bundled and gzipped on its own. */
  viewModelGzipBytes: number
}

const root = fileURLToPath(new URL('../..', import.meta.url))

/**
 * Marks the view model external, as one module (`chatrail/view`, the way an app imports it from
 * the package, where the entry's modules import the dist chunks): everything under src/ and the
 * React-free props check that is still in renderers/react.
 */
const viewModelExternal: Plugin = {
  name: 'view-model-external',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\// }, (args) => {
      if (!args.importer.includes('/renderers/svelte/')) return undefined
      if (args.path.startsWith('../../src/') || args.path.startsWith('../react/')) return { path: 'chatrail/view', external: true }
      return undefined
    })
  },
}

interface Chunk { path: string; text: string; inputs: string[]; imports: Array<{ path: string; kind: string }>; entry: boolean }

async function bundle(entry: string, plugins: Plugin[], external: string[]): Promise<Chunk[]> {
  const result = await build({
    entryPoints: [entry],
    bundle: true, format: 'esm', splitting: true, platform: 'browser', target: 'es2022', minify: true, write: false, metafile: true,
    outdir: `${root}test-output/svelte-size`, conditions: ['svelte', 'browser'], logLevel: 'silent', absWorkingDir: root, external,
    define: { 'process.env.NODE_ENV': '"production"' },
    plugins: [...plugins, sveltePlugin()],
  })
  return Object.entries(result.metafile.outputs).filter(([path]) => path.endsWith('.js')).map(([path, output]) => ({
    path,
    text: result.outputFiles.find((file) => file.path === `${root}${path}`)?.text ?? '',
    inputs: Object.keys(output.inputs),
    imports: output.imports.map((imported) => ({ path: imported.path, kind: imported.kind })),
    entry: output.entryPoint !== undefined,
  }))
}

const gzip = (chunks: readonly Chunk[]): number => chunks.reduce((total, chunk) => total + gzipSync(chunk.text).length, 0)

export async function measureSvelteBinding(): Promise<SvelteSize> {
  const chunks = await bundle(`${root}renderers/svelte/index.ts`, [viewModelExternal], ['svelte', 'svelte/*'])
  const entry = chunks.find((chunk) => chunk.entry)
  if (entry === undefined) throw new Error('svelte-size: esbuild wrote no entry chunk')
  // the entry and every chunk it reaches by static imports
  const loaded = new Set<Chunk>([entry])
  for (const chunk of loaded) {
    for (const imported of chunk.imports) {
      const found = imported.kind === 'import-statement' ? chunks.find((candidate) => candidate.path === imported.path) : undefined
      if (found !== undefined) loaded.add(found)
    }
  }
  const own = [...loaded]
  const viewModel = await bundle(`${root}src/view/index.ts`, [], [])
  return {
    gzipBytes: gzip(own),
    inputs: own.flatMap((chunk) => chunk.inputs),
    imports: [...new Set(own.flatMap((chunk) => chunk.imports.map((imported) => imported.path)).filter((path) => !chunks.some((chunk) => chunk.path === path)))].sort(),
    lazy: chunks.filter((chunk) => !loaded.has(chunk)).map((chunk) => ({ inputs: chunk.inputs, gzipBytes: gzip([chunk]) })),
    viewModelGzipBytes: gzip(viewModel),
  }
}
