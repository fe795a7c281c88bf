import { gzipSync } from 'node:zlib'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import type { Metafile, OutputFile, Plugin } from 'esbuild'

/**
 * Gzip size of the published entry points, bundled the way an app's production build sees them:
 * minified ESM with `process.env.NODE_ENV` defined as "production" (what Vite, webpack and Next
 * do), every export kept (an `export *` of the entry, no tree-shaking in our favour).
 *
 * Two views per entry:
 * - own code: dependencies (zod, react) left as imports; `chatrail/react` keeps issue 8's target.
 *   (Issue 32 replaced the `chatrail` entry's "own code < 15 kB" by targets for what an app pays
 *   all-in, bundled from the built package: scripts/app-size.ts.)
 * - with dependencies: everything but the framework peers (react, react-dom) inlined, i.e. what
 *   the import really adds to a page. This is where a dependency's import style shows up (classic
 *   `zod` drags in every locale; `zod/mini` tree-shakes).
 *
 * Builds use code splitting, as an app's bundler does: an entry's size is its entry chunk (plus any
 * chunk it imports statically); code behind a dynamic `import()` (chatrail/react's agent-dialog
 * UI) is a lazy chunk, reported on its own line, never hidden.
 *
 * Run: `npm run size` (`-- --check` fails on a missed target or budget); `npm run bench` reports
 * the same figures (bench/size.bench.ts).
 */

const root = fileURLToPath(new URL('..', import.meta.url))

/**
 * chatrail/view's own code, counted once for every binding (issue 34): a budget against regressions,
 * set at the measured figure + a little. 10.15 kB when it landed; 10.44 kB with the presentation
 * rules a mount may load lazily (`createLazyChatView`, chatrail/react's: its app's initial load
 * −0.83 kB) and the component click sent from the lazy component rules.
 */
export const VIEW_MODEL_BUDGET = 10_500

export interface EntrySize {
  name: string
  bytes: number
  gzipBytes: number
  /** Bare module imports the bundle keeps (e.g. `react`), sorted. */
  imports: string[]
  /** Files bundled in, relative to the repository root (node_modules/… when dependencies are inlined). */
  inputs: string[]
  /** The minified bundle itself. */
  contents: Uint8Array
  /**
   * Output files it spans: its own chunk plus any chunk the bundler split off because lazy code
   * imports the same module (each a request and a gzip stream of its own, hence the kit pattern:
   * src/conversation/action-kit.ts, renderers/react/message-ui-context.ts).
   */
  chunks: number
  /** Gzip size it must stay under (issue 8's target, or a budget against regressions). */
  targetBytes?: number
  /** Chunks the entry loads with a dynamic `import()`, each measured the same way (not in the figures above). */
  lazy?: EntrySize[]
}

export interface MeasureOptions {
  /** Renderer imports of `src/` (and chatrail/view's of the layers below it) become the package imports they are once published. */
  coreExternal?: boolean
  /** Inline dependencies (all but React and react-dom) instead of leaving them as imports. */
  withDependencies?: boolean
  /** Build as development (`NODE_ENV` undefined) instead of production. */
  development?: boolean
  targetBytes?: number
}

/** Treats a renderer's imports of `src/` as the package imports they are once published (`chatrail`, `chatrail/controller`, `chatrail/view`). */
const coreAsPackage: Plugin = {
  name: 'core-as-package',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /\/src\/.*\.js$/ }, (args) => {
      if (!args.importer.includes('/renderers/')) return undefined
      // The highlighter is no part of chatrail/view's entry (lowlight is an optional peer): each binding
      // bundles it into a lazy chunk of its own, so it is measured as that chunk.
      if (args.path.endsWith('/src/view/code-highlight.js')) return undefined
      const path = args.path.includes('/src/controller/') ? 'chatrail/controller' : args.path.includes('/src/view/') ? 'chatrail/view' : 'chatrail'
      return { path, external: true }
    })
    // The view model's own code (chatrail/view): the layers below it are the package entries it imports once published.
    pluginBuild.onResolve({ filter: /^\.\.\/(contract|controller|conversation|client|components)\// }, (args) => {
      if (!args.importer.includes('/src/view/')) return undefined
      const path = args.path.startsWith('../controller/') ? 'chatrail/controller' : args.path.startsWith('../client/') ? 'chatrail/client' : 'chatrail'
      return { path, external: true }
    })
  },
}

/** One minified ESM build of `entry`, in memory, the way `options` describe the consumer. */
async function bundle(entry: string, options: MeasureOptions): Promise<{ outputFiles: OutputFile[]; metafile: Metafile }> {
  const inlineDependencies = options.withDependencies === true
  const result = await build({
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: inlineDependencies ? 'browser' : 'neutral',
    target: 'es2022',
    jsx: 'automatic',
    ...(inlineDependencies ? { external: ['react', 'react/*', 'react-dom', 'react-dom/*'] } : { packages: 'external' as const }),
    define: options.development === true ? {} : { 'process.env.NODE_ENV': '"production"' },
    // Code splitting needs an output directory; with `write: false` nothing is written to it.
    splitting: true,
    outdir: 'size-out',
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins: options.coreExternal === true ? [coreAsPackage] : [],
  })
  if (result.outputFiles === undefined || result.metafile === undefined) throw new Error(`size: esbuild returned no output for ${entry}`)
  return { outputFiles: result.outputFiles, metafile: result.metafile }
}

/**
 * The chunks of a split build, as metafile output paths: `main` is the chunk of `entry` plus the
 * chunks it imports statically (what loading the entry downloads); each `lazy` group is a chunk
 * reached through a dynamic `import()` plus its static imports not already in `main`.
 */
function chunkGroups(metafile: Metafile, entry: string): { main: string[]; lazy: string[][] } {
  const outputs = metafile.outputs
  const closure = (start: string, exclude: ReadonlySet<string>): string[] => {
    const group = new Set<string>()
    const visit = (path: string): void => {
      if (group.has(path) || exclude.has(path)) return
      group.add(path)
      for (const item of outputs[path]?.imports ?? []) if (!item.external && item.kind === 'import-statement') visit(item.path)
    }
    visit(start)
    return [...group]
  }
  const start = Object.keys(outputs).find((path) => outputs[path]?.entryPoint === entry)
  if (start === undefined) throw new Error(`size: esbuild produced no chunk for ${entry}`)
  const main = closure(start, new Set())
  const dynamic = new Set(main.flatMap((path) => (outputs[path]?.imports ?? []).filter((item) => !item.external && item.kind === 'dynamic-import').map((item) => item.path)))
  return { main, lazy: [...dynamic].map((path) => closure(path, new Set(main))) }
}

function measureChunks(name: string, paths: readonly string[], result: { outputFiles: OutputFile[]; metafile: Metafile }): EntrySize {
  const files = paths.map((path) => {
    const file = result.outputFiles.find((output) => output.path === `${root}${path}`)
    if (file === undefined) throw new Error(`size: no output file for chunk ${path}`)
    return file.contents
  })
  const metas = paths.map((path) => result.metafile.outputs[path])
  const contents = Buffer.concat(files)
  return {
    name,
    contents,
    chunks: paths.length,
    bytes: contents.byteLength,
    // Each chunk is its own download, so its own gzip stream.
    gzipBytes: files.reduce((total, file) => total + gzipSync(file, { level: 9 }).byteLength, 0),
    imports: [...new Set(metas.flatMap((meta) => (meta?.imports ?? []).filter((item) => item.external).map((item) => item.path)))].sort(),
    inputs: [...new Set(metas.flatMap((meta) => Object.keys(meta?.inputs ?? {})))].sort(),
  }
}

export async function measureEntry(name: string, entry: string, options: MeasureOptions = {}): Promise<EntrySize> {
  const result = await bundle(entry, options)
  const groups = chunkGroups(result.metafile, entry)
  const size = measureChunks(name, groups.main, result)
  if (options.targetBytes !== undefined) size.targetBytes = options.targetBytes
  if (groups.lazy.length > 0) {
    size.lazy = groups.lazy.map((paths) => {
      const dynamicEntry = result.metafile.outputs[paths[0] as string]?.entryPoint ?? paths[0] as string
      return measureChunks(`${name} (lazy ${dynamicEntry.replace(/^.*\//, '').replace(/\.[jt]sx?$/, '')})`, paths, result)
    })
  }
  return size
}

export async function measureAll(): Promise<EntrySize[]> {
  const sizes = [
    await measureEntry('chatrail', 'src/index.ts'),
    await measureEntry('chatrail/tools', 'src/conversation/tools.ts'),
    await measureEntry('chatrail/controller', 'src/controller/index.ts'),
    await measureEntry('chatrail/view', 'src/view/index.ts', { coreExternal: true, targetBytes: VIEW_MODEL_BUDGET }),
    await measureEntry('chatrail/react', 'renderers/react/index.ts', { coreExternal: true, targetBytes: 6_000 }),
    await measureEntry('chatrail/client', 'src/client/index.ts'),
    await measureEntry('useRemoteChatSession', 'renderers/react/use-remote-chat-session.ts', { coreExternal: true }),
    await measureEntry('chatrail/ai-sdk', 'src/ai-sdk/index.ts'),
    await measureEntry('chatrail + deps', 'src/index.ts', { withDependencies: true }),
    await measureEntry('chatrail/react + all', 'renderers/react/index.ts', { withDependencies: true }),
    await measureEntry('chatrail (development)', 'src/index.ts', { development: true }),
  ]
  // Each lazy chunk on its own line, right after the entry that loads it.
  return sizes.flatMap((size) => [size, ...(size.lazy ?? [])])
}

const kB = (bytes: number): string => `${(bytes / 1000).toFixed(2)} kB`

export function formatSizes(sizes: readonly EntrySize[]): string {
  const base = sizes[0]
  return sizes.map((size) => {
    const target = size.targetBytes === undefined ? '' : `  target < ${kB(size.targetBytes)} ${size.gzipBytes < size.targetBytes ? 'ok' : 'OVER'}`
    const ratio = base === undefined || size === base ? '' : `  ×${(size.gzipBytes / base.gzipBytes).toFixed(2)} of chatrail`
    return `${size.name.padEnd(38)} ${kB(size.bytes).padStart(10)} min  ${kB(size.gzipBytes).padStart(9)} gzip${target}${ratio}  imports: ${size.imports.join(', ') || '-'}`
  }).join('\n')
}

/** Minified bytes each source file (or dependency package) contributes to one entry's bundle, largest first. */
export async function contributions(entry: string, options: MeasureOptions = {}): Promise<Array<[string, number]>> {
  const result = await bundle(entry, options)
  const { main } = chunkGroups(result.metafile, entry)
  const totals = new Map<string, number>()
  for (const [chunk, { inputs }] of Object.entries(result.metafile.outputs)) {
    for (const [file, { bytesInOutput }] of Object.entries(inputs)) {
      // Dependencies are summed per package folder (node_modules/zod/v4/core, …); our files stay per file.
      const key = `${file.startsWith('node_modules/') ? file.split('/').slice(0, 4).join('/') : file}${main.includes(chunk) ? '' : ' (lazy chunk)'}`
      totals.set(key, (totals.get(key) ?? 0) + bytesInOutput)
    }
  }
  return [...totals].filter(([, bytes]) => bytes > 0).sort((a, b) => b[1] - a[1])
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const filesFlag = process.argv.indexOf('--files')
  if (filesFlag !== -1) {
    // `npm run size -- --files [entry] [--deps]`: where an entry's bytes come from.
    const entry = process.argv[filesFlag + 1]?.startsWith('--') === false ? process.argv[filesFlag + 1] as string : 'src/index.ts'
    const rows = await contributions(entry, { withDependencies: process.argv.includes('--deps'), coreExternal: entry.startsWith('renderers/') })
    console.log(rows.map(([file, bytes]) => `${String(bytes).padStart(8)}  ${file}`).join('\n'))
  } else {
    const sizes = await measureAll()
    console.log(formatSizes(sizes))
    // `--check` turns a missed target into a failing exit code (a gate); plain runs only report.
    if (process.argv.includes('--check') && sizes.some((size) => size.targetBytes !== undefined && size.gzipBytes >= size.targetBytes)) process.exitCode = 1
  }
}
