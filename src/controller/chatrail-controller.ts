import type { ChatController } from '../contract/chat.js'
import type { Clock, IdFactory } from './ids.js'
import type { BranchPosition } from './message-branches.js'

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
  /**
   * Which version of its place in history `messageId` shows: `{ index, count }`, 0-based. An edit
   * or a regenerate keeps what it replaced as an earlier version of that place; a message with no
   * other version (or not in history) is `{ index: 0, count: 1 }`.
   */
  branchesOf: (messageId: string) => BranchPosition
  /**
   * Shows version `index` of the place where `messageId` stands: stops a running turn, then
   * replaces the history from that place on with that version (the one shown until now is kept).
   * Returns whether history changed: false for an unknown message or version, or the one shown.
   * A non-integer `index` throws a `ConfigError` (`AK_CONFIG_INVALID`).
   */
  switchBranch: (messageId: string, index: number) => boolean
}

export interface ChatControllerOptions {
  /** Message id factory. Default: `msg-<random UUID>`. Must return a new id on every call. */
  ids?: IdFactory
  /** Time source for `createdAt` and durations. Default: the wall clock. */
  clock?: Clock
  /**
   * Keep what an edit or a regenerate replaced as an earlier version (`branchesOf`,
   * `switchBranch`). Default true. False for a controller whose history another owner keeps (a
   * chatrail server's conversation), where a version switched to here would not be the one there.
   */
  branches?: boolean
}
