import { mkdirSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { StoreUnavailableError } from './store-errors.js'

/**
 * A PGlite data directory, made ready before PGlite opens it: created with its missing parents,
 * mode 0700 (the database files inside are the conversations; PGlite itself makes its directory
 * 0755 and only one level deep, failing with a bare `ENOENT mkdir` when a parent is missing). A
 * directory that cannot be created is a `StoreUnavailableError` naming it, not "is the database
 * running?". Returns the absolute path.
 */
export function prepareDataDir(dataDir: string): string {
  const dir = resolve(dataDir)
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    if (!statSync(dir).isDirectory()) throw new Error(`${dir} is not a directory`)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const why = code === 'ENOTDIR' || code === 'EEXIST' ? 'a part of its path is a file, not a directory' : code === 'EACCES' || code === 'EPERM' ? 'this user may not create it there' : 'it could not be created'
    throw new StoreUnavailableError('open', error, {
      hint: `The PGlite directory ${dir} does not exist and ${why}. Create it (mkdir -p ${dir}) or choose another dataDir (chatrail serve --store pglite:<dir>).`,
      directory: dir,
    })
  }
  return dir
}
