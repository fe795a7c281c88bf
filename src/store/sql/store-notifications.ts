import type { StoreWake } from '../conversation-store.js'
import { createStoreWakes } from '../store-wakes.js'
import type { SqlDriver } from './sql-driver.js'

/**
 * `subscribe` for the SQL stores. The writes a reader waits for (`signal`, `appendTurnParts`) call
 * `pg_notify` in their own statement, so a notification leaves only when the write commits (a
 * rolled-back or refused write notifies nobody). Each store keeps ONE listener for all its
 * conversations (Postgres: a dedicated connection, postgres-listener.ts; PGlite: its in-process
 * `listen`), started by the first `subscribe` and stopped by `close`, and wakes the conversation's
 * subscribers in this process.
 *
 * One channel for every schema, with the schema in the payload (`<schema>:<what>:<conversationId>`):
 * a channel name is at most 63 bytes and a schema name may be 63 already. `what` says which reader
 * it is for (a signal wakes the turn's holder, a batch of parts its resumed streams): the holder
 * is not woken by its own flushes. A payload is only ever a key looked up in this process's
 * subscribers, never trusted beyond that.
 */
export const NOTIFY_CHANNEL = 'chatrail'

type Written = Exclude<StoreWake, 'missed'>

/** The SQL that tells a conversation's readers that `what` was written; `id` is the SQL expression of its id (a schema name is a checked identifier). */
export const notifySql = (schema: string, what: Written, id: string): string => `pg_notify('${NOTIFY_CHANNEL}', '${schema}:${what}:' || ${id}::text)`

export interface SqlWakes {
  subscribe: (conversationId: string, onWake: (reason: StoreWake) => void) => () => void
  /** Stops the listener (before the driver closes). */
  close: () => Promise<void>
}

export function sqlWakes(schema: string, driver: () => Promise<SqlDriver>): SqlWakes {
  const wakes = createStoreWakes()
  const prefix = `${schema}:`
  let listening: Promise<(() => Promise<void>) | undefined> | undefined
  let closed = false
  const listen = (): void => {
    if (listening || closed) return
    const started = (async () => {
      const db = await driver()
      if (!db.listen) return undefined
      return db.listen(NOTIFY_CHANNEL, {
        onNotify(payload) {
          if (!payload.startsWith(prefix)) return // another schema's
          const at = payload.indexOf(':', prefix.length)
          const what = payload.slice(prefix.length, at)
          if (at > 0 && (what === 'signal' || what === 'turn-parts')) wakes.wake(payload.slice(at + 1), what)
        },
        // anything committed before the LISTEN was in place (or while it was down) was missed
        onListening: () => wakes.wakeAll(),
      })
    })()
    listening = started
    // the database is unreachable: the next subscribe tries again, and readers poll meanwhile
    started.catch(() => {
      if (listening === started) listening = undefined
    })
  }
  return {
    subscribe(conversationId, onWake) {
      const unsubscribe = wakes.subscribe(conversationId, onWake)
      listen()
      return unsubscribe
    },
    async close() {
      closed = true
      const stop = await listening?.catch(() => undefined)
      listening = undefined
      await stop?.().catch(() => undefined)
    },
  }
}
