import type { Message } from '../contract/message.js'
import type { AppendInput, AppendResult, ClaimResult, ConversationStore, ConversationSummary, Lease, ListPage, StoredConversation, StoreOptions } from './conversation-store.js'
import { leaseVerdict, type LeaseRow } from './lease-rules.js'
import { decodeRow, DEFAULT_MAX_MESSAGE_BYTES, encodeMessages } from './message-codec.js'
import { checkAppendInput, checkConversationId, checkDecisionIds, checkLeaseMs, checkLoadOptions, checkSignal, checkTtl, decodeCursor, encodeCursor, listOrder, pageSize, unknownMessageError } from './store-input.js'
import { memoryTurnParts } from './memory-turn-parts.js'
import { memoryConfirmations } from './memory-confirmations.js'
import { checkTurnPartsAppend, checkTurnPartsRead, turnPartsBytesOf } from './turn-parts.js'
import { DefinitionMismatchError, OwnerMismatchError, StoreConflictError, StoreLeaseError, StoreUnavailableError } from './store-errors.js'
import { createStoreWakes } from './store-wakes.js'
import { decisionViewOf } from './decision-view.js'

/**
 * `memoryStore()`: the port in process memory, for tests, demos and single-process apps that do
 * not need a restart to keep anything. Same rules as the SQL stores (it passes the same contract
 * suite); messages are kept as their JSON text, so what you read back is a copy.
 */

interface Row {
  readonly seq: number
  readonly id: string
  readonly body: string
}

interface Conversation {
  definitionId: string
  owner: string | undefined
  revision: number
  version: number
  createdAt: number
  updatedAt: number
  nextSeq: number
  rows: Row[]
  /** message id → index in `rows` (rows are only ever cut from the end, so indices stay valid). */
  positions: Map<string, number>
}

export function memoryStore(options: StoreOptions = {}): ConversationStore {
  const clock = options.clock ?? Date.now
  const maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES
  const conversations = new Map<string, Conversation>()
  const leases = new Map<string, LeaseRow & { outcome?: string; stop?: boolean; dialogAnswer?: string; owner?: string }>()
  const turnParts = memoryTurnParts({ clock, maxBytes: turnPartsBytesOf(options.maxTurnPartsBytes), lease: (conversationId) => leases.get(conversationId) })
  // one process holds every reader of this store: a write wakes its subscribers directly
  const wakes = createStoreWakes()
  let closed = false

  const open = (operation: string): void => {
    if (closed) throw new StoreUnavailableError(operation, new Error('the store is closed'))
  }
  const { drop: dropConfirmations, ...confirmations } = memoryConfirmations(open)

  const summary = (conversationId: string, c: Conversation): ConversationSummary => ({
    conversationId,
    version: c.version,
    definition: { id: c.definitionId, revision: c.revision },
    ...(c.owner === undefined ? {} : { owner: c.owner }),
    messageCount: c.rows.length,
    createdAt: new Date(c.createdAt),
    updatedAt: new Date(c.updatedAt),
  })

  const decode = (conversationId: string, rows: readonly Row[]): Message[] => rows.map((row) => decodeRow(conversationId, row.seq, row.id, row.body))

  return {
    kind: 'memory',

    async open() {
      open('open')
    },

    async load(conversationId, loadOptions) {
      checkConversationId(conversationId, 'load')
      const range = checkLoadOptions(conversationId, loadOptions)
      open('load')
      const c = conversations.get(conversationId)
      if (!c) return undefined
      let from = 0
      let to = c.rows.length
      if (range?.beforeMessage !== undefined) {
        const at = c.positions.get(range.beforeMessage)
        if (at === undefined) throw unknownMessageError(conversationId, range.beforeMessage)
        to = at
      }
      if (range?.lastMessages !== undefined) from = Math.max(0, to - range.lastMessages)
      const messages = decode(conversationId, range ? c.rows.slice(from, to) : c.rows)
      return {
        conversationId, messages, version: c.version, definition: { id: c.definitionId, revision: c.revision }, ...(c.owner === undefined ? {} : { owner: c.owner }),
        createdAt: new Date(c.createdAt), updatedAt: new Date(c.updatedAt), ...(range ? { range: { from, total: c.rows.length } } : {}),
      }
    },

    async loadDecisions(conversationIds) {
      const ids = checkDecisionIds(conversationIds)
      open('loadDecisions')
      const logs: StoredConversation[] = []
      for (const conversationId of ids) {
        const c = conversations.get(conversationId)
        if (!c) continue
        logs.push({
          conversationId, messages: decode(conversationId, c.rows).map(decisionViewOf), version: c.version, definition: { id: c.definitionId, revision: c.revision },
          ...(c.owner === undefined ? {} : { owner: c.owner }), createdAt: new Date(c.createdAt), updatedAt: new Date(c.updatedAt),
        })
      }
      return logs
    },

    async append(conversationId, input: AppendInput): Promise<AppendResult> {
      checkConversationId(conversationId, 'append')
      checkAppendInput(conversationId, input)
      const encoded = encodeMessages(conversationId, input.messages, maxBytes)
      open('append')
      const now = clock()
      let c = conversations.get(conversationId)
      const first = encoded[0]
      // The owner first: another principal's retry must not read this conversation's stored outcome.
      if (c && input.owner !== undefined && c.owner !== input.owner) throw new OwnerMismatchError(conversationId)
      // Idempotency before CAS: a retried turn whose user message is stored gets the stored outcome.
      if (c && input.truncateAfter === undefined && first) {
        const at = c.positions.get(first.id)
        if (at !== undefined) return { status: 'duplicate', version: c.version, messages: decode(conversationId, c.rows.slice(at)) }
      }
      if ((c?.version ?? 0) !== input.expectedVersion) throw new StoreConflictError(conversationId, input.expectedVersion, c?.version ?? 0)
      if (c && c.definitionId !== input.definition.id) throw new DefinitionMismatchError(conversationId, c.definitionId, input.definition.id)
      const lease = leases.get(conversationId)
      const verdict = leaseVerdict(lease, input, now)
      if (verdict !== 'ok') throw new StoreLeaseError(conversationId, verdict, input.lease?.token, lease?.token)
      let cut = c?.rows.length ?? 0
      if (c && input.truncateAfter !== undefined && input.truncateAfter !== null) {
        const at = c.positions.get(input.truncateAfter)
        if (at === undefined) throw new StoreConflictError(conversationId, input.expectedVersion, c.version)
        cut = at + 1
      } else if (input.truncateAfter === null) cut = 0
      if (c && input.truncateAfter === undefined) {
        for (const row of encoded) if (c.positions.has(row.id)) throw new StoreConflictError(conversationId, input.expectedVersion, c.version)
      }
      // Every check passed: now mutate (nothing above wrote anything).
      if (!c) {
        c = { definitionId: input.definition.id, owner: input.owner, revision: input.definition.revision, version: 0, createdAt: now, updatedAt: now, nextSeq: 1, rows: [], positions: new Map() }
        conversations.set(conversationId, c)
      }
      for (const removed of c.rows.splice(cut)) c.positions.delete(removed.id)
      for (const row of encoded) {
        c.positions.set(row.id, c.rows.length)
        c.rows.push({ seq: c.nextSeq++, id: row.id, body: row.body })
      }
      c.version += 1
      c.updatedAt = now
      c.revision = input.definition.revision
      if (input.release && lease) {
        lease.released = true
        lease.outcome = input.release
      }
      return { status: 'appended', version: c.version }
    },

    async claim(conversationId, turnId, claimOptions): Promise<ClaimResult> {
      checkConversationId(conversationId, 'claim')
      checkLeaseMs(claimOptions?.leaseMs, 'claim')
      open('claim')
      const now = clock()
      const lease = leases.get(conversationId)
      if (lease && !lease.released && lease.expiresAt > now) return { status: 'busy', turnId: lease.turnId, expiresAt: new Date(lease.expiresAt) }
      const next = { turnId, token: (lease?.token ?? 0) + 1, expiresAt: now + claimOptions.leaseMs, released: false, ...(claimOptions.owner === undefined ? {} : { owner: claimOptions.owner }) }
      leases.set(conversationId, next)
      const c = conversations.get(conversationId)
      // read in the same synchronous step as the claim: nothing can write in between
      const current = c ? { version: c.version, revision: c.revision, updatedAt: new Date(c.updatedAt) } : { version: 0 }
      return { status: 'claimed', lease: { conversationId, turnId, token: next.token, expiresAt: new Date(next.expiresAt) }, current }
    },

    async renew(held: Lease, renewOptions): Promise<Lease> {
      checkConversationId(held.conversationId, 'renew')
      checkLeaseMs(renewOptions?.leaseMs, 'renew')
      open('renew')
      const lease = leases.get(held.conversationId)
      if (!lease || lease.released || lease.token !== held.token) throw new StoreLeaseError(held.conversationId, 'fenced', held.token, lease?.token)
      lease.expiresAt = clock() + renewOptions.leaseMs
      return { ...held, expiresAt: new Date(lease.expiresAt) }
    },

    async release(held, outcome) {
      checkConversationId(held.conversationId, 'release')
      open('release')
      const lease = leases.get(held.conversationId)
      if (!lease || lease.released || lease.token !== held.token) return false
      lease.released = true
      lease.outcome = outcome
      return true
    },

    async signal(conversationId, signal, signalOptions) {
      checkConversationId(conversationId, 'signal')
      checkSignal(conversationId, signal)
      open('signal')
      const lease = leases.get(conversationId)
      if (!lease || lease.released || lease.expiresAt <= clock()) return false
      if (signalOptions?.owner !== undefined && lease.owner !== signalOptions.owner) return false
      if (signal.type === 'stop') lease.stop = true
      else lease.dialogAnswer = signal.payload
      wakes.wake(conversationId, 'signal')
      return true
    },

    async takeSignals(held) {
      checkConversationId(held.conversationId, 'takeSignals')
      open('takeSignals')
      const lease = leases.get(held.conversationId)
      if (!lease || lease.released || lease.token !== held.token) return { stop: true }
      const dialogAnswer = lease.dialogAnswer
      lease.dialogAnswer = undefined
      return { stop: lease.stop === true, ...(dialogAnswer === undefined ? {} : { dialogAnswer }) }
    },

    async appendTurnParts(conversationId, input) {
      checkConversationId(conversationId, 'appendTurnParts')
      checkTurnPartsAppend(conversationId, input)
      open('appendTurnParts')
      const result = turnParts.append(conversationId, input)
      if (result.status === 'appended' || result.status === 'overflow') wakes.wake(conversationId, 'turn-parts')
      return result
    },

    subscribe: (conversationId, onWake) => wakes.subscribe(conversationId, onWake),

    async readTurnParts(conversationId, readOptions) {
      checkConversationId(conversationId, 'readTurnParts')
      checkTurnPartsRead(conversationId, readOptions)
      open('readTurnParts')
      return turnParts.read(conversationId, readOptions)
    },

    ...confirmations,

    async delete(conversationId) {
      checkConversationId(conversationId, 'delete')
      open('delete')
      leases.delete(conversationId)
      turnParts.drop(conversationId)
      dropConfirmations(conversationId)
      return conversations.delete(conversationId)
    },

    async list(listOptions): Promise<ListPage> {
      const limit = pageSize(listOptions)
      const after = decodeCursor(listOptions?.cursor)
      // newest first is the same order reversed: `sign` flips the comparisons, cursor included
      const sign = listOrder(listOptions) === 'newest' ? -1 : 1
      open('list')
      const before = listOptions?.updatedBefore?.getTime()
      const matching: [string, Conversation][] = []
      for (const entry of conversations) {
        const [id, c] = entry
        if (listOptions?.definitionId !== undefined && c.definitionId !== listOptions.definitionId) continue
        if (listOptions?.owner !== undefined && c.owner !== listOptions.owner) continue
        if (before !== undefined && c.updatedAt >= before) continue
        if (after && sign * (c.updatedAt - after.updatedAt || (id < after.conversationId ? -1 : id > after.conversationId ? 1 : 0)) <= 0) continue
        matching.push(entry)
      }
      matching.sort(([a, x], [b, y]) => sign * (x.updatedAt - y.updatedAt || (a < b ? -1 : a > b ? 1 : 0)))
      const page = matching.slice(0, limit)
      const last = page.at(-1)
      return {
        conversations: page.map(([id, c]) => summary(id, c)),
        ...(matching.length > limit && last ? { nextCursor: encodeCursor(last[1].updatedAt, last[0]) } : {}),
      }
    },

    async expire({ idleMs }) {
      checkTtl(idleMs)
      open('expire')
      const now = clock()
      let count = 0
      for (const [id, c] of conversations) {
        const lease = leases.get(id)
        if (c.updatedAt >= now - idleMs || (lease && !lease.released && lease.expiresAt > now)) continue
        conversations.delete(id)
        leases.delete(id)
        turnParts.drop(id)
        dropConfirmations(id)
        count += 1
      }
      turnParts.sweep()
      return count
    },

    async close() {
      closed = true
    },
  }
}
