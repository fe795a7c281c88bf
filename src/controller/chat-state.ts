import type { ChatState } from '../contract/chat.js'
import type { Message } from '../contract/message.js'
import type { TokenUsage } from '../contract/stream.js'
import { LAZY_MESSAGES_FROM } from './history-reads.js'
import { MessageList } from './message-list.js'

/** A state and the persistent history behind it: what the store holds and the reducer steps. */
export interface ChatSnapshot {
  readonly state: ChatState
  readonly list: MessageList
}

export { LAZY_MESSAGES_FROM }

export const zeroUsage = (): TokenUsage => ({ promptTokens: 0, completionTokens: 0, totalTokens: 0 })

/** Where a lazy state keeps its history: a non-enumerable own property, invisible to JSON and spread. */
const HISTORY = Symbol('chatrail.history')

interface LazyState extends ChatState {
  [HISTORY]: MessageList | undefined
}

/**
 * One accessor pair shared by every lazy state (not a closure per state: object literals with
 * their own getters fall into V8's dictionary mode and cost ≈0.5 µs each). Assigning `messages`
 * turns it back into a plain data property, as on a plain state.
 */
const messagesAccessor: PropertyDescriptor = {
  get(this: LazyState): Message[] {
    return (this[HISTORY] as MessageList).toArray()
  },
  set(this: LazyState, value: Message[]): void {
    Object.defineProperty(this, 'messages', { value, writable: true, enumerable: true, configurable: true })
    this[HISTORY] = undefined
  },
  enumerable: true,
  configurable: true,
}
const historySlot: PropertyDescriptor = { value: undefined, writable: true, enumerable: false, configurable: true }

/**
 * A state over `list`: a plain object (`Object.prototype`, keys in the usual order). A long
 * history's `messages` is an own enumerable accessor returning `list.toArray()`, a real array built
 * on the first read and shared by every state over the same list, so a streamed chunk nobody
 * reads costs O(1), while JSON, spreading, `Object.keys`, `toEqual` and `structuredClone` see the
 * same state as before.
 */
export function chatSnapshot(list: MessageList, status: ChatState['status'], input: string, error: Error | null, usage: TokenUsage): ChatSnapshot {
  if (list.length < LAZY_MESSAGES_FROM) return { state: { messages: list.toArray(), status, input, error, usage }, list }
  // Properties are added in one fixed order, so every lazy state shares one hidden class.
  const state = {} as LazyState
  Object.defineProperty(state, 'messages', messagesAccessor)
  Object.defineProperty(state, HISTORY, historySlot)
  state[HISTORY] = list
  state.status = status
  state.input = input
  state.error = error
  state.usage = usage
  return { state, list }
}

/** `state` (any `ChatState`, e.g. one an app built) with its history: O(1) for a lazy state, else O(tail). */
export function snapshotOf(state: ChatState): ChatSnapshot {
  const list = (state as Partial<LazyState>)[HISTORY]
  return { state, list: list ?? MessageList.from(state.messages) }
}
