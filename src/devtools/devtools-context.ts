import type { Message } from '../contract/message.js'
import type { ChatDefinition } from '../conversation/definition.js'
import type { JsonObject } from '../conversation/json.js'
import { compileMachine, type Machine, type MachineState } from '../conversation/machine.js'
import { createRecordSigner } from '../conversation/record-signing.js'
import type { RecordKey } from '../conversation/record-crypto.js'
import { HttpError } from '../server/http-responses.js'
import { MAX_DECISION_LOGS, type ConversationStore, type ConversationSummary, type LoadOptions, type StoredConversation } from '../store/conversation-store.js'
import type { DevtoolsTurnKind } from './devtools-api.js'
import { uiEventOf } from '../conversation/ui-events.js'
import { signatureWithoutKey, stateBeforeMessage, walkConversation, type SignatureJudge, type WalkedConversation } from './turn-walk.js'

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

/** A user message as an explanation reads it, and the state and context the conversation was in just before it. */
export interface MessageBefore {
  readonly at: MachineState<JsonObject>
  readonly text: string
  readonly uiEvent?: string
}

/** What an explanation needs of a stored conversation (`DevtoolsContext.decided`). */
export interface DecidedConversation {
  readonly summary: Omit<StoredConversation, 'messages'>
  /** The user message `messageId` and the state before it, through `machine`; undefined when it is no user message of the log. */
  readonly before: (machine: Machine<JsonObject>, messageId: string) => MessageBefore | undefined
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
  /**
   * What an explanation needs (the state before a user message): from the kept whole walk when
   * there is one for the stored version; else from the store's `loadDecisions` (kept per version),
   * folded up to the message (turn-walk.ts `stateBeforeMessage`); else from `opened`.
   */
  decided: (conversationId: string, principal: string | undefined) => Promise<DecidedConversation>
  /** Walks the conversation whole beside the requests (one at a time), so its next open and its facts are exact. */
  walkSoon: (conversationId: string) => void
  /**
   * Runs a request's work, counted as in flight: a background walk reads its next chunk only when
   * no request is in flight (or after `GIVE_WAY_MS`), so it never stands in the store's queue in
   * front of the request that started it (an embedded PGlite runs one query at a time).
   */
  serving: <T>(work: () => Promise<T>) => Promise<T>
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
/** Logs read by `loadDecisions` kept (explanations in conversations not opened whole). */
const MAX_KEPT_DECISION_LOGS = 4
/**
 * A log longer than this is not read whole on a request's path unless it must be (its turns'
 * states, an explanation): reading and walking 10,000 messages takes ~200 ms on PGlite.
 */
export const LARGE_LOG = 1_000
/** The newest messages a long conversation's partial facts are read from. */
export const FACTS_TAIL = 64
/** Messages per read when a long conversation is read whole beside the requests. */
const WALK_CHUNK = 1_000
/** The longest a background walk waits for the requests in flight before it reads its next chunk anyway (never starved). */
const GIVE_WAY_MS = 250

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
  const decisionLogs = new Map<string, StoredConversation>()

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

  // the requests in flight (`serving`), which a background walk lets go first
  let inFlight = 0
  let onQuiet: (() => void)[] = []
  const serving = async <T>(work: () => Promise<T>): Promise<T> => {
    inFlight += 1
    try {
      return await work()
    } finally {
      inFlight -= 1
      if (inFlight === 0) for (const wake of onQuiet.splice(0)) wake()
    }
  }
  /** Resolves when no request is in flight, or after `GIVE_WAY_MS`. */
  const quiet = (): Promise<void> => {
    if (inFlight === 0) return Promise.resolve()
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        onQuiet = onQuiet.filter((wake) => wake !== done)
        resolve()
      }, GIVE_WAY_MS)
      const done = (): void => {
        clearTimeout(timer)
        resolve()
      }
      onQuiet.push(done)
    })
  }

  /**
   * The whole log, read back from its end `WALK_CHUNK` messages at a time, letting requests in
   * between (an embedded PGlite runs one query at a time: one read of 10,000 messages would hold
   * every request behind it for a good part of a second), and each chunk only once the requests in
   * flight are answered (the listing or open that asked for the walk first). Undefined when the
   * conversation is gone or was written meanwhile (its next open or listing starts again).
   */
  const loadInChunks = async (conversationId: string): Promise<StoredConversation | undefined> => {
    await quiet()
    let chunk = await store.load(conversationId, { lastMessages: WALK_CHUNK })
    if (!chunk || chunk.range === undefined) return chunk
    const { version } = chunk
    const chunks: Message[][] = [chunk.messages]
    while ((chunk.range?.from ?? 0) > 0) {
      await new Promise((resolve) => setTimeout(resolve, 0))
      await quiet()
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

  /**
   * Why the decisions alone give an explanation exactly what the whole walk gives: the state and
   * context before a turn are the machine's initial ones moved by each earlier turn's decision
   * record when its user text still has the record's fingerprint (turn-walk.ts), and a record, a
   * user's text and its ui-event are all `loadDecisions` keeps; an answer's text, parts, tool calls
   * and a record's signature never move the state. The history is not cut to a window (each record
   * carries a context patch, so the context before a message folds every record before it), but
   * `loadDecisions` reads 10,000 messages in about a sixth of what `load` takes on PGlite (one row,
   * no answer texts kept) and the fold builds no view. No checkpoint is stored (one would have to be
   * written by each answer's write and dropped by any edit before it); docs/devtools.md § Large
   * stores gives what this reaches.
   */
  const fromWalk = (opened: OpenedConversation): DecidedConversation => ({
    summary: opened.summary,
    before(machine, messageId) {
      const message = opened.walked.messages.find((candidate) => candidate.id === messageId)
      if (!message || message.role !== 'user' || message.turn === undefined) return undefined
      return { at: opened.walked.before[message.turn] ?? machine.initial, text: message.text, ...(message.uiEvent === undefined ? {} : { uiEvent: message.uiEvent }) }
    },
  })
  const fromLog = (log: StoredConversation): DecidedConversation => {
    const { messages, ...summary } = log
    return {
      summary,
      before(machine, messageId) {
        const found = stateBeforeMessage(machine, messages, messageId)
        if (!found) return undefined
        const uiEvent = uiEventOf(found.message)
        return { at: found.before, text: found.message.content, ...(uiEvent === undefined ? {} : { uiEvent }) }
      },
    }
  }
  const keepLog = (log: StoredConversation): StoredConversation => {
    decisionLogs.delete(log.conversationId)
    if (decisionLogs.size >= MAX_KEPT_DECISION_LOGS) decisionLogs.delete(decisionLogs.keys().next().value as string)
    decisionLogs.set(log.conversationId, log)
    return log
  }
  const decided = async (conversationId: string, principal: string | undefined): Promise<DecidedConversation> => {
    // nothing kept to check against a header: the decisions are the one read (they carry the version)
    if (typeof store.loadDecisions === 'function' && !walks.has(conversationId) && !decisionLogs.has(conversationId)) {
      return fromLog(keepLog(visible((await store.loadDecisions([conversationId]))[0], principal)))
    }
    const header = await head(conversationId, principal)
    const kept = keptFor(header)
    if (kept) return fromWalk(kept)
    const cached = decisionLogs.get(conversationId)
    if (cached && cached.version === header.version && cached.updatedAt.getTime() === header.updatedAt.getTime()) return fromLog(cached)
    // a store without ranges answered the header with the whole log: walk that; one without loadDecisions is read whole
    if (header.range === undefined) {
      await walk(header)
      return fromWalk(walks.get(conversationId) as OpenedConversation)
    }
    if (typeof store.loadDecisions !== 'function') return fromWalk(await openWhole(conversationId, principal))
    return fromLog(keepLog(visible((await store.loadDecisions([conversationId]))[0], principal)))
  }

  /**
   * The log a listing's facts are walked from. With `loadDecisions`, the facts asked for in the same
   * tick (a page's, in parallel) are read in one statement: a turn's state, kind and failure are all
   * in what it keeps (records, statuses, metadata), and one read instead of one per conversation is
   * what keeps a cold listing's page quick when the database is busy. Without it, `load` each.
   */
  let batch: { ids: string[]; logs: Promise<Map<string, StoredConversation>> } | undefined
  const factsLog = (conversationId: string): Promise<StoredConversation | undefined> => {
    const loadDecisions = store.loadDecisions
    if (typeof loadDecisions !== 'function') return store.load(conversationId)
    if (!batch || batch.ids.length >= MAX_DECISION_LOGS) {
      const ids: string[] = []
      const logs = Promise.resolve().then(async () => {
        if (batch?.ids === ids) batch = undefined
        return new Map((await loadDecisions.call(store, ids)).map((log) => [log.conversationId, log]))
      })
      batch = { ids, logs }
    }
    const current = batch
    current.ids.push(conversationId)
    return current.logs.then((logs) => logs.get(conversationId))
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
    decided,
    walkSoon,
    serving,
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
      const stored = await factsLog(summary.conversationId)
      if (!stored) return undefined
      // signatures do not change the facts: no verification for a listing
      remember(stored.conversationId, walkConversation(known?.machine, stored.messages), stored.version)
      return facts.get(stored.conversationId)
    },
  }
}
