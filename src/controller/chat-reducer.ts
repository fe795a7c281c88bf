import type { ChatState } from '../contract/chat.js'
import type { Message, MessageStatus, ToolCall } from '../contract/message.js'
import type { TokenUsage } from '../contract/stream.js'
import { chatSnapshot, snapshotOf, zeroUsage } from './chat-state.js'
import type { ChatSnapshot } from './chat-state.js'
import { MessageList } from './message-list.js'
import { countable } from './turn-measures.js'

/**
 * Every state change the controller makes, as data. `chatReducer` is the one place state is
 * computed; the store applies it and notifies once per change (TanStack `query.ts#dispatch`).
 */
export type ChatAction =
  /** A turn starts: history replaced (user + streaming assistant appended, or truncated + assistant). */
  | { type: 'turn-begun'; messages: Message[]; clearInput: boolean }
  /** Shallow patch of one message's fields; `metadata` is merged key by key. */
  | { type: 'message-patched'; id: string; patch: Partial<Omit<Message, 'id' | 'metadata'>>; metadata?: Record<string, unknown> }
  | { type: 'tool-call-added'; messageId: string; call: ToolCall }
  | { type: 'tool-call-patched'; messageId: string; callId: string; patch: Partial<Omit<ToolCall, 'id'>> }
  /**
   * The turn's assistant message is final: `complete`, chat `idle`, error cleared; `metadata` (the
   * `done` chunk's decision record) is merged in the same change.
   */
  | { type: 'turn-settled'; assistantId: string; metadata?: Record<string, unknown> }
  | { type: 'turn-failed'; assistantId: string; error: Error }
  /**
   * `stop()`: streaming messages become `complete`; unfinished tool calls become `error` with
   * `reason`. `settled` is a stopped turn's `done` record for its answer, merged in the same change.
   */
  | { type: 'turn-stopped'; reason: string; settled?: { id: string; metadata: Record<string, unknown> } }
  /** One tool round-trip: the assistant becomes `complete` (`metadata` merged), tool results and a new streaming assistant follow. */
  | { type: 'tools-continued'; assistantId: string; appended: Message[]; metadata?: Record<string, unknown> }
  | { type: 'usage-added'; usage: TokenUsage }
  | { type: 'input-set'; input: string }
  | { type: 'messages-set'; messages: Message[] }
  | { type: 'cleared' }

/**
 * The store's own action, not part of the public `ChatAction` union: a turn that extends history
 * (`send`: user + streaming assistant) without handing over the whole array, so it costs O(1).
 */
export type TurnAppended = { type: 'turn-appended'; appended: Message[]; clearInput: boolean }

/** `current` with some fields replaced; the history is `list` (default: unchanged, same array). */
function next(current: ChatSnapshot, list: MessageList, fields: Partial<Omit<ChatState, 'messages'>>): ChatSnapshot {
  const { state } = current
  return chatSnapshot(list, fields.status ?? state.status, fields.input ?? state.input, 'error' in fields ? (fields.error ?? null) : state.error, fields.usage ?? state.usage)
}

export function initialChatState(messages: Message[]): ChatState {
  return initialSnapshot(messages).state
}

export const initialSnapshot = (messages: Message[]): ChatSnapshot => chatSnapshot(MessageList.from(messages), 'idle', '', null, zeroUsage())

const unfinishedCall = (call: ToolCall): boolean => call.status === 'pending' || call.status === 'running'

/**
 * `list` with the message `id` replaced by `update(message)`: a new list when it changed, the same
 * list when the id is unknown or `update` returned the message itself. O(1) near the end.
 */
function mapMessage(list: MessageList, id: string, update: (message: Message) => Message): MessageList {
  const index = list.indexOfId(id)
  if (index < 0) return list
  const message = list.at(index) as Message
  const updated = update(message)
  return updated === message ? list : list.with(index, updated)
}

/** The snapshot over `list`, or `current` when the list is the same (no notify, no save). */
const withList = (current: ChatSnapshot, list: MessageList): ChatSnapshot => (list === current.list ? current : next(current, list, {}))

/** `message` in `status`, its unfinished tool calls turned into `error` with `reason`. */
function closeMessage(message: Message, status: MessageStatus, reason: string): Message {
  const closed: Message = { ...message, status }
  if (message.toolCalls?.some(unfinishedCall)) {
    closed.toolCalls = message.toolCalls.map((call) => (unfinishedCall(call) ? { ...call, status: 'error', error: reason } : call))
  }
  return closed
}

const isOpen = (message: Message): boolean => message.status === 'streaming' || Boolean(message.toolCalls?.some(unfinishedCall))

const completed = (message: Message): Message => ({ ...message, status: 'complete' })
/**
 * `completed`, with `metadata` merged key by key when there is some. `Object.assign` onto a fresh
 * object, not a spread: V8 gives a spread's result a map with no transitions, so adding a key the
 * message lacks (`metadata`) cost ≈0.45 µs, seven times the assign (Node 20).
 */
const completing = (metadata: Record<string, unknown> | undefined) =>
  metadata ? (message: Message): Message => Object.assign({}, message, { status: 'complete' as const, metadata: message.metadata ? { ...message.metadata, ...metadata } : metadata }) : completed

const usageKeys = ['promptTokens', 'completionTokens', 'totalTokens'] as const

/**
 * Pure: returns the next state, or the same object when the action changes nothing (so the
 * store neither notifies nor saves). Never mutates `state` or anything inside it.
 */
export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  const next = reduceChat(snapshotOf(state), action).state
  // As before for callers composing their own state: a plain object that keeps any extra fields
  // of theirs (the store steps snapshots with `reduceChat` and never pays this spread).
  return next === state ? state : { ...state, ...next }
}

/**
 * `chatReducer` over a snapshot, plus the store's own `turn-appended`: returns `current` itself
 * when nothing changed. A chunk costs O(1) whatever the history's length (`MessageList`).
 */
export function reduceChat(current: ChatSnapshot, action: ChatAction | TurnAppended): ChatSnapshot {
  const { state, list } = current
  switch (action.type) {
    case 'turn-begun':
      return next(current, MessageList.from(action.messages), { status: 'streaming', error: null, input: action.clearInput ? '' : state.input })
    case 'turn-appended':
      return next(current, list.append(action.appended), { status: 'streaming', error: null, input: action.clearInput ? '' : state.input })
    case 'message-patched':
      return withList(
        current,
        mapMessage(list, action.id, (message) =>
          // A spread for the common text patch (its keys exist: fastest); `Object.assign` when
          // `metadata` may be a new key (see `completing`).
          action.metadata
            ? Object.assign({}, message, action.patch, { metadata: { ...message.metadata, ...action.metadata } })
            : { ...message, ...action.patch },
        ),
      )
    case 'tool-call-added':
      return withList(
        current,
        mapMessage(list, action.messageId, (message) => ({ ...message, toolCalls: [...(message.toolCalls ?? []), action.call] })),
      )
    case 'tool-call-patched':
      return withList(
        current,
        mapMessage(list, action.messageId, (message) =>
          message.toolCalls?.some((call) => call.id === action.callId)
            ? { ...message, toolCalls: message.toolCalls.map((call) => (call.id === action.callId ? { ...call, ...action.patch } : call)) }
            : message,
        ),
      )
    case 'turn-settled':
      return next(current, mapMessage(list, action.assistantId, completing(action.metadata)), { status: 'idle', error: null })
    case 'turn-failed': {
      const reason = `Turn failed: ${action.error.message}`
      const messages = mapMessage(list, action.assistantId, (message) => closeMessage(message, 'error', reason))
      return next(current, messages, { status: 'error', error: action.error })
    }
    case 'turn-stopped': {
      const { settled } = action
      const recorded = settled ? mapMessage(list, settled.id, (message) => Object.assign({}, message, { metadata: { ...message.metadata, ...settled.metadata } })) : list
      // O(n), like the stop itself: an open message may sit anywhere in a history set from outside.
      const touched = recorded.some(isOpen)
      if (!touched && recorded === list && state.status !== 'streaming') return current
      const messages = touched
        ? MessageList.from(
            recorded
              .toArray()
              .map((message) => (isOpen(message) ? closeMessage(message, message.status === 'streaming' ? 'complete' : message.status, action.reason) : message)),
          )
        : recorded
      return next(current, messages, { status: state.status === 'streaming' ? 'idle' : state.status })
    }
    case 'tools-continued':
      return next(current, mapMessage(list, action.assistantId, completing(action.metadata)).append(action.appended), { status: 'streaming' })
    case 'usage-added': {
      const usage = { ...state.usage }
      for (const key of usageKeys) usage[key] += countable(action.usage[key])
      return next(current, list, { usage })
    }
    case 'input-set':
      return action.input === state.input ? current : next(current, list, { input: action.input })
    case 'messages-set':
      // The same array again is the same history: a new state, but no save (as before).
      return next(current, list.isArray(action.messages) ? list : MessageList.from(action.messages), {})
    case 'cleared':
      return next(current, MessageList.from([]), { status: 'idle', error: null, usage: zeroUsage() })
  }
}
