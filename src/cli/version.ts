import { readFileSync, realpathSync } from 'node:fs'
import { dirname, join } from 'node:path'

/**
 * `chatrail --version`: the version in chatrail's own package.json, read when asked (never
 * bundled in, so it cannot drift from the published package). It is found by walking up from the
 * running script (`bin/chatrail.mjs` → `dist/cli.js`, or `src/cli/main.ts` under tsx; symlinks
 * such as `node_modules/.bin/chatrail` resolved) to the first package.json named `chatrail`.
 */
export function packageVersion(script: string | undefined = process.argv[1]): string | undefined {
  if (script === undefined) return undefined
  let dir: string
  try {
    dir = dirname(realpathSync(script))
  } catch {
    dir = dirname(script)
  }
  const root = packageRoot(dir)
  const version = root === undefined ? undefined : readPackage(join(root, 'package.json'))?.version
  return typeof version === 'string' ? version : undefined
}

/** The first directory at or above `dir` whose package.json is named `chatrail`, or `undefined`. */
export function packageRoot(dir: string): string | undefined {
  for (;;) {
    if (readPackage(join(dir, 'package.json'))?.name === 'chatrail') return dir
    const parent = dirname(dir)
    if (parent === dir) return undefined
    dir = parent
  }
}

function readPackage(path: string): { name?: unknown; version?: unknown } | undefined {
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'))
    return typeof parsed === 'object' && parsed !== null ? parsed : undefined
  } catch {
    return undefined
  }
}
