import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'vite'
import { alive, sourceHash } from './built-package.js'

/**
 * An example app (examples/<name>/) built by Vite from its own vite.config.ts, at most once per state
 * of its inputs and shared by every test file that serves it. Each Chromium suite used to run the
 * same Vite build in its beforeAll (examples/react-support: five files now, ~3 s of CPU each); test
 * files run in parallel processes, so the first to need a build takes a lock directory (mkdir is
 * atomic) and the others wait for its finished build instead of building it again.
 *
 * The build lives in test-output/example-builds/<name>-<hash>/, keyed by the sources' hash (the
 * package's sources and the lock file: test/support/built-package.ts) and every example's files
 * (vue-support and svelte-support import react-support's agent and styles; 48 small files), so an
 * edit to any of them rebuilds it and a second run over unchanged sources reuses it. Never modify
 * it: a test that needs its own copy copies it.
 */

const root = fileURLToPath(new URL('../..', import.meta.url))
const cacheDir = join(root, 'test-output', 'example-builds')
const buildTimeoutMs = 180_000
const pollMs = 100

function exampleFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.name !== 'node_modules' && entry.name !== 'dist')
    .flatMap((entry) => (entry.isDirectory() ? exampleFiles(join(dir, entry.name)) : [join(dir, entry.name)]))
    .sort()
}

function examplesHash(): string {
  const hash = createHash('sha256').update(sourceHash())
  for (const file of exampleFiles(join(root, 'examples'))) hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0')
  return hash.digest('hex').slice(0, 16)
}

async function buildInto(exampleRoot: string, name: string, target: string): Promise<void> {
  const staging = `${target}.staging-${process.pid}`
  rmSync(staging, { recursive: true, force: true })
  await build({ configFile: join(exampleRoot, 'vite.config.ts'), logLevel: 'error', build: { outDir: staging, emptyOutDir: true } })
  writeFileSync(join(staging, '.complete'), new Date().toISOString())
  rmSync(target, { recursive: true, force: true })
  // A rename is atomic: a waiter sees either no build or a whole one.
  renameSync(staging, target)
  // Staging folders of builders that died, and this example's builds of other sources no run has
  // used for an hour (another checkout state's run may still be serving one: keep those).
  const before = Date.now() - 3_600_000
  for (const entry of readdirSync(cacheDir)) {
    if (!entry.startsWith(`${name}-`)) continue
    const path = join(cacheDir, entry)
    const builder = /\.staging-(\d+)$/.exec(entry)
    const stale = builder ? !alive(Number(builder[1])) : !entry.endsWith('.lock') && path !== target && (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0) < before
    if (stale) rmSync(path, { recursive: true, force: true })
  }
}

/** Marks a build as in use (the clean-up above keeps what was used within the hour) and returns it. */
function used(target: string): string {
  const now = new Date()
  utimesSync(target, now, now)
  return target
}

/** The folder of examples/<name>'s production build (index.html, assets/) for the current sources. */
export async function exampleBuild(name: string): Promise<string> {
  const exampleRoot = join(root, 'examples', name)
  const target = join(cacheDir, `${name}-${examplesHash()}`)
  const lock = `${target}.lock`
  const deadline = Date.now() + buildTimeoutMs
  mkdirSync(cacheDir, { recursive: true })
  for (;;) {
    if (existsSync(join(target, '.complete'))) return used(target)
    if (Date.now() > deadline) throw new Error(`exampleBuild: no build of ${target} appeared in time; another process holds ${lock}. Remove it if no test is running.`)
    try {
      mkdirSync(lock)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      // A lock whose builder died (a killed run) is taken over; one with no pid yet after a few
      // seconds was left by a builder killed between the mkdir and the write.
      const owner = Number(existsSync(join(lock, 'pid')) ? readFileSync(join(lock, 'pid'), 'utf8') : Number.NaN)
      const made = statSync(lock, { throwIfNoEntry: false })
      const abandoned = Number.isInteger(owner) && owner > 0 ? !alive(owner) : made !== undefined && Date.now() - made.mtimeMs > 10_000
      if (abandoned) rmSync(lock, { recursive: true, force: true })
      await new Promise((resolve) => setTimeout(resolve, pollMs))
      continue
    }
    try {
      writeFileSync(join(lock, 'pid'), String(process.pid))
      if (!existsSync(join(target, '.complete'))) await buildInto(exampleRoot, name, target)
    } finally {
      rmSync(lock, { recursive: true, force: true })
    }
  }
}
