import { ChatrailConfigError, configIssue } from './config-error.js'
import type { ChatDefinition, ChatDefinitionInput, ChatNames } from './definition.js'
import type { JsonObject } from './json.js'
import { createChatSession, type ChatSession } from './session.js'
import { persistKit } from './persist-kit.js'
import { persistenceOf } from './session-persistence.js'
import type { ResumeChatSessionOptions } from './persist-restore.js'

/**
 * Resuming a saved session (AgentsKit Chat's `resumeChatSession`) and checking a prepared one
 * (`resolveChatSession`). See docs/persistence.md § Session snapshots.
 */

export type { ResumeChatSessionOptions }

/**
 * The session `sessionId` as `storage` holds it: its decisions replayed (retry and regenerate of a
 * decided turn replay the stored answer, no route callback, no model call), its confirmation
 * records and its cursor. Nothing stored: a fresh session with that id. A snapshot that is not a
 * `chatrail.session` v1 envelope, belongs to another session, definition or revision, is malformed,
 * or whose decisions do not replay to its stored state: `ChatrailConfigError` naming what and the
 * fix (`incompatible_session_snapshot`, `corrupt_session_snapshot`); nothing is half restored.
 */
export async function resumeChatSession<Ctx extends JsonObject = JsonObject, N extends ChatNames = ChatNames>(
  definition: ChatDefinition<Ctx, N> | ChatDefinitionInput<Ctx>,
  options: ResumeChatSessionOptions<Ctx, N>,
): Promise<ChatSession<Ctx, N>> {
  // The restore (validation, replay) loads with the persistence chunk: an app that imports
  // `chatrail` whole but never resumes does not ship it.
  const { restoreSession } = await import('./persist-restore.js')
  return restoreSession(definition, options, { createChatSession, persistenceOf, kit: persistKit })
}

/**
 * `session` when it was made from `definition` (the same id and revision), else a
 * `ChatrailConfigError` (`incompatible_session`); without one, a new session whose id comes from
 * `createId` (default a random UUID). What renderers given an optional prepared session use.
 */
export function resolveChatSession<Ctx extends JsonObject = JsonObject, N extends ChatNames = ChatNames>(
  definition: ChatDefinition<Ctx, N> | ChatDefinitionInput<Ctx>,
  session?: ChatSession<Ctx, N>,
  options: { readonly createId?: () => string } = {},
): ChatSession<Ctx, N> {
  if (session === undefined) return createChatSession<Ctx, N>(definition, options.createId ? { sessionId: options.createId() } : {})
  const revision = definition.revision ?? 1
  if (session.definition.id !== definition.id || session.definition.revision !== revision) {
    throw new ChatrailConfigError([configIssue('incompatible_session', ['session'], `The session "${session.sessionId}" is incompatible: it was made from definition "${session.definition.id}" revision ${session.definition.revision}, not "${definition.id}" revision ${revision}.`, 'Create the session from the same definition the renderer is given (createChatSession(definition)).')])
  }
  return session
}
