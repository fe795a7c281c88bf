import type { ChatState } from '../contract/chat.js'
import type { Message, ToolCall } from '../contract/message.js'
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

function mapMessage(messages: Message[], id: string, update: (message: Message) => Message): Message[] {
  const index = indexOfMessage(messages, id)
  if (index < 0) return messages
  const next = messages.slice()
  next[index] = update(messages[index] as Message)
  return next
}

function mapToolCall(messages: Message[], messageId: string, callId: string, update: (call: ToolCall) => ToolCall): Message[] {
  const message = messages[indexOfMessage(messages, messageId)]
  if (!message?.toolCalls?.some((call) => call.id === callId)) return messages
  return mapMessage(messages, messageId, (found) => ({
    ...found,
    toolCalls: (found.toolCalls ?? []).map((call) => (call.id === callId ? update(call) : call)),
  }))
}

/** Clamps a usage figure: non-finite or negative counts add nothing. */
const countable = (value: number): number => (Number.isFinite(value) && value > 0 ? value : 0)

/**
 * Pure: returns the next state, or the same object when the action changes nothing (so the
 * store neither notifies nor saves). Never mutates `state` or anything inside it.
 */
export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case 'turn-begun':
      return { ...state, messages: action.messages, status: 'streaming', error: null, input: action.clearInput ? '' : state.input }
    case 'message-patched': {
      const messages = mapMessage(state.messages, action.id, (message) => ({
        ...message,
        ...action.patch,
        ...(action.metadata ? { metadata: { ...message.metadata, ...action.metadata } } : {}),
      }))
      return messages === state.messages ? state : { ...state, messages }
    }
    case 'tool-call-added': {
      const messages = mapMessage(state.messages, action.messageId, (message) => ({
        ...message,
        toolCalls: [...(message.toolCalls ?? []), action.call],
      }))
      return messages === state.messages ? state : { ...state, messages }
    }
    case 'tool-call-patched': {
      const messages = mapToolCall(state.messages, action.messageId, action.callId, (call) => ({ ...call, ...action.patch }))
      return messages === state.messages ? state : { ...state, messages }
    }
    case 'turn-settled': {
      const messages = mapMessage(state.messages, action.assistantId, (message) => ({ ...message, status: 'complete' }))
      return { ...state, messages, status: 'idle', error: null }
    }
    case 'turn-failed': {
      const messages = mapMessage(state.messages, action.assistantId, (message) => {
        const failed: Message = { ...message, status: 'error' }
        if (message.toolCalls?.some(unfinishedCall)) {
          failed.toolCalls = message.toolCalls.map((call) =>
            unfinishedCall(call) ? { ...call, status: 'error', error: `Turn failed: ${action.error.message}` } : call,
          )
        }
        return failed
      })
      return { ...state, messages, status: 'error', error: action.error }
    }
    case 'turn-stopped': {
      const touched = state.messages.some(
        (message) => message.status === 'streaming' || message.toolCalls?.some(unfinishedCall),
      )
      if (!touched && state.status !== 'streaming') return state
      const messages = touched
        ? state.messages.map((message) => {
            if (message.status !== 'streaming' && !message.toolCalls?.some(unfinishedCall)) return message
            const settled: Message = { ...message, status: message.status === 'streaming' ? 'complete' : message.status }
            if (message.toolCalls?.some(unfinishedCall)) {
              settled.toolCalls = message.toolCalls.map((call) =>
                unfinishedCall(call) ? { ...call, status: 'error', error: action.reason } : call,
              )
            }
            return settled
          })
        : state.messages
      return { ...state, messages, status: state.status === 'streaming' ? 'idle' : state.status }
    }
    case 'tools-continued': {
      const settled = mapMessage(state.messages, action.assistantId, (message) => ({ ...message, status: 'complete' }))
      return { ...state, messages: [...settled, ...action.appended], status: 'streaming' }
    }
    case 'usage-added': {
      const usage = {
        promptTokens: state.usage.promptTokens + countable(action.usage.promptTokens),
        completionTokens: state.usage.completionTokens + countable(action.usage.completionTokens),
        totalTokens: state.usage.totalTokens + countable(action.usage.totalTokens),
      }
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
