import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

/**
 * The package as `npm run build` makes it (scripts/build.ts: ESM, CJS, `.d.ts`, source maps, the
 * serve page), built at most once per state of the sources and shared by every test that needs it
 * (the exports-map test, the app sizes, the docs snippet check). The build lives in test-output/built-package/<hash>/ — a package root holding
 * package.json, bin/ and dist/ — keyed by a hash of everything that goes into it, so a second run
 * over unchanged sources reuses it and an edit to any source rebuilds it. Test files run in parallel
 * processes: the first one to need a build takes a lock directory (mkdir is atomic), the others wait
 * for the finished build instead of building it again.
 */

const run = promisify(execFile)
const root = fileURLToPath(new URL('../..', import.meta.url))
const cacheDir = join(root, 'test-output', 'built-package')
// Everything the build reads: the sources of every entry, the build config and the manifest, and the
// lock file (dependency versions shape the bundled declarations).
const inputs = ['src', 'renderers', 'bin', 'examples/support-bot', 'scripts/build.ts', 'tsup.config.ts', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json']
const buildTimeoutMs = 300_000
const pollMs = 250

function filesUnder(path: string): string[] {
  if (!existsSync(path)) return []
  if (!statSync(path).isDirectory()) return [path]
  return readdirSync(path, { withFileTypes: true })
    .filter((entry) => entry.name !== 'node_modules' && entry.name !== 'dist')
    .flatMap((entry) => filesUnder(join(path, entry.name)))
}

/** A hash of the build's inputs: their paths and contents, in a fixed order. */
export function sourceHash(): string {
  const hash = createHash('sha256')
  const files = inputs.flatMap((input) => filesUnder(join(root, input))).sort()
  for (const file of files) {
    hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0')
  }
  return hash.digest('hex').slice(0, 16)
}

/** Whether a process with this pid exists (another user's included). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but is another user's; only ESRCH says it is gone.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH'
  }
}

function lockOwner(lock: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(lock, 'pid'), 'utf8'))
    return Number.isInteger(pid) && pid > 0 ? pid : undefined
  } catch {
    return undefined
  }
}

async function build(target: string): Promise<void> {
  const staging = `${target}.staging-${process.pid}`
  rmSync(staging, { recursive: true, force: true })
  mkdirSync(staging, { recursive: true })
  await run(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'build.ts'), join(staging, 'dist')], { cwd: root, timeout: buildTimeoutMs })
  cpSync(join(root, 'package.json'), join(staging, 'package.json'))
  cpSync(join(root, 'bin'), join(staging, 'bin'), { recursive: true })
  writeFileSync(join(staging, '.complete'), new Date().toISOString())
  // A rename is atomic: a waiter sees either no build or a whole one.
  rmSync(target, { recursive: true, force: true })
  renameSync(staging, target)
  // Builds of earlier sources, and staging folders of builders that died, are never read again.
  for (const name of readdirSync(cacheDir)) {
    const staging = /\.staging-(\d+)$/.exec(name)
    const stale = staging ? !alive(Number(staging[1])) : !name.endsWith('.lock') && join(cacheDir, name) !== target
    if (stale) rmSync(join(cacheDir, name), { recursive: true, force: true })
  }
}

/**
 * The root of the built package for the current sources (package.json, bin/, dist/), building it if
 * no earlier run did. Never modify it: copy it, or link to it.
 */
export async function builtPackage(): Promise<string> {
  const target = join(cacheDir, sourceHash())
  const lock = `${target}.lock`
  const deadline = Date.now() + buildTimeoutMs + 60_000
  mkdirSync(cacheDir, { recursive: true })
  for (;;) {
    if (existsSync(join(target, '.complete'))) return target
    if (Date.now() > deadline) throw new Error(`builtPackage: no build of ${target} appeared in time; another process holds ${lock}. Remove it if no test is running.`)
    try {
      mkdirSync(lock)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const owner = lockOwner(lock)
      // A lock whose builder died (a killed run) is taken over. A fresh lock may have no pid yet;
      // one that still has none after a few seconds was left by a builder killed in between.
      const made = statSync(lock, { throwIfNoEntry: false })
      const abandoned = owner === undefined ? made !== undefined && Date.now() - made.mtimeMs > 10_000 : !alive(owner)
      if (abandoned) rmSync(lock, { recursive: true, force: true })
      await new Promise((resolve) => setTimeout(resolve, pollMs))
      continue
    }
    try {
      writeFileSync(join(lock, 'pid'), String(process.pid))
      if (!existsSync(join(target, '.complete'))) await build(target)
    } finally {
      rmSync(lock, { recursive: true, force: true })
    }
  }
}
