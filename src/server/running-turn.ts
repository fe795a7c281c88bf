import type { Message } from '../contract/message.js'
import type { ConversationStore } from '../store/conversation-store.js'
import { toUiMessages, type UiMessage } from './ui-messages.js'

/**
 * The conversation as a running turn will leave it, for GET while it runs: a turn stores its user
 * message only with its answer, at the end, so a page reloaded mid-answer would read a history
 * without the question it is about to see answered (and, for an edit or a regenerate, with the
 * messages the turn replaces). The turn's recorder keeps this header with its parts (turn-recorder.ts):
 * its user message and the id of the last message it keeps (`after`, null: none). GET shows the
 * stored history up to `after`, then that user message, while the turn runs; once it has stored its
 * answer, GET reads the store alone again.
 */
export interface RunningTurn {
  readonly after: string | null
  readonly message: UiMessage
}

export const encodeRunningTurn = (turn: RunningTurn): string => JSON.stringify(turn)

/** The header of a turn answering `user` after `history` (what it keeps). */
export function runningTurnHeader(history: readonly Message[], user: Message): string {
  const [message] = toUiMessages([user])
  return encodeRunningTurn({ after: history.at(-1)?.id ?? null, message: message ?? { id: user.id, role: 'user', parts: [] } })
}

function decodeRunningTurn(text: string): RunningTurn | undefined {
  try {
    const value = JSON.parse(text) as { after?: unknown; message?: { id?: unknown; role?: unknown; parts?: unknown } }
    const message = value.message
    if ((value.after !== null && typeof value.after !== 'string') || typeof message?.id !== 'string' || message.role !== 'user' || !Array.isArray(message.parts)) return undefined
    return value as RunningTurn
  } catch {
    return undefined
  }
}

/**
 * The turn running in the conversation, if one holds its lease and recorded its header (one read).
 * Only the principal who runs it sees it (`owner` undefined: `authenticate: 'none'`): a first turn's
 * conversation is not stored yet, so nothing else says whose it is.
 */
export async function runningTurnOf(store: ConversationStore, conversationId: string, owner: string | undefined): Promise<RunningTurn | undefined> {
  if (typeof store.readTurnParts !== 'function') return undefined
  const { lease, turn } = await store.readTurnParts(conversationId, { parts: false, header: true })
  if (!turn || turn.finished || !lease?.held || lease.turnId !== turn.turnId || turn.owner !== owner || turn.header === undefined) return undefined
  return decodeRunningTurn(turn.header)
}

/** The stored history with the running turn in place (pure); unchanged when its `after` is not there any more. */
export function withRunningTurn(messages: readonly UiMessage[], running: RunningTurn): UiMessage[] | undefined {
  if (running.after === null) return [running.message]
  const at = messages.findIndex((message) => message.id === running.after)
  return at < 0 ? undefined : [...messages.slice(0, at + 1), running.message]
}
