import type { Message } from '../contract/message.js'
import type { ChatDefinition } from '../conversation/definition.js'
import type { JsonObject } from '../conversation/json.js'
import { compileMachine, type Machine } from '../conversation/machine.js'
import { createRecordSigner } from '../conversation/record-signing.js'
import type { RecordKey } from '../conversation/record-crypto.js'
import { HttpError } from '../server/http-responses.js'
import type { ConversationStore, ConversationSummary, LoadOptions, StoredConversation } from '../store/conversation-store.js'
import type { DevtoolsTurnKind } from './devtools-api.js'
import { signatureWithoutKey, walkConversation, type SignatureJudge, type WalkedConversation } from './turn-walk.js'

/**
 * What every devtools request handler shares (one object, built once per handler): the store, the
 * definitions by id with their compiled machines, and the per-version
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
  /** Read from the newest `FACTS_TAIL` messages only (a long conversation whose whole walk is not done yet). */
  readonly partial: boolean
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
  readonly clock: () => number
  readonly onError: (error: unknown) => void
  /** `undefined`: the principal sees every conversation; else only its own. */
  visibleTo: (principal: string | undefined) => string | undefined
  /** The conversation, or 404 (absent, or another principal's under `access: 'owner'`). */
  load: (conversationId: string, principal: string | undefined, options?: LoadOptions) => Promise<StoredConversation>
  /** The walk over a stored history (the last few are kept). */
  walk: (stored: StoredConversation) => Promise<WalkedConversation>
  /**
   * The conversation's header (version, times, owner; `messages` empty, `range` when the store
   * reads ranges), or 404 as `load`. One short read, whatever the conversation's length.
   */
  head: (conversationId: string, principal: string | undefined) => Promise<StoredConversation>
  /** The kept walk of the version `head` names, if there is one. */
  kept: (head: StoredConversation) => OpenedConversation | undefined
  /**
   * The conversation walked whole, for a detail or explain request: from the kept walks when its
   * header says the stored version is still the one walked, so a large conversation is not loaded
   * again while it does not change; else loaded (404 as `load`).
   */
  opened: (conversationId: string, principal: string | undefined) => Promise<OpenedConversation>
  /** Walks the conversation whole beside the requests (one at a time), so its next open and its facts are exact. */
  walkSoon: (conversationId: string) => void
  /** The background walks under way (tests wait for them). */
  settled: () => Promise<void>
  /**
   * The listing's facts for a summary, loading and walking the conversation when not cached. A
   * conversation longer than `LARGE_LOG` messages is read whole only when `exact` (a filter on its
   * history); otherwise its newest `FACTS_TAIL` messages give `partial` facts now and a whole walk
   * is started beside the requests.
   */
  facts: (summary: ConversationSummary, exact: boolean) => Promise<ConversationFacts | undefined>
}

export interface ContextOptions {
  readonly store: ConversationStore
  readonly definitions: readonly ChatDefinition<JsonObject>[]
  readonly access: 'owner' | 'all'
  readonly recordKey?: RecordKey
  readonly clock: () => number
  readonly onError: (error: unknown) => void
}

/** Facts kept at most (a listing of a larger store recomputes the oldest it shows again). */
const MAX_FACTS = 100_000
/** Walked conversations kept whole, for the detail page and its explain requests. */
const MAX_WALKS = 4
/**
 * A log longer than this is not read whole on a request's path unless it must be (its turns'
 * states, an explanation): reading and walking 10,000 messages takes ~200 ms on PGlite.
 */
export const LARGE_LOG = 1_000
/** The newest messages a long conversation's partial facts are read from. */
export const FACTS_TAIL = 64
/** Messages per read when a long conversation is read whole beside the requests. */
const WALK_CHUNK = 1_000

export const notFound = (what = 'conversation'): HttpError => new HttpError(404, 'not_found', `There is no ${what} with this id.`)

/** A range of a log from its first user message on (what comes before it answers an earlier turn). */
export function trimToTurns(messages: readonly Message[]): Message[] {
  const first = messages.findIndex((message) => message.role === 'user')
  return first === -1 ? [] : messages.slice(first)
}

export function createDevtoolsContext(options: ContextOptions): DevtoolsContext {
  const { store, clock, onError } = options
  const definitions = new Map<string, KnownDefinition>()
  for (const definition of options.definitions) {
    if (definitions.has(definition.id)) throw new TypeError(`createDevtoolsHandler: two definitions have the id "${definition.id}"; pass one per id (the newest revision).`)
    definitions.set(definition.id, { definition, machine: compileMachine(definition.conversation) })
  }
  const facts = new Map<string, ConversationFacts>()
  const walks = new Map<string, OpenedConversation>()

  const judgeFor = async (stored: StoredConversation): Promise<SignatureJudge> => {
    if (options.recordKey === undefined) return signatureWithoutKey
    // a signer of its own per history: its memory of verified records is never a session's
    const signer = createRecordSigner(options.recordKey)
    await signer.verify(stored.messages)
    return (record) => (record.sig === undefined ? 'unsigned' : signer.trusted(record) ? 'verified' : 'forged')
  }

  const factsOf = (walked: WalkedConversation, version: number, partial: boolean): ConversationFacts => ({
    version, state: walked.state, lastKind: walked.turns.at(-1)?.kind ?? null, failedTurns: walked.failedTurns, turnCount: walked.turns.length, partial,
  })
  const remember = (conversationId: string, walked: WalkedConversation, version: number): void => {
    facts.delete(conversationId)
    if (facts.size >= MAX_FACTS) facts.delete(facts.keys().next().value as string)
    facts.set(conversationId, factsOf(walked, version, false))
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

  const visible = (stored: StoredConversation | undefined, principal: string | undefined): StoredConversation => {
    if (!stored) throw notFound()
    const owner = visibleTo(principal)
    if (owner !== undefined && stored.owner !== owner) throw notFound()
    return stored
  }
  const load = async (conversationId: string, principal: string | undefined, range?: LoadOptions): Promise<StoredConversation> => visible(await store.load(conversationId, range), principal)
  // a store without ranges reads the whole log here: still correct, only slower
  const head = async (conversationId: string, principal: string | undefined): Promise<StoredConversation> => visible(await store.load(conversationId, { lastMessages: 0 }), principal)
  const keptFor = (head: Pick<StoredConversation, 'conversationId' | 'version' | 'updatedAt'>): OpenedConversation | undefined => {
    const kept = walks.get(head.conversationId)
    return kept && kept.summary.version === head.version && kept.summary.updatedAt.getTime() === head.updatedAt.getTime() ? kept : undefined
  }
  const openWhole = async (conversationId: string, principal: string | undefined): Promise<OpenedConversation> => {
    const stored = await load(conversationId, principal)
    await walk(stored)
    return walks.get(conversationId) as OpenedConversation
  }

  /**
   * The whole log, read back from its end `WALK_CHUNK` messages at a time, letting requests in
   * between (an embedded PGlite runs one query at a time: one read of 10,000 messages would hold
   * every request behind it for a good part of a second). Undefined when the conversation is gone or
   * was written meanwhile (its next open or listing starts again).
   */
  const loadInChunks = async (conversationId: string): Promise<StoredConversation | undefined> => {
    let chunk = await store.load(conversationId, { lastMessages: WALK_CHUNK })
    if (!chunk || chunk.range === undefined) return chunk
    const { version } = chunk
    const chunks: Message[][] = [chunk.messages]
    while ((chunk.range?.from ?? 0) > 0) {
      await new Promise((resolve) => setTimeout(resolve, 0))
      const first = chunks[0]?.[0]
      if (!first) return undefined
      const next = await store.load(conversationId, { lastMessages: WALK_CHUNK, beforeMessage: first.id }).catch(() => undefined)
      if (!next || next.version !== version) return undefined
      chunks.unshift(next.messages)
      chunk = next
    }
    const { range: _range, ...whole } = chunk
    return { ...whole, messages: chunks.flat() }
  }

  // one whole walk at a time beside the requests, each conversation once while it is queued
  let background: Promise<void> = Promise.resolve()
  const queued = new Set<string>()
  const walkSoon = (conversationId: string): void => {
    if (queued.has(conversationId)) return
    queued.add(conversationId)
    background = background.then(async () => {
      try {
        const stored = await loadInChunks(conversationId)
        if (stored && !keptFor(stored)) await walk(stored)
      } catch (error) {
        onError(error)
      } finally {
        queued.delete(conversationId)
      }
    })
  }

  return {
    store,
    definitions,
    clock,
    onError,
    visibleTo,
    load,
    walk,
    head,
    kept: keptFor,
    async opened(conversationId, principal) {
      return keptFor(await head(conversationId, principal)) ?? openWhole(conversationId, principal)
    },
    walkSoon,
    settled: () => background,
    async facts(summary, exact) {
      const kept = facts.get(summary.conversationId)
      if (kept && kept.version === summary.version && (!exact || !kept.partial)) return kept
      const known = definitions.get(summary.definition.id)
      if (!exact && summary.messageCount > LARGE_LOG) {
        const tail = await store.load(summary.conversationId, { lastMessages: FACTS_TAIL })
        if (!tail) return undefined
        if (tail.range !== undefined && tail.range.from > 0) {
          // the tail's own records say its states; the whole walk comes beside the requests
          const partial = factsOf(walkConversation(undefined, trimToTurns(tail.messages)), tail.version, true)
          facts.set(summary.conversationId, partial)
          walkSoon(summary.conversationId)
          return partial
        }
      }
      const stored = await store.load(summary.conversationId)
      if (!stored) return undefined
      // signatures do not change the facts: no verification for a listing
      remember(stored.conversationId, walkConversation(known?.machine, stored.messages), stored.version)
      return facts.get(stored.conversationId)
    },
  }
}
