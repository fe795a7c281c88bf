import { ChatrailError } from '../../contract/errors.js'
import type { ConversationStore } from '../../store/index.js'
import type { StoreSpec } from './serve-args.js'

/**
 * The store `--store` names. Loaded lazily: `memory` never loads PGlite or pg (both optional peers;
 * a missing one fails with the store's own error naming the package to install).
 */
export async function openStore(spec: StoreSpec): Promise<ConversationStore> {
  const stores = await import('../../store/index.js')
  switch (spec.kind) {
    case 'memory':
      return stores.memoryStore()
    case 'pglite':
      return stores.pgliteStore({ dataDir: spec.dataDir })
    case 'postgres':
      return stores.postgresStore({ connectionString: spec.connectionString })
  }
}

/**
 * The store, opened now: connected, its PGlite directory created and locked, migrated. So a store
 * that cannot open stops `chatrail serve` before it says it listens (instead of a server answering
 * every request 500 or 503), and the first request pays no start-up. The error is one line: the
 * cause and the fix (the install command, the directory, the process holding it).
 */
export async function openWarmStore(spec: StoreSpec): Promise<ConversationStore> {
  let store: ConversationStore | undefined
  try {
    store = await openStore(spec)
    await (store.open ? store.open() : store.list({ limit: 1 }).then(() => undefined))
    return store
  } catch (error) {
    await store?.close().catch(() => undefined)
    throw new Error(`the store did not open: ${oneLine(error)}`, { cause: error })
  }
}

function oneLine(error: unknown): string {
  if (ChatrailError.isInstance(error)) return `${error.message}${error.hint ? ` Fix: ${error.hint}` : ''}`.replace(/\s*\n\s*/g, ' ')
  return error instanceof Error ? error.message : String(error)
}

/** How the store is named in the startup lines (a Postgres URL without its password). */
export function describeStore(spec: StoreSpec): string {
  switch (spec.kind) {
    case 'memory':
      return 'memory (gone when the process stops)'
    case 'pglite':
      return `PGlite in ${spec.dataDir}`
    case 'postgres': {
      try {
        const url = new URL(spec.connectionString)
        if (url.password !== '') url.password = '***'
        return `Postgres at ${url.toString()}`
      } catch {
        return 'Postgres'
      }
    }
  }
}
