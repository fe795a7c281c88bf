import type { Message } from '../../contract/message.js'
import type { AppendInput, AppendResult, ClaimResult, ConversationStore, ConversationSummary, Lease, ListPage, LoadOptions, StoredConversation, StoreOptions } from '../conversation-store.js'
import { decodeParsedRow, decodeRow, DEFAULT_MAX_MESSAGE_BYTES, encodeMessages } from '../message-codec.js'
import { decisionViewOf } from '../decision-view.js'
import { checkAppendInput, checkConversationId, checkDecisionIds, checkLeaseMs, checkLoadOptions, checkSignal, checkTtl, decodeCursor, encodeCursor, listOrder, pageSize, unknownMessageError } from '../store-input.js'
import { DefinitionMismatchError, OwnerMismatchError, StoreConflictError, StoreLeaseError, StoreUnavailableError } from '../store-errors.js'
import { migrate } from './migrate.js'
import { statements } from './schema.js'
import { sqlTurnParts } from './sql-turn-parts.js'
import { sqlConfirmations } from './sql-confirmations.js'
import { sqlWakes } from './store-notifications.js'
import { TURN_PARTS_RETENTION_MS, turnPartsBytesOf } from '../turn-parts.js'
import type { SqlDriver, SqlRow } from './sql-driver.js'

/**
 * The port over SQL, shared by `pgliteStore` and `postgresStore`: they differ only in the driver.
 * The schema is migrated on first use (once per store object; concurrent first calls share it).
 * Driver failures (a refused connection, a server that went away) surface as
 * `StoreUnavailableError`; because each write is one statement, a failed write wrote nothing.
 */

export interface SqlStoreConfig extends StoreOptions {
  readonly kind: string
  readonly driver: () => Promise<SqlDriver>
  readonly schema: string
}

const num = (value: unknown): number => Number(value)
const ownerOf = (row: SqlRow): { owner?: string } => (typeof row.owner === 'string' ? { owner: row.owner } : {})

/** Driver errors become `StoreUnavailableError`; chatrail's own errors (thrown inside `work`) pass through. */
async function guarded<T>(operation: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (typeof error === 'object' && error !== null && Symbol.for('chatrail.error') in error) throw error
    throw new StoreUnavailableError(operation, error)
  }
}

export function sqlStore(config: SqlStoreConfig): ConversationStore {
  const clock = config.clock ?? Date.now
  const maxBytes = config.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES
  const sql = statements(config.schema)
  const maxTurnPartsBytes = turnPartsBytesOf(config.maxTurnPartsBytes)
  let ready: Promise<SqlDriver> | undefined
  let closed = false

  /** The driver, migrated. A failed start is not cached: the next call tries again (the database may be back). */
  const db = (): Promise<SqlDriver> => {
    if (closed) return Promise.reject(new Error('the store is closed'))
    if (!ready) {
      const starting = (async () => {
        const driver = await config.driver()
        try {
          await migrate(driver, config.schema)
        } catch (error) {
          await driver.close().catch(() => undefined)
          throw error
        }
        return driver
      })()
      ready = starting
      starting.catch(() => {
        if (ready === starting) ready = undefined
      })
    }
    return ready
  }
  const query = async (text: string, params: readonly unknown[]): Promise<SqlRow[]> => (await db()).query(text, params)
  const wakes = sqlWakes(config.schema, db)

  const decodeRows = (conversationId: string, rows: readonly SqlRow[]): Message[] =>
    rows.map((row) => decodeRow(conversationId, num(row.seq), row.message_id as string, row.body as string))

  /** A duplicate's stored outcome, which chatrail_append returns as JSON `[[seq, message_id, body], …]`. */
  const decodeOutcome = (conversationId: string, outcome: string): Message[] =>
    (JSON.parse(outcome) as [number, string, string][]).map(([seq, messageId, body]) => decodeRow(conversationId, num(seq), messageId, body))

  const summaryOf = (row: SqlRow): ConversationSummary => ({
    conversationId: row.id as string,
    version: num(row.version),
    definition: { id: row.definition_id as string, revision: num(row.definition_revision) },
    ...ownerOf(row),
    messageCount: num(row.message_count),
    createdAt: new Date(num(row.created_at)),
    updatedAt: new Date(num(row.updated_at)),
  })

  /** A conversation from its load statement's rows: the first carries the conversation's columns (and `seq` null when it has no messages). */
  const storedOf = (conversationId: string, head: SqlRow, rows: readonly SqlRow[]): StoredConversation => ({
    conversationId,
    messages: decodeRows(conversationId, head.seq === null ? [] : rows),
    version: num(head.version),
    definition: { id: head.definition_id as string, revision: num(head.definition_revision) },
    ...ownerOf(head),
    createdAt: new Date(num(head.created_at)),
    updatedAt: new Date(num(head.updated_at)),
  })

  /** A `loadDecisions` row as a log; undefined when a row in it is not a message (then read row by row, which names it). */
  const decisionLogOf = (conversationId: string, head: SqlRow): StoredConversation | undefined => {
    try {
      const bodies = head.bodies === null ? [] : (JSON.parse(head.bodies as string) as unknown[])
      const messages = bodies.map((raw) => decisionViewOf(decodeParsedRow(conversationId, -1, undefined, raw)))
      return { ...storedOf(conversationId, { ...head, seq: null }, []), messages }
    } catch {
      return undefined
    }
  }
  /** The log read a row at a time: a corrupt row is `StoreCorruptRowError` with its seq and id. */
  const decisionLogRowByRow = async (conversationId: string): Promise<StoredConversation | undefined> => {
    const rows = await query(sql.load, [conversationId])
    const first = rows[0]
    if (!first) return undefined
    const stored = storedOf(conversationId, first, rows)
    return { ...stored, messages: stored.messages.map(decisionViewOf) }
  }

  const loadRange = async (conversationId: string, range: LoadOptions): Promise<StoredConversation | undefined> => {
    const rows = await query(sql.loadRange, [conversationId, range.lastMessages ?? null, range.beforeMessage ?? null])
    const head = rows[0]
    if (!head) return undefined
    if (head.before_found !== true) throw unknownMessageError(conversationId, range.beforeMessage ?? '')
    const stored = storedOf(conversationId, head, rows)
    return { ...stored, range: { from: num(head.end_at) - stored.messages.length, total: num(head.message_count) } }
  }

  return {
    kind: config.kind,

    async open() {
      await guarded('open', db)
    },

    async load(conversationId, options) {
      checkConversationId(conversationId, 'load')
      const range = checkLoadOptions(conversationId, options)
      if (range) return guarded('load', () => loadRange(conversationId, range))
      return guarded('load', async () => {
        const rows = await query(sql.load, [conversationId])
        const head = rows[0]
        return head ? storedOf(conversationId, head, rows) : undefined
      })
    },

    async loadDecisions(conversationIds) {
      const ids = checkDecisionIds(conversationIds)
      if (ids.length === 0) return []
      return guarded('loadDecisions', async () => {
        const byId = new Map((await query(sql.loadDecisions, [JSON.stringify(ids)])).map((row) => [row.id as string, row]))
        const logs: StoredConversation[] = []
        for (const conversationId of ids) {
          const head = byId.get(conversationId)
          if (!head) continue
          const log = decisionLogOf(conversationId, head) ?? (await decisionLogRowByRow(conversationId))
          if (log) logs.push(log)
        }
        return logs
      })
    },

    async append(conversationId, input: AppendInput): Promise<AppendResult> {
      checkConversationId(conversationId, 'append')
      checkAppendInput(conversationId, input)
      const encoded = encodeMessages(conversationId, input.messages, maxBytes)
      return guarded('append', async () => {
        const truncate = input.truncateAfter !== undefined
        const [row] = await query(sql.append, [
          conversationId, input.expectedVersion, input.definition.id, input.definition.revision,
          JSON.stringify(encoded.map((m) => m.id)), JSON.stringify(encoded.map((m) => m.body)),
          truncate, truncate ? input.truncateAfter : null,
          input.lease?.turnId ?? null, input.lease?.token ?? null, input.release ?? null, clock(), input.owner ?? null,
        ])
        const version = num(row?.version)
        const detail = (row?.detail ?? undefined) as string | undefined
        switch (row?.status) {
          case 'appended':
            return { status: 'appended', version }
          case 'duplicate':
            return { status: 'duplicate', version, messages: decodeOutcome(conversationId, row.outcome as string) }
          case 'conflict':
            throw new StoreConflictError(conversationId, input.expectedVersion, version)
          case 'owner':
            throw new OwnerMismatchError(conversationId)
          case 'definition':
            throw new DefinitionMismatchError(conversationId, detail ?? '', input.definition.id)
          case 'fenced':
          case 'busy':
            throw new StoreLeaseError(conversationId, row.status, input.lease?.token, detail === undefined ? undefined : num(detail))
          default:
            throw new Error(`chatrail_append returned ${JSON.stringify(row)}`)
        }
      })
    },

    async claim(conversationId, turnId, options): Promise<ClaimResult> {
      checkConversationId(conversationId, 'claim')
      checkLeaseMs(options?.leaseMs, 'claim')
      return guarded('claim', async () => {
        const now = clock()
        const expiresAt = now + options.leaseMs
        const [row] = await query(sql.claim, [conversationId, turnId, expiresAt, now, options.owner ?? null])
        if (row) {
          const version = num(row.conversation_version)
          const current = version === 0 ? { version } : { version, revision: num(row.conversation_revision), updatedAt: new Date(num(row.conversation_updated_at)) }
          return { status: 'claimed', lease: { conversationId, turnId, token: num(row.lease_token), expiresAt: new Date(expiresAt) }, current }
        }
        const [holder] = await query(sql.holder, [conversationId])
        return { status: 'busy', turnId: (holder?.turn_id as string | undefined) ?? '', expiresAt: new Date(num(holder?.expires_at ?? now)) }
      })
    },

    async renew(lease: Lease, options): Promise<Lease> {
      checkConversationId(lease.conversationId, 'renew')
      checkLeaseMs(options?.leaseMs, 'renew')
      return guarded('renew', async () => {
        const expiresAt = clock() + options.leaseMs
        const [row] = await query(sql.renew, [lease.conversationId, lease.token, expiresAt])
        if (row) return { ...lease, expiresAt: new Date(expiresAt) }
        const [current] = await query(sql.currentToken, [lease.conversationId])
        throw new StoreLeaseError(lease.conversationId, 'fenced', lease.token, current ? num(current.token) : undefined)
      })
    },

    async release(lease, outcome) {
      checkConversationId(lease.conversationId, 'release')
      return guarded('release', async () => (await query(sql.release, [lease.conversationId, lease.token, outcome])).length > 0)
    },

    async signal(conversationId, signal, options) {
      checkConversationId(conversationId, 'signal')
      checkSignal(conversationId, signal)
      return guarded('signal', async () => {
        const rows = await query(sql.signal, [conversationId, signal.type === 'stop', signal.type === 'dialog-answer' ? signal.payload : null, clock(), options?.owner ?? null])
        return rows.length > 0
      })
    },

    async takeSignals(lease) {
      checkConversationId(lease.conversationId, 'takeSignals')
      return guarded('takeSignals', async () => {
        const [row] = await query(sql.takeSignals, [lease.conversationId, lease.token])
        if (!row) return { stop: true }
        const dialogAnswer = row.dialog_answer
        return { stop: row.stop_requested === true, ...(typeof dialogAnswer === 'string' ? { dialogAnswer } : {}) }
      })
    },

    ...sqlTurnParts({ sql, query, guarded, clock, maxBytes: maxTurnPartsBytes }),

    ...sqlConfirmations({ sql, query, guarded }),

    subscribe: (conversationId, onWake) => wakes.subscribe(conversationId, onWake),

    async delete(conversationId) {
      checkConversationId(conversationId, 'delete')
      return guarded('delete', async () => (await query(sql.delete, [conversationId])).length > 0)
    },

    async list(options): Promise<ListPage> {
      const limit = pageSize(options)
      const after = decodeCursor(options?.cursor)
      return guarded('list', async () => {
        const rows = await query(listOrder(options) === 'newest' ? sql.listNewest : sql.list, [
          options?.definitionId ?? null, options?.updatedBefore?.getTime() ?? null,
          after?.updatedAt ?? null, after?.conversationId ?? null, limit + 1, options?.owner ?? null,
        ])
        const page = rows.slice(0, limit).map(summaryOf)
        const last = page.at(-1)
        return { conversations: page, ...(rows.length > limit && last ? { nextCursor: encodeCursor(last.updatedAt.getTime(), last.conversationId) } : {}) }
      })
    },

    async expire({ idleMs }) {
      checkTtl(idleMs)
      return guarded('expire', async () => {
        const now = clock()
        const [row] = await query(sql.expire, [now - idleMs, now, TURN_PARTS_RETENTION_MS])
        return num(row?.n ?? 0)
      })
    },

    async close() {
      closed = true
      await wakes.close()
      const pending = ready
      ready = undefined
      if (pending) await (await pending.catch(() => undefined))?.close()
    },
  }
}
