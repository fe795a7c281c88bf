import type { ChatConfig } from '../contract/chat.js'
import type { Message } from '../contract/message.js'
import type { ChatDefinition } from '../conversation/definition.js'
import { assertValidDefinition } from '../conversation/definition-check.js'
import type { JsonObject } from '../conversation/json.js'
import { createChatSession, type ChatSession, type ChatSessionOptions } from '../conversation/session.js'
import type { TurnTrace } from '../conversation/trace.js'
import type { ConversationStore, Lease, StoredConversation } from './conversation-store.js'
import { rederive } from './rederive.js'
import { storeMemory, type StoreMemory } from './store-memory.js'
import { DefinitionMismatchError, RevisionMismatchError } from './store-errors.js'

/**
 * One call from a conversation id to a working chat: load the stored history, check it belongs to
 * this definition (and migrate it when its revision is older or newer), create the session with
 * that history trusted (the host's own store), create the controller over the session's `chat`
 * and keep the session synced and a store-backed memory fed on every change. Each finished turn is
 * saved as one append (an edit or regenerate as one truncate-and-append). The controller factory is passed in (`createChatController` from chatrail/controller, or
 * AgentsKit's), which keeps chatrail/store free of the controller layer.
 */

/** What to do with a conversation stored under another revision of the definition. */
export type RevisionPolicy<Ctx extends JsonObject = JsonObject> =
  | 'rederive'
  | 'reject'
  | { migrate: (stored: StoredConversation, definition: ChatDefinition<Ctx>) => Message[] | Promise<Message[]> }

export interface ChatControllerLike {
  getState: () => { messages: Message[] }
  subscribe: (listener: () => void) => () => void
}

export interface OpenStoredChatOptions<Ctx extends JsonObject, C extends ChatControllerLike> {
  store: ConversationStore
  definition: ChatDefinition<Ctx>
  conversationId: string
  createController: (config: ChatConfig) => C
  /** Default `'rederive'`: stored user texts are re-decided through this revision. */
  onRevisionChange?: RevisionPolicy<Ctx>
  /** Session options (`recordKey`, `clock`, `onTrace`, …); `sessionId` defaults to the conversation id. */
  session?: ChatSessionOptions<Ctx>
  /** A turn lease from `store.claim` that every write carries (several instances serving one conversation). */
  lease?: Pick<Lease, 'turnId' | 'token'>
  /** Called when a save fails (a conflict with another writer, the store down). */
  onError?: (error: unknown) => void
}

export interface StoredChat<Ctx extends JsonObject, C extends ChatControllerLike> {
  readonly session: ChatSession<Ctx>
  readonly controller: C
  readonly memory: StoreMemory
  /** Set when the stored conversation was migrated to this revision on open. */
  readonly migration?: { readonly fromRevision: number; readonly toRevision: number; readonly traces: readonly TurnTrace[] }
  /** Resolves when every finished turn so far is stored; rejects with the first failed save. */
  flushed: () => Promise<void>
  /** Stops syncing and disposes the session (the store stays open: it is yours). */
  close: () => void
}

export async function openStoredChat<Ctx extends JsonObject, C extends ChatControllerLike>(options: OpenStoredChatOptions<Ctx, C>): Promise<StoredChat<Ctx, C>> {
  const { store, definition, conversationId } = options
  // whatever NODE_ENV: a production `defineChat` skips the full check (issue 32), a store's host does not
  assertValidDefinition(definition)
  const ref = { id: definition.id, revision: definition.revision }
  const stored = await store.load(conversationId)
  if (stored && stored.definition.id !== definition.id) throw new DefinitionMismatchError(conversationId, stored.definition.id, definition.id)
  let messages = stored?.messages ?? []
  let version = stored?.version ?? 0
  let migration: StoredChat<Ctx, C>['migration']
  if (stored && stored.definition.revision !== definition.revision) {
    const policy = options.onRevisionChange ?? 'rederive'
    if (policy === 'reject') throw new RevisionMismatchError(conversationId, stored.definition.revision, definition.revision)
    let traces: readonly TurnTrace[] = []
    if (policy === 'rederive') {
      const result = await rederive(definition, stored.messages, `${conversationId}.rederive`)
      messages = result.messages
      traces = result.traces
    } else {
      messages = await policy.migrate(stored, definition)
    }
    // The migrated history replaces the stored one under CAS: a writer in between makes this fail, not vanish.
    version = (await store.append(conversationId, { expectedVersion: stored.version, truncateAfter: null, messages, definition: ref, ...(options.lease ? { lease: options.lease } : {}) })).version
    migration = { fromRevision: stored.definition.revision, toRevision: definition.revision, traces }
  }
  const session = createChatSession(definition, { sessionId: conversationId, ...options.session })
  session.sync(messages, { trusted: true })
  const memory = storeMemory(store, { conversationId, definition: ref, baseline: { version, messages }, onError: options.onError, ...(options.lease ? { lease: options.lease } : {}) })
  // The memory is fed here, synchronously on every change, rather than through config.memory: the
  // controller's own persistence queue would hand it the last turn some ticks later, and
  // `flushed()` could not promise that every finished turn is stored.
  const controller = options.createController({ ...session.chat, initialMessages: messages })
  const unsubscribe = controller.subscribe(() => {
    const current = controller.getState().messages
    session.sync(current)
    void memory.save(current)
  })
  return {
    session,
    controller,
    memory,
    ...(migration ? { migration } : {}),
    flushed: () => memory.flushed(),
    close() {
      unsubscribe()
      session.dispose()
    },
  }
}
