import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildDevtoolsPage, buildServePage } from '../src/cli/serve/build-page.js'

// `npm run build` (and the test suite's build of the package, test/support/built-package.ts):
//   1. tsc emits every entry's declarations into a temp folder (tsconfig.build.json);
//   2. tsup bundles the JavaScript (ESM, CJS, source maps) and those declarations per entry
//      (tsup.config.ts reads the folder from CHATRAIL_DECLARATIONS_DIR): bundling emitted .d.ts
//      files costs ≈6 s of CPU where compiling the sources again inside tsup cost ≈95 s;
//   3. the `chatrail serve` page is prebuilt into <out>/serve-page next to <out>/cli.js, and its
//      devtools page (/devtools) into <out>/devtools-page, so the published CLI serves files and
//      never needs esbuild (src/cli/serve/page-assets.ts).
//   4. chatrail/svelte's `.svelte` files are copied into <out>/svelte/, beside the modules tsup
//      built from renderers/svelte/*.ts, which import them (the app's Svelte plugin compiles them).
// Usage: tsx scripts/build.ts [out dir, default dist]

const root = fileURLToPath(new URL('..', import.meta.url))
const outDir = resolve(process.argv[2] ?? join(root, 'dist'))

function run(what: string, args: string[], env: NodeJS.ProcessEnv = process.env): void {
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env })
  if (result.status !== 0) {
    process.stderr.write(`build: ${what} failed (${result.status === null ? `signal ${result.signal}` : `exit ${result.status}`})\n`)
    process.exit(1)
  }
}

const declarations = mkdtempSync(join(tmpdir(), 'chatrail-declarations-'))
try {
  run('tsc (declarations)', [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json', '--outDir', declarations])
  run('tsup', [join(root, 'node_modules', 'tsup', 'dist', 'cli-default.js'), '--out-dir', outDir, '--silent'], { ...process.env, CHATRAIL_DECLARATIONS_DIR: declarations })
} finally {
  rmSync(declarations, { recursive: true, force: true })
}

// chatrail/svelte ships its components as `.svelte` sources beside the modules tsup built from
// renderers/svelte/*.ts (dist/svelte/), which import them by relative path: the app's Svelte
// plugin compiles them with the app's own Svelte (docs/svelte.md § Packaging).
const svelteSources = join(root, 'renderers', 'svelte')
for (const file of readdirSync(svelteSources).filter((name) => name.endsWith('.svelte'))) {
  copyFileSync(join(svelteSources, file), join(outDir, 'svelte', file))
}

function writePage(folder: string, files: Awaited<ReturnType<typeof buildServePage>>): void {
  const pageDir = join(outDir, folder)
  rmSync(pageDir, { recursive: true, force: true })
  for (const [path, file] of files) {
    const target = join(pageDir, path)
    mkdirSync(dirname(target), { recursive: true })
    writeFileSync(target, file.contents)
  }
}

const files = await buildServePage()
writePage('serve-page', files)
const devtools = await buildDevtoolsPage()
writePage('devtools-page', devtools)
process.stdout.write(`build: ${outDir} (serve page: ${[...files.keys()].join(', ')}; devtools page: ${[...devtools.keys()].join(', ')})\n`)
