import type { ChatController } from '../contract/chat.js'
import type { Clock, IdFactory } from './ids.js'

export interface SendOptions {
  /** Stored on the user message (`message.metadata`), e.g. a UI event marker. */
  metadata?: Record<string, unknown>
}

/**
 * chatrail's controller: an AgentsKit `ChatController` whose `send` also takes options. It stays
 * assignable to `ChatController` (the extra parameter is optional).
 */
export interface ChatrailController extends ChatController {
  send: (text: string, options?: SendOptions) => Promise<void>
}

export interface ChatControllerOptions {
  /** Message id factory. Default: `msg-<random UUID>`. Must return a new id on every call. */
  ids?: IdFactory
  /** Time source for `createdAt` and durations. Default: the wall clock. */
  clock?: Clock
}
