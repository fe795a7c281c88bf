import type { ChatDefinition } from '../conversation/definition.js'
import type { JsonObject } from '../conversation/json.js'
import { compileMachine, type Machine } from '../conversation/machine.js'
import { createRecordSigner } from '../conversation/record-signing.js'
import type { RecordKey } from '../conversation/record-crypto.js'
import { HttpError } from '../server/http-responses.js'
import type { ConversationStore, ConversationSummary, StoredConversation } from '../store/conversation-store.js'
import { ConversationIndex } from './conversation-index.js'
import type { DevtoolsTurnKind } from './devtools-api.js'
import { signatureWithoutKey, walkConversation, type SignatureJudge, type WalkedConversation } from './turn-walk.js'

/**
 * What every devtools request handler shares (one object, built once per handler): the store, the
 * definitions by id with their compiled machines, the newest-first index, and the per-version
 * caches of what a walk over a stored history found. Everything here only reads the store.
 */

export interface KnownDefinition {
  readonly definition: ChatDefinition<JsonObject>
  readonly machine: Machine<JsonObject>
}

/** What the listing shows and filters on, derived from a stored history (kept per version). */
export interface ConversationFacts {
  readonly version: number
  readonly state: string | null
  readonly lastKind: DevtoolsTurnKind | null
  readonly failedTurns: number
  readonly turnCount: number
}

/** A walked conversation with what it was walked from (its messages are not kept). */
export interface OpenedConversation {
  readonly summary: Omit<StoredConversation, 'messages'>
  readonly walked: WalkedConversation
  /** Per version, for whoever caches something derived from it (the detail's JSON). */
  readonly memo: Map<string, unknown>
}

export interface DevtoolsContext {
  readonly store: ConversationStore
  readonly definitions: ReadonlyMap<string, KnownDefinition>
  readonly index: ConversationIndex
  readonly clock: () => number
  readonly onError: (error: unknown) => void
  /** `undefined`: the principal sees every conversation; else only its own. */
  visibleTo: (principal: string | undefined) => string | undefined
  /** The conversation, or 404 (absent, or another principal's under `access: 'owner'`). */
  load: (conversationId: string, principal: string | undefined) => Promise<StoredConversation>
  /** The walk over a stored history (the last few are kept). */
  walk: (stored: StoredConversation) => Promise<WalkedConversation>
  /**
   * The conversation walked, for a detail or explain request: from the kept walks when the index
   * (refreshed by the caller) says the stored version is still the one walked, so a large
   * conversation is not loaded again while it does not change; else loaded (404 as `load`).
   */
  opened: (conversationId: string, principal: string | undefined) => Promise<OpenedConversation>
  /** The listing's facts for a summary, loading and walking the conversation when not cached. */
  facts: (summary: ConversationSummary) => Promise<ConversationFacts | undefined>
}

export interface ContextOptions {
  readonly store: ConversationStore
  readonly definitions: readonly ChatDefinition<JsonObject>[]
  readonly access: 'owner' | 'all'
  readonly recordKey?: RecordKey
  readonly clock: () => number
  readonly fullScanMs?: number
  readonly onError: (error: unknown) => void
}

/** Facts kept at most (a listing of a larger store recomputes the oldest it shows again). */
const MAX_FACTS = 100_000
/** Walked conversations kept whole, for the detail page and its explain requests. */
const MAX_WALKS = 4

export const notFound = (what = 'conversation'): HttpError => new HttpError(404, 'not_found', `There is no ${what} with this id.`)

export function createDevtoolsContext(options: ContextOptions): DevtoolsContext {
  const { store, clock, onError } = options
  const definitions = new Map<string, KnownDefinition>()
  for (const definition of options.definitions) {
    if (definitions.has(definition.id)) throw new TypeError(`createDevtoolsHandler: two definitions have the id "${definition.id}"; pass one per id (the newest revision).`)
    definitions.set(definition.id, { definition, machine: compileMachine(definition.conversation) })
  }
  const index = new ConversationIndex({ store, clock, onError, ...(options.fullScanMs === undefined ? {} : { fullScanMs: options.fullScanMs }) })
  const facts = new Map<string, ConversationFacts>()
  const walks = new Map<string, OpenedConversation>()

  const judgeFor = async (stored: StoredConversation): Promise<SignatureJudge> => {
    if (options.recordKey === undefined) return signatureWithoutKey
    // a signer of its own per history: its memory of verified records is never a session's
    const signer = createRecordSigner(options.recordKey)
    await signer.verify(stored.messages)
    return (record) => (record.sig === undefined ? 'unsigned' : signer.trusted(record) ? 'verified' : 'forged')
  }

  const remember = (conversationId: string, walked: WalkedConversation, version: number): void => {
    const last = walked.turns.at(-1)
    if (facts.size >= MAX_FACTS) facts.delete(facts.keys().next().value as string)
    facts.set(conversationId, { version, state: walked.state, lastKind: last?.kind ?? null, failedTurns: walked.failedTurns, turnCount: walked.turns.length })
  }

  const keep = (stored: StoredConversation, walked: WalkedConversation): OpenedConversation => {
    const { messages: _messages, ...summary } = stored
    const opened: OpenedConversation = { summary, walked, memo: new Map() }
    walks.delete(stored.conversationId)
    if (walks.size >= MAX_WALKS) walks.delete(walks.keys().next().value as string)
    walks.set(stored.conversationId, opened)
    remember(stored.conversationId, walked, stored.version)
    return opened
  }

  const walk = async (stored: StoredConversation): Promise<WalkedConversation> => {
    const kept = walks.get(stored.conversationId)
    if (kept && kept.summary.version === stored.version && kept.summary.updatedAt.getTime() === stored.updatedAt.getTime()) return kept.walked
    const known = definitions.get(stored.definition.id)
    return keep(stored, walkConversation(known?.machine, stored.messages, await judgeFor(stored))).walked
  }

  const visibleTo = (principal: string | undefined): string | undefined => (options.access === 'all' ? undefined : principal)

  const load = async (conversationId: string, principal: string | undefined): Promise<StoredConversation> => {
    const stored = await store.load(conversationId)
    if (!stored) {
      index.forget(conversationId)
      throw notFound()
    }
    const owner = visibleTo(principal)
    if (owner !== undefined && stored.owner !== owner) throw notFound()
    return stored
  }

  return {
    store,
    definitions,
    index,
    clock,
    onError,
    visibleTo,
    load,
    walk,
    async opened(conversationId, principal) {
      const listed = index.get(conversationId)
      const kept = walks.get(conversationId)
      if (listed && kept && kept.summary.version === listed.version && kept.summary.updatedAt.getTime() === listed.updatedAt.getTime()) {
        const owner = visibleTo(principal)
        if (owner !== undefined && kept.summary.owner !== owner) throw notFound()
        return kept
      }
      const stored = await load(conversationId, principal)
      await walk(stored)
      return walks.get(conversationId) as OpenedConversation
    },
    async facts(summary) {
      const kept = facts.get(summary.conversationId)
      if (kept && kept.version === summary.version) return kept
      const stored = await store.load(summary.conversationId)
      if (!stored) {
        index.forget(summary.conversationId)
        return undefined
      }
      // signatures do not change the facts: no verification for a listing
      const known = definitions.get(stored.definition.id)
      const walked = walkConversation(known?.machine, stored.messages)
      remember(stored.conversationId, walked, stored.version)
      return facts.get(stored.conversationId)
    },
  }
}
