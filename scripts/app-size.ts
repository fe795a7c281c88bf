import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'
import type { Metafile, OutputFile, Plugin } from 'esbuild'

/**
 * What a browser app pays for chatrail (issue 32): small apps bundled from the built package
 * (`dist/`, as npm installs it) the way an app's production build does — esbuild `--bundle --minify
 * --format=esm`, `process.env.NODE_ENV` = "production", code splitting, every dependency inlined
 * (zod too) but React, which the app has anyway. A figure is the gzip of the app's initial load:
 * the entry chunk and the chunks it imports statically, each its own gzip stream. Chunks behind an
 * `import()` (the markdown and dialog UI, `explain`, record signing) are reported apart, as lazy.
 * scripts/size.ts measures chatrail's own code from `src/`; this measures what an app ships.
 *
 * `npm run bench` prints the table (bench/app-size.bench.ts); test/package/app-size.test.ts holds
 * the targets. `npx tsx scripts/app-size.ts` measures the package test/support/built-package.ts
 * builds for the current sources (or `--package <root>`); `--source` measures the apps bundled from `src/` instead; `--files` adds where the bytes go, per
 * source file: the same apps bundled from `src/` (each `chatrail/…` import mapped to its tsup entry),
 * which tree-shakes as the package does (the figures agree within ≈0.05 kB).
 */

const root = fileURLToPath(new URL('..', import.meta.url))

/** The minimal app of issue 32: `defineChat`, `createChatSession`, a command route and a text route. */
const definitionSource = `import { commandRoute, createChatSession, defineChat, textRoute } from 'chatrail'
const adapter = {
  createSource: () => ({
    stream: async function* () {
      yield { type: 'text', content: 'Hello from the agent.' }
      yield { type: 'done' }
    },
    abort: () => undefined,
  }),
}
export const definition = defineChat({
  id: 'app',
  chat: { adapter },
  conversation: {
    initial: 'idle',
    states: { idle: { on: { start: 'busy' } }, busy: { on: { stop: 'idle' } } },
    routes: [
      commandRoute({ id: 'start', command: '/start', event: 'start', response: 'Started.' }),
      textRoute({ id: 'hello', text: 'hello', response: 'Hi!' }),
    ],
  },
})
export const session = createChatSession(definition)
`

export interface AppSpec {
  name: string
  /** The app's one module (TSX), importing chatrail by its package names. */
  source: string
  /** Issue 32's target for the initial load, gzip bytes. */
  targetBytes?: number
}

/** The three apps issue 32 sets targets for. */
export const targetApps: readonly AppSpec[] = [
  { name: 'minimal app', source: definitionSource, targetBytes: 15_000 },
  {
    name: 'minimal app + chatrail/controller + chatrail/react',
    source: `${definitionSource}import { createChatController } from 'chatrail/controller'
import { ChatSession } from 'chatrail/react'
export const controller = createChatController(session.chat)
export const App = () => <ChatSession definition={definition} />
`,
    targetBytes: 30_000,
  },
  { name: 'the whole chatrail entry', source: `export * from 'chatrail'\n`, targetBytes: 25_000 },
]

/** What one feature adds to the minimal app when it is used (and, by the minimal app's figure, costs when it is not). */
export const featureApps: readonly AppSpec[] = [
  { name: '+ toMermaid', source: `${definitionSource}import { toMermaid } from 'chatrail'\nexport const graph = toMermaid(definition)\n` },
  { name: '+ session.explain', source: `${definitionSource}export const why = session.explain({ input: 'hello' })\n` },
  { name: '+ a recordKey (signed records)', source: `${definitionSource}export const signed = createChatSession(definition, { recordKey: 'k'.repeat(32) })\n` },
  { name: '+ chatrail/tools lintDefinition', source: `${definitionSource}import { lintDefinition } from 'chatrail/tools'\nexport const warnings = lintDefinition(definition)\n` },
  { name: '+ messageSchema (zod)', source: `${definitionSource}import { messageSchema } from 'chatrail'\nexport const ok = messageSchema.safeParse({}).success\n` },
  { name: '+ chatrail/controller', source: `${definitionSource}import { createChatController } from 'chatrail/controller'\nexport const controller = createChatController(session.chat)\n` },
  { name: '+ chatrail/client httpAdapter', source: `${definitionSource}import { httpAdapter } from 'chatrail/client'\nexport const remote = httpAdapter({ url: '/api/chat' })\n` },
]

export interface ChunkSize {
  /** The chunk's output file, relative to the build's output directory. */
  file: string
  bytes: number
  gzipBytes: number
}

export interface AppSize {
  name: string
  targetBytes?: number
  /** The entry chunk and its static imports. */
  initial: ChunkSize[]
  initialBytes: number
  initialGzipBytes: number
  /** Chunks loaded by an `import()`, and their static imports not already loaded. */
  lazy: ChunkSize[]
  lazyGzipBytes: number
  /** Minified bytes of the initial load per input: a dist file, or a dependency's package folder. */
  inputs: Record<string, number>
  /** The initial load's code, for checks of what it does (not) contain. */
  initialCode: string
}

/** `chatrail/<sub>` as the source file tsup builds it from (tsup.config.ts's entries, through the exports map). */
async function sourceResolver(): Promise<Plugin> {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, string | { import: string }> }
  const config = (await import('../tsup.config.js')).default as { entry: Record<string, string> }
  return {
    name: 'chatrail-source',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /^chatrail(\/.*)?$/ }, (args) => {
        const target = manifest.exports[`.${args.path.slice('chatrail'.length)}`]
        const entry = typeof target === 'object' ? /dist\/(.+)\.js$/.exec(target.import)?.[1] : undefined
        const source = entry === undefined ? undefined : config.entry[entry]
        return source === undefined ? { errors: [{ text: `${args.path} has no tsup entry` }] } : { path: join(root, source) }
      })
      pluginBuild.onResolve({ filter: /^app:/ }, (args) => ({ path: args.path.slice('app:'.length), namespace: 'app' }))
    },
  }
}

/** `chatrail` and `chatrail/<sub>` resolved through the built package's own exports map (its ESM files). */
function packageResolver(packageRoot: string): Plugin {
  const manifest = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { exports: Record<string, string | { import: string }> }
  return {
    name: 'chatrail-package',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /^chatrail(\/.*)?$/ }, (args) => {
        const target = manifest.exports[`.${args.path.slice('chatrail'.length)}`]
        if (target === undefined) return { errors: [{ text: `${args.path} is not exported by the package` }] }
        return { path: join(packageRoot, typeof target === 'string' ? target : target.import) }
      })
      pluginBuild.onResolve({ filter: /^app:/ }, (args) => ({ path: args.path.slice('app:'.length), namespace: 'app' }))
    },
  }
}

function appLoader(app: AppSpec): Plugin {
  return {
    name: 'app-source',
    setup(pluginBuild) {
      pluginBuild.onLoad({ filter: /.*/, namespace: 'app' }, () => ({ contents: app.source, loader: 'tsx', resolveDir: root }))
    },
  }
}

/** `packageRoot`: the built package; `'source'`: `src/`, for a breakdown per source file. */
/** The app's entry module, in the plugin namespace that serves its source. */
const APP_ENTRY = 'app:app'

async function bundle(app: AppSpec, packageRoot: string): Promise<{ outputFiles: OutputFile[]; metafile: Metafile }> {
  const result = await build({
    absWorkingDir: root,
    entryPoints: [APP_ENTRY],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    external: ['react', 'react/*', 'react-dom', 'react-dom/*'],
    define: { 'process.env.NODE_ENV': '"production"' },
    splitting: true,
    // Code splitting needs an output directory; with `write: false` nothing is written to it.
    outdir: 'app-size-out',
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins: [packageRoot === 'source' ? await sourceResolver() : packageResolver(packageRoot), appLoader(app)],
  })
  return { outputFiles: result.outputFiles, metafile: result.metafile }
}

/** Static-import closure of `start`, leaving out `exclude`. */
function closure(metafile: Metafile, start: string, exclude: ReadonlySet<string>): string[] {
  const group = new Set<string>()
  const visit = (path: string): void => {
    if (group.has(path) || exclude.has(path)) return
    group.add(path)
    for (const item of metafile.outputs[path]?.imports ?? []) if (!item.external && item.kind === 'import-statement') visit(item.path)
  }
  visit(start)
  return [...group]
}

/** A dist or source file, or a dependency's package folder (node_modules/zod/v4/core), as the breakdown names it. */
function inputName(file: string): string {
  const dependency = /node_modules\/((?:@[^/]+\/)?[^/]+(?:\/v\d+)?(?:\/[^/.]+)?)\//.exec(file)
  if (dependency) return `node_modules/${dependency[1]}`
  const own = /((?:dist|src|renderers)\/.*)$/.exec(file)
  return own ? (own[1] as string) : file
}

export async function measureApp(app: AppSpec, packageRoot: string): Promise<AppSize> {
  const { outputFiles, metafile } = await bundle(app, packageRoot)
  // The app's own entry: every `import()` target is an entry point of its own in the metafile too,
  // and which of them comes first is esbuild's order, not the app's.
  const entry = Object.keys(metafile.outputs).find((path) => metafile.outputs[path]?.entryPoint === APP_ENTRY)
  if (entry === undefined) throw new Error(`app-size: esbuild produced no entry chunk for ${app.name}`)
  const initialPaths = closure(metafile, entry, new Set())
  const loaded = new Set(initialPaths)
  const lazyPaths: string[] = []
  for (const path of Object.keys(metafile.outputs)) {
    if (!loaded.has(path)) lazyPaths.push(path)
  }
  const file = (path: string): OutputFile => {
    const output = outputFiles.find((candidate) => candidate.path === join(root, path))
    if (output === undefined) throw new Error(`app-size: no output file for ${path}`)
    return output
  }
  const sizeOf = (path: string): ChunkSize => {
    const contents = file(path).contents
    return { file: path.replace(/^app-size-out\//, ''), bytes: contents.byteLength, gzipBytes: gzipSync(contents, { level: 9 }).byteLength }
  }
  const initial = initialPaths.map(sizeOf)
  const lazy = lazyPaths.map(sizeOf)
  const inputs: Record<string, number> = {}
  for (const path of initialPaths) {
    for (const [input, { bytesInOutput }] of Object.entries(metafile.outputs[path]?.inputs ?? {})) {
      const name = inputName(input)
      inputs[name] = (inputs[name] ?? 0) + bytesInOutput
    }
  }
  const size: AppSize = {
    name: app.name,
    initial,
    initialBytes: initial.reduce((total, chunk) => total + chunk.bytes, 0),
    initialGzipBytes: initial.reduce((total, chunk) => total + chunk.gzipBytes, 0),
    lazy,
    lazyGzipBytes: lazy.reduce((total, chunk) => total + chunk.gzipBytes, 0),
    inputs,
    initialCode: initialPaths.map((path) => file(path).text).join('\n'),
  }
  if (app.targetBytes !== undefined) size.targetBytes = app.targetBytes
  return size
}

/** `packageRoot`: the built package's root, or `'source'` to bundle `src/` instead (see above). */
export async function measureApps(packageRoot: string, apps: readonly AppSpec[] = targetApps): Promise<AppSize[]> {
  const sizes: AppSize[] = []
  for (const app of apps) sizes.push(await measureApp(app, packageRoot))
  return sizes
}

const kB = (bytes: number): string => (bytes / 1000).toFixed(1)

/** The bench's table: app, initial kB, lazy kB, target, ok. */
export function formatApps(sizes: readonly AppSize[], baseline?: AppSize): string {
  const width = Math.max(...sizes.map((size) => size.name.length), 3)
  const rows = [`${'app'.padEnd(width)}  initial kB gzip (min)  lazy kB gzip  target kB  ok`]
  for (const size of sizes) {
    const added = baseline && size !== baseline ? `  (+${kB(size.initialGzipBytes - baseline.initialGzipBytes)} initial, +${kB(size.lazyGzipBytes - baseline.lazyGzipBytes)} lazy)` : ''
    const target = size.targetBytes === undefined ? '-' : `≤ ${kB(size.targetBytes)}`
    const ok = size.targetBytes === undefined ? '' : size.initialGzipBytes <= size.targetBytes ? 'yes' : 'no'
    rows.push(`${size.name.padEnd(width)}  ${`${kB(size.initialGzipBytes)} (${kB(size.initialBytes)})`.padStart(21)}  ${kB(size.lazyGzipBytes).padStart(12)}  ${target.padStart(9)}  ${ok}${added}`)
  }
  return rows.join('\n')
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const flag = process.argv.indexOf('--package')
  const { builtPackage } = await import('../test/support/built-package.js')
  // `--source`: the apps bundled from src/ without building the package (seconds instead of minutes;
  // within ≈0.1 kB of the built figures, see above), for a quick loop while cutting bytes.
  const packageRoot = process.argv.includes('--source') ? 'source' : flag === -1 ? await builtPackage() : (process.argv[flag + 1] as string)
  const sizes = await measureApps(packageRoot, [...targetApps, ...featureApps])
  console.log(formatApps(sizes, sizes[0]))
  if (process.argv.includes('--files')) {
    for (const size of await measureApps('source')) {
      // What splitting costs: each chunk is a gzip stream of its own (docs/performance.md § What a browser app pays).
      const oneStream = gzipSync(size.initialCode, { level: 9 }).byteLength
      console.log(`\n${size.name}: ${size.initial.length} initial chunks, ${kB(size.initialGzipBytes)} kB gzip as separate streams, ${kB(oneStream)} kB as one`)
      console.log(`${size.name}: minified bytes of the initial load by input`)
      for (const [input, bytes] of Object.entries(size.inputs).sort((a, b) => b[1] - a[1])) if (bytes > 0) console.log(`${String(bytes).padStart(8)}  ${input}`)
    }
  }
}
