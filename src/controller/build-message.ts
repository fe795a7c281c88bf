import type { Message, MessageRole, MessageStatus } from '../contract/message.js'
import { defaultClock, defaultIds } from './ids.js'
import type { Clock, IdFactory } from './ids.js'

export interface BuildMessageParams {
  role: MessageRole
  content: string
  status?: MessageStatus
  metadata?: Record<string, unknown>
  toolCallId?: string
}

/**
 * Builds a message (status `complete` unless given). Pure apart from the id factory and clock,
 * which default to random UUIDs and the wall clock and are injectable for replay.
 * Unlike upstream it omits `metadata`/`toolCallId` when undefined, so JSON and `toEqual` agree.
 */
export function buildMessage(
  params: BuildMessageParams,
  sources: { ids?: IdFactory; clock?: Clock } = {},
): Message {
  const message: Message = {
    id: (sources.ids ?? defaultIds)(),
    role: params.role,
    content: params.content,
    status: params.status ?? 'complete',
    createdAt: new Date((sources.clock ?? defaultClock)().getTime()),
  }
  if (params.metadata !== undefined) message.metadata = params.metadata
  if (params.toolCallId !== undefined) message.toolCallId = params.toolCallId
  return message
}
