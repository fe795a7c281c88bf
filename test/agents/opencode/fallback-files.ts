import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { OPENCODE_FIXTURES } from './fixture-files.js'

/**
 * A throwaway OpenCode data folder holding a writable copy of the recorded `opencode.db`, its
 * sessions' `time_updated` set to `updatedAt` so the monitor's silence rules read the same
 * whatever today is. `home` is the folder above `.local/share/opencode`.
 */
export interface DataDirCopy {
  home: string
  dataDir: string
  cleanup: () => void
}

export async function copyRecordedDatabase(updatedAt: number): Promise<DataDirCopy> {
  const home = mkdtempSync(join(tmpdir(), 'chatrail-oc-data-'))
  const dataDir = join(home, '.local', 'share', 'opencode')
  mkdirSync(dataDir, { recursive: true })
  copyFileSync(join(OPENCODE_FIXTURES, 'opencode.db'), join(dataDir, 'opencode.db'))
  const sqliteModule = 'better-sqlite3' // no types shipped: a variable specifier, typed by what is used
  const Database = ((await import(sqliteModule)) as { default: new (path: string) => { prepare: (sql: string) => { run: (...values: unknown[]) => unknown }; close: () => void } }).default
  const writable = new Database(join(dataDir, 'opencode.db'))
  writable.prepare('UPDATE session SET time_updated = ?').run(updatedAt)
  writable.close()
  return { home, dataDir, cleanup: () => rmSync(home, { recursive: true, force: true }) }
}
