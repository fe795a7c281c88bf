import type { PGlite } from '@electric-sql/pglite'
import { configIssue, ChatrailConfigError } from '../conversation/config-error.js'
import type { ConversationStore, StoreOptions } from './conversation-store.js'
import { sqlStore } from './sql/sql-store.js'
import { pgliteDriver } from './sql/pglite-driver.js'
import type { LockMode } from './directory-lock.js'
import { missingPeer, schemaOf } from './store-config.js'

export interface PgliteStoreOptions extends StoreOptions {
  /**
   * A directory for the database files (created 0700 with its parents if missing; survives a
   * restart). One process holds it at a time: another store opening it fails with
   * `StoreUnavailableError` naming the holder. Omitted: in memory.
   */
  dataDir?: string
  /** An open PGlite database to use instead (the store will not close it). */
  db?: PGlite
  /** The Postgres schema for chatrail's tables. Default `public`. */
  schema?: string
}

/**
 * `pgliteStore({ dataDir })`: the embedded default. PGlite is Postgres compiled to WASM, so this
 * store runs the very schema and statements `postgresStore` runs, in-process, with no server. One
 * process owns a data dir at a time; for several processes or machines use `postgresStore`.
 * `@electric-sql/pglite` is an optional peer dependency, loaded on first use.
 */
export function pgliteStore(options: PgliteStoreOptions = {}): ConversationStore {
  return pgliteStoreWith(options)
}

/** What only chatrail's own tests choose when they open a PGlite store. */
export interface PgliteInternals {
  /** The directory lock's kind (tests run the portable socket-file lock on Linux). Default: the platform's. */
  readonly lockMode?: LockMode
  /**
   * An in-memory database started from this tarball (`PGlite.dumpDataDir`) instead of a new one:
   * a migrated dump skips initdb, the seconds a fresh PGlite spends before its first query
   * (test/support/pglite-template.ts). Ignored when `dataDir` or `db` is given.
   */
  readonly loadDataDir?: Blob
}

/** `pgliteStore` with the internals tests choose. */
export function pgliteStoreWith(options: PgliteStoreOptions, internals: PgliteInternals = {}): ConversationStore {
  const { lockMode, loadDataDir } = internals
  if (options.dataDir !== undefined && options.db !== undefined) {
    throw new ChatrailConfigError([configIssue('conflicting_options', ['pgliteStore'], 'pgliteStore: pass either dataDir or db, not both.', 'Use dataDir to let the store open (and close) the database; db to share one you opened.')])
  }
  if (options.dataDir !== undefined && (typeof options.dataDir !== 'string' || options.dataDir === '')) {
    throw new ChatrailConfigError([configIssue('invalid_data_dir', ['pgliteStore', 'dataDir'], `pgliteStore: dataDir must be a directory path, got ${JSON.stringify(options.dataDir)}.`, 'e.g. pgliteStore({ dataDir: "./data/chat" }).')])
  }
  const schema = schemaOf('pgliteStore', options.schema)
  return sqlStore({
    ...options,
    kind: 'pglite',
    schema,
    async driver() {
      if (options.db) return pgliteDriver(options.db, false)
      let PGliteClass: typeof PGlite
      try {
        PGliteClass = (await import('@electric-sql/pglite')).PGlite
      } catch (error) {
        throw missingPeer('pgliteStore', '@electric-sql/pglite', error)
      }
      // in memory, or PGlite's own storages (idb://, memory://, opfs-ahp://): no directory to hold
      if (options.dataDir === undefined && loadDataDir !== undefined) return pgliteDriver(await PGliteClass.create({ loadDataDir }), true)
      if (options.dataDir === undefined || /^[a-z][a-z0-9+.-]*:\/\//i.test(options.dataDir)) return pgliteDriver(await PGliteClass.create(options.dataDir), true)
      // the package first, then the directory: a missing package leaves no directory behind.
      // Loaded here, not at the top: node:fs and node:net stay out of a browser's chatrail/store.
      const [{ prepareDataDir }, { lockDirectory }] = await Promise.all([import('./pglite-data-dir.js'), import('./directory-lock.js')])
      const dir = prepareDataDir(options.dataDir)
      const lock = await lockDirectory(dir, lockMode)
      try {
        return pgliteDriver(await PGliteClass.create(dir), true, lock.release)
      } catch (error) {
        await lock.release()
        throw error
      }
    },
  })
}
