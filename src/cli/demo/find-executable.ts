import { accessSync, constants, statSync } from 'node:fs'
import { delimiter, join } from 'node:path'

/**
 * The first executable file called `name` on `pathVariable` (a `PATH` value), or undefined.
 * `npm start` puts `node_modules/.bin` on PATH, so a project-local CLI counts as installed.
 */
export function findExecutable(name: string, pathVariable: string | undefined): string | undefined {
  for (const directory of (pathVariable ?? '').split(delimiter)) {
    if (directory === '') continue
    const candidate = join(directory, name)
    try {
      if (!statSync(candidate).isFile()) continue
      accessSync(candidate, constants.X_OK)
      return candidate
    } catch {
      continue
    }
  }
  return undefined
}
