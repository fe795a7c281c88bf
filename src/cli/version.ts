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
  for (;;) {
    const found = readPackage(join(dir, 'package.json'))
    if (found?.name === 'chatrail' && typeof found.version === 'string') return found.version
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
