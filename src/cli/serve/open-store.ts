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
