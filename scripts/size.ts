import { gzipSync } from 'node:zlib'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import type { Plugin } from 'esbuild'

/**
 * Gzip size of the published entry points, bundled the way a consumer's bundler sees them:
 * minified ESM, dependencies (zod, yaml, react) left as imports. `chatrail/react` is measured on
 * its own (the core imported from `chatrail`, as in the package) and with the core inlined.
 * Run: `npm run size` (add `-- --check` to fail on a missed target); `npm run bench` reports the
 * same figures (bench/size.bench.ts).
 */

const root = fileURLToPath(new URL('..', import.meta.url))

export interface EntrySize {
  name: string
  bytes: number
  gzipBytes: number
  /** Bare module imports the bundle keeps (e.g. `react`), sorted. */
  imports: string[]
  /** Source files bundled in, relative to the repository root. */
  inputs: string[]
  /** The minified bundle itself. */
  contents: Uint8Array
  /** Gzip target in bytes, when the entry has one. */
  targetBytes?: number
}

/** Treats imports of the core (`src/`) from a renderer as the `chatrail` package import they are once published. */
const coreAsPackage: Plugin = {
  name: 'core-as-package',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /\/src\/.*\.js$/ }, (args) =>
      args.importer.includes('/renderers/') ? { path: 'chatrail', external: true } : undefined)
  },
}

export async function measureEntry(name: string, entry: string, options: { coreExternal?: boolean; targetBytes?: number } = {}): Promise<EntrySize> {
  const result = await build({
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    jsx: 'automatic',
    packages: 'external',
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins: options.coreExternal === true ? [coreAsPackage] : [],
  })
  const output = result.outputFiles[0]
  if (output === undefined) throw new Error(`size: esbuild produced no output for ${entry}`)
  const meta = Object.values(result.metafile.outputs)[0]
  const imports = [...new Set((meta?.imports ?? []).filter((item) => item.external).map((item) => item.path))].sort()
  const size: EntrySize = {
    name,
    contents: output.contents,
    bytes: output.contents.byteLength,
    gzipBytes: gzipSync(output.contents, { level: 9 }).byteLength,
    imports,
    inputs: Object.keys(result.metafile.inputs).sort(),
  }
  if (options.targetBytes !== undefined) size.targetBytes = options.targetBytes
  return size
}

export async function measureAll(): Promise<EntrySize[]> {
  return [
    await measureEntry('chatrail', 'src/index.ts', { targetBytes: 15_000 }),
    await measureEntry('chatrail/react', 'renderers/react/index.ts', { coreExternal: true, targetBytes: 6_000 }),
    await measureEntry('chatrail/react + core', 'renderers/react/index.ts'),
  ]
}

const kB = (bytes: number): string => `${(bytes / 1000).toFixed(2)} kB`

export function formatSizes(sizes: readonly EntrySize[]): string {
  const base = sizes[0]
  return sizes.map((size) => {
    const target = size.targetBytes === undefined ? '' : `  target < ${kB(size.targetBytes)} ${size.gzipBytes < size.targetBytes ? 'ok' : 'OVER'}`
    const ratio = base === undefined || size === base ? '' : `  ×${(size.gzipBytes / base.gzipBytes).toFixed(2)} of chatrail`
    return `${size.name.padEnd(22)} ${kB(size.bytes).padStart(10)} min  ${kB(size.gzipBytes).padStart(9)} gzip${target}${ratio}  imports: ${size.imports.join(', ') || '-'}`
  }).join('\n')
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const sizes = await measureAll()
  console.log(formatSizes(sizes))
  // `--check` turns a missed target into a failing exit code (a gate); plain runs only report.
  if (process.argv.includes('--check') && sizes.some((size) => size.targetBytes !== undefined && size.gzipBytes >= size.targetBytes)) process.exitCode = 1
}
