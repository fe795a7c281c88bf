import type { ChatDefinition, ChatDefinitionInput, ChatNames } from './definition.js'
import type { JsonObject } from './json.js'
import { parseSessionEnvelope } from './persist-envelope.js'
import type { PersistKit } from './persist-kit.js'
import type { ChatSession, ChatSessionOptions, createChatSession } from './session.js'
import type { SessionPersistence } from './session-persistence.js'
import type { SessionStorage } from './session-storage.js'

/**
 * `resumeChatSession`'s work, loaded on first use. What it needs from the session layer is handed
 * in (the `PersistKit` pattern, persist-kit.ts): imported, those modules would leave the app's entry
 * chunk for a chunk shared with this one.
 */

export interface ResumeChatSessionOptions<Ctx extends JsonObject = JsonObject, N extends ChatNames = ChatNames> extends Omit<ChatSessionOptions<Ctx, N>, 'sessionId' | 'storage' | 'start'> {
  readonly sessionId: string
  readonly storage: SessionStorage
}

export interface RestoreDeps {
  readonly createChatSession: typeof createChatSession
  readonly persistenceOf: (session: object) => SessionPersistence | undefined
  readonly kit: PersistKit
}

export async function restoreSession<Ctx extends JsonObject, N extends ChatNames>(
  definition: ChatDefinition<Ctx, N> | ChatDefinitionInput<Ctx>,
  options: ResumeChatSessionOptions<Ctx, N>,
  deps: RestoreDeps,
): Promise<ChatSession<Ctx, N>> {
  if (typeof options?.storage?.load !== 'function' || typeof options.storage.save !== 'function') {
    throw deps.kit.configError('missing_session_storage', ['storage'], 'resumeChatSession needs storage: { load, save }.', 'Pass the storage the session was saved to (docs/persistence.md § Session snapshots).')
  }
  const session = deps.createChatSession<Ctx, N>(definition, options as ChatSessionOptions<Ctx, N>)
  try {
    options.signal?.throwIfAborted()
    const raw = await options.storage.load(session.sessionId, options.signal)
    if (raw === undefined || raw === null) return session
    const envelope = parseSessionEnvelope(raw, { sessionId: session.sessionId, definitionId: session.definition.id, definitionRevision: session.definition.revision }, deps.kit)
    const persistence = deps.persistenceOf(session)
    if (!persistence) throw new Error('chatrail: a session created with storage has persistence')
    ;(await persistence.load()).restore(envelope)
    return session
  } catch (error) {
    session.dispose()
    throw error
  }
}
