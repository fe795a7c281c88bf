import type { ChatState } from '../contract/chat.js'
import type { Message } from '../contract/message.js'
import { chatReducer } from './chat-reducer.js'
import type { ChatAction } from './chat-reducer.js'

export interface StateStore {
  getState: () => ChatState
  subscribe: (listener: () => void) => () => void
  dispatch: (action: ChatAction) => ChatState
}

/**
 * Holds the one immutable `ChatState`. `dispatch` runs the reducer; when the state object
 * changes it calls `onMessagesChanged` first (when `messages` changed: the memory save is queued
 * before anyone reacts, as upstream) and then every listener, synchronously, once per change.
 * A throwing listener cannot stop the others: its error is rethrown on a microtask.
 */
export function createStateStore(initial: ChatState, onMessagesChanged: (messages: Message[]) => void): StateStore {
  let state = initial
  const listeners = new Set<() => void>()

  return {
    getState: () => state,
    subscribe: (listener) => {
      // Wrap so subscribing the same function twice yields two independent subscriptions.
      const entry = () => listener()
      listeners.add(entry)
      return () => {
        listeners.delete(entry)
      }
    },
    dispatch: (action) => {
      const previous = state
      const next = chatReducer(previous, action)
      if (next === previous) return state
      state = next
      if (next.messages !== previous.messages) onMessagesChanged(next.messages)
      for (const listener of [...listeners]) {
        try {
          listener()
        } catch (error) {
          queueMicrotask(() => {
            throw error
          })
        }
      }
      return state
    },
  }
}
