import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { basename, dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, type Metafile } from 'esbuild'
import { buildDevtoolsPage, buildServePage } from '../../src/cli/serve/build-page.js'
import { alive, sourceHash } from './built-package.js'

/**
 * The `chatrail` CLI as one esbuild build of src/cli/main.ts, for tests that run the CLI as a
 * process. Started through tsx, every CLI process spent 1–2 s loading tsx and resolving and
 * transforming the CLI's source graph (cached transforms included); started with plain `node` from
 * this build it is up in ~0.2 s. The build has the published package's shape (what `npm run build`
 * makes, without tsup's declarations): `<root>/package.json` (so `--version` and the page lookup
 * find chatrail's root) and `<root>/dist/cli.js` with its lazily loaded chunks (code splitting, so
 * a command loads only its own modules) and `dist/serve-page/` and `dist/devtools-page/` prebuilt, so
 * `chatrail serve` reads the pages instead of building it with esbuild on every start (~1 s each).
 *
 * It lives in test-output/cli-bundle/<hash>-cli/, keyed by the same hash of the sources as the built
 * package (test/support/built-package.ts), so an edit to any source rebuilds it and a second run
 * reuses it. Under test-output/ rather than os.tmpdir(): the build leaves packages external (as
 * tsup does), and Node resolves them by walking up from the file to the checkout's node_modules.
 * Test files run in parallel workers: each builds into a staging folder of its own and renames it
 * into place (atomic); a worker that loses the race drops its copy and uses the winner's.
 *
 * A definition module in TypeScript is still loaded through tsx's loader, registered on first use
 * by the CLI itself (src/testing/conversations/definition-loader.ts), as for an installed chatrail.
 * The real entries (bin/chatrail.mjs over dist, `tsx src/cli/main.ts`) keep their own few tests.
 */

const root = fileURLToPath(new URL('../..', import.meta.url))
const cacheDir = join(root, 'test-output', 'cli-bundle')

const builds = new Map<string, Promise<string>>()

/** The path of the bundled CLI's `dist/cli.js` for the current sources, building it if needed. */
export function cliBundle(): Promise<string> {
  return once('cli', async (staging) => {
    await bundle({ cli: join(root, 'src', 'cli', 'main.ts') }, join(staging, 'dist'))
    // both pages `chatrail serve` mounts (/ and /devtools/), as `npm run build` writes them
    for (const [folder, files] of [['serve-page', await buildServePage()], ['devtools-page', await buildDevtoolsPage()]] as const) {
      for (const [path, file] of files) {
        const out = join(staging, 'dist', folder, path)
        mkdirSync(dirname(out), { recursive: true })
        writeFileSync(out, file.contents)
      }
    }
    cpSync(join(root, 'package.json'), join(staging, 'package.json'))
    return join('dist', 'cli.js')
  })
}

/**
 * A test's own entry script (a pty fixture app such as test/ink/fixtures/order-chat-app.tsx) built
 * the same way, to start with plain `node` instead of tsx; or a definition module built to plain
 * JavaScript, for `chatrail serve` tests whose subject is not loading a TypeScript definition (the
 * CLI then imports it without registering tsx and transforming chatrail's sources a second time:
 * ~0.5 s of CPU a start instead of ~1.3 s). Such a module carries its own copy of chatrail's
 * sources, as a definition bundled by its author would. `entry` is relative to the checkout.
 * Its inputs reach beyond the sources the CLI's hash covers (test/ helpers), so this build is keyed
 * by the contents of the files esbuild read for it: `<name>.inputs.json` lists them after a build,
 * and a later call hashes those files again. An edit that adds an import changes a listed file, so
 * the list is never stale.
 */
export function scriptBundle(entry: string): Promise<string> {
  const name = basename(entry).replace(/\.[cm]?[jt]sx?$/, '')
  let pending = builds.get(entry)
  if (pending === undefined) {
    pending = ensureScript(name, entry)
    builds.set(entry, pending)
    pending.catch(() => builds.delete(entry))
  }
  return pending
}

async function ensureScript(name: string, entry: string): Promise<string> {
  const index = join(cacheDir, `${name}.inputs.json`)
  const listed = existsSync(index) ? (JSON.parse(readFileSync(index, 'utf8')) as string[]) : undefined
  if (listed !== undefined) {
    const dir = join(cacheDir, `${name}-${contentHash(listed)}`)
    if (existsSync(join(dir, `${name}.js`))) return touched(dir, join(dir, `${name}.js`))
  }
  const staging = join(cacheDir, `${name}.staging-${process.pid}`)
  rmSync(staging, { recursive: true, force: true })
  mkdirSync(staging, { recursive: true })
  const result = await bundle({ [name]: join(root, entry) }, staging, true)
  const inputs = Object.keys(result.metafile?.inputs ?? {}).filter((input) => !input.includes('node_modules/')).map((input) => relative(root, resolve(input))).sort()
  const target = join(cacheDir, `${name}-${contentHash(inputs)}`)
  place(staging, target)
  const tmp = `${index}.${process.pid}`
  writeFileSync(tmp, JSON.stringify(inputs))
  renameSync(tmp, index)
  return join(target, `${name}.js`)
}

/** Marks a build as in use (removeStale keeps what was used within the hour) and returns `path`. */
function touched(dir: string, path: string): string {
  const now = new Date()
  utimesSync(dir, now, now)
  return path
}

function contentHash(files: readonly string[]): string {
  const hash = createHash('sha256')
  for (const file of files) hash.update(file).update('\0').update(existsSync(join(root, file)) ? readFileSync(join(root, file)) : '').update('\0')
  return hash.digest('hex').slice(0, 16)
}

function bundle(entryPoints: Record<string, string>, outdir: string, metafile = false): Promise<{ metafile?: Metafile }> {
  return build({ entryPoints, outdir, bundle: true, splitting: true, format: 'esm', platform: 'node', target: 'node20', packages: 'external', logLevel: 'error', metafile, absWorkingDir: root })
}

/** Renames a finished `staging` folder to `target` (atomic); if another worker was first, keeps theirs. */
function place(staging: string, target: string): void {
  try {
    renameSync(staging, target)
  } catch (error) {
    // another worker renamed its build into place first: the same sources, so the same build
    const code = (error as NodeJS.ErrnoException).code
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error
    rmSync(staging, { recursive: true, force: true })
  }
}

/** Builds `<cacheDir>/<hash>-<name>/` once per state of the sources (per process, and across processes). */
function once(name: string, make: (staging: string) => Promise<string>): Promise<string> {
  let pending = builds.get(name)
  if (pending === undefined) {
    pending = ensureBuilt(name, make)
    builds.set(name, pending)
    pending.catch(() => builds.delete(name))
  }
  return pending
}

async function ensureBuilt(name: string, make: (staging: string) => Promise<string>): Promise<string> {
  const hash = sourceHash()
  const target = join(cacheDir, `${hash}-${name}`)
  const complete = join(target, '.complete')
  if (existsSync(complete)) return touched(target, join(target, readFileSync(complete, 'utf8')))
  const staging = `${target}.staging-${process.pid}`
  rmSync(staging, { recursive: true, force: true })
  mkdirSync(staging, { recursive: true })
  const entry = await make(staging)
  writeFileSync(join(staging, '.complete'), entry)
  place(staging, target)
  if (!existsSync(complete)) throw new Error(`cliBundle: ${target} is incomplete; remove it and run again`)
  removeStale(hash)
  return join(target, entry)
}

/**
 * Staging folders of workers that died, and builds of earlier sources an hour old: a run that
 * started before someone edited a source may still be loading chunks from its own build.
 */
function removeStale(hash: string): void {
  const before = Date.now() - 3_600_000
  for (const name of readdirSync(cacheDir)) {
    const staging = /\.staging-(\d+)$/.exec(name)
    const path = join(cacheDir, name)
    const stale = staging ? !alive(Number(staging[1])) : !name.startsWith(`${hash}-`) && (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0) < before
    if (stale) rmSync(path, { recursive: true, force: true })
  }
}
