import type { ChatState } from '../contract/chat.js'
import type { Message, MessageStatus, ToolCall } from '../contract/message.js'
import type { TokenUsage } from '../contract/stream.js'

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
  /** The turn's assistant message is final: `complete`, chat `idle`, error cleared. */
  | { type: 'turn-settled'; assistantId: string }
  | { type: 'turn-failed'; assistantId: string; error: Error }
  /** `stop()`: streaming messages become `complete`; unfinished tool calls become `error` with `reason`. */
  | { type: 'turn-stopped'; reason: string }
  /** One tool round-trip: the assistant becomes `complete`, tool results and a new streaming assistant follow. */
  | { type: 'tools-continued'; assistantId: string; appended: Message[] }
  | { type: 'usage-added'; usage: TokenUsage }
  | { type: 'input-set'; input: string }
  | { type: 'messages-set'; messages: Message[] }
  | { type: 'cleared' }

export const zeroUsage = (): TokenUsage => ({ promptTokens: 0, completionTokens: 0, totalTokens: 0 })

export function initialChatState(messages: Message[]): ChatState {
  return { messages, status: 'idle', input: '', error: null, usage: zeroUsage() }
}

const unfinishedCall = (call: ToolCall): boolean => call.status === 'pending' || call.status === 'running'

/** Searches from the end: the message being streamed or patched is almost always the last. */
function indexOfMessage(messages: readonly Message[], id: string): number {
  for (let index = messages.length - 1; index >= 0; index -= 1) if ((messages[index] as Message).id === id) return index
  return -1
}

/**
 * `messages` with the message `id` replaced by `update(message)`: a new array when it changed,
 * the same array when the id is unknown or `update` returned the message itself.
 */
function mapMessage(messages: Message[], id: string, update: (message: Message) => Message): Message[] {
  const index = indexOfMessage(messages, id)
  const message = messages[index]
  const updated = message && update(message)
  if (!updated || updated === message) return messages
  const next = messages.slice()
  next[index] = updated
  return next
}

/** The state with `messages`, or the same state when they are the same array (no notify, no save). */
const withMessages = (state: ChatState, messages: Message[]): ChatState =>
  messages === state.messages ? state : { ...state, messages }

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

/** Clamps a usage figure: non-finite or negative counts add nothing. */
export const countable = (value: number): number => (Number.isFinite(value) && value > 0 ? value : 0)

const usageKeys = ['promptTokens', 'completionTokens', 'totalTokens'] as const

/**
 * Pure: returns the next state, or the same object when the action changes nothing (so the
 * store neither notifies nor saves). Never mutates `state` or anything inside it.
 */
export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case 'turn-begun':
      return { ...state, messages: action.messages, status: 'streaming', error: null, input: action.clearInput ? '' : state.input }
    case 'message-patched':
      return withMessages(
        state,
        mapMessage(state.messages, action.id, (message) => ({
          ...message,
          ...action.patch,
          ...(action.metadata ? { metadata: { ...message.metadata, ...action.metadata } } : {}),
        })),
      )
    case 'tool-call-added':
      return withMessages(
        state,
        mapMessage(state.messages, action.messageId, (message) => ({ ...message, toolCalls: [...(message.toolCalls ?? []), action.call] })),
      )
    case 'tool-call-patched':
      return withMessages(
        state,
        mapMessage(state.messages, action.messageId, (message) =>
          message.toolCalls?.some((call) => call.id === action.callId)
            ? { ...message, toolCalls: message.toolCalls.map((call) => (call.id === action.callId ? { ...call, ...action.patch } : call)) }
            : message,
        ),
      )
    case 'turn-settled':
      return { ...state, messages: mapMessage(state.messages, action.assistantId, completed), status: 'idle', error: null }
    case 'turn-failed': {
      const reason = `Turn failed: ${action.error.message}`
      const messages = mapMessage(state.messages, action.assistantId, (message) => closeMessage(message, 'error', reason))
      return { ...state, messages, status: 'error', error: action.error }
    }
    case 'turn-stopped': {
      const touched = state.messages.some(isOpen)
      if (!touched && state.status !== 'streaming') return state
      const messages = touched
        ? state.messages.map((message) =>
            isOpen(message) ? closeMessage(message, message.status === 'streaming' ? 'complete' : message.status, action.reason) : message,
          )
        : state.messages
      return { ...state, messages, status: state.status === 'streaming' ? 'idle' : state.status }
    }
    case 'tools-continued':
      return {
        ...state,
        messages: [...mapMessage(state.messages, action.assistantId, completed), ...action.appended],
        status: 'streaming',
      }
    case 'usage-added': {
      const usage = { ...state.usage }
      for (const key of usageKeys) usage[key] += countable(action.usage[key])
      return { ...state, usage }
    }
    case 'input-set':
      return action.input === state.input ? state : { ...state, input: action.input }
    case 'messages-set':
      return { ...state, messages: action.messages }
    case 'cleared':
      return { ...state, messages: [], status: 'idle', error: null, usage: zeroUsage() }
  }
}
