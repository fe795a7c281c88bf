import type { ChatState } from '../contract/chat.js'
import { reduceChat } from './chat-reducer.js'
import type { ChatAction, TurnAppended } from './chat-reducer.js'
import type { ChatSnapshot } from './chat-state.js'

export interface StateStore {
  getState: () => ChatState
  /** The state with its persistent history, for the controller's own O(1) reads. */
  snapshot: () => ChatSnapshot
  subscribe: (listener: () => void) => () => void
  dispatch: (action: ChatAction | TurnAppended) => ChatState
}

/**
 * Holds the one immutable `ChatState`. `dispatch` runs the reducer; when the state object
 * changes it calls `onMessagesChanged(state)` first (when `messages` changed: the memory save is
 * queued before anyone reacts, as upstream) and then every listener, synchronously, once per
 * change. It compares histories by their `MessageList`, never by reading `messages`, so a change
 * costs O(1) whatever the history's length until someone reads the array.
 * A throwing listener cannot stop the others: its error is rethrown on a microtask.
 */
export function createStateStore(initial: ChatSnapshot, onMessagesChanged: (state: ChatState) => void): StateStore {
  let current = initial
  const listeners = new Set<() => void>()

  return {
    getState: () => current.state,
    snapshot: () => current,
    subscribe: (listener) => {
      // Wrap so subscribing the same function twice yields two independent subscriptions.
      const entry = () => listener()
      listeners.add(entry)
      return () => {
        listeners.delete(entry)
      }
    },
    dispatch: (action) => {
      const previous = current
      const next = reduceChat(previous, action)
      if (next === previous) return current.state
      current = next
      if (next.list !== previous.list) onMessagesChanged(next.state)
      for (const listener of [...listeners]) {
        try {
          listener()
        } catch (error) {
          queueMicrotask(() => {
            throw error
          })
        }
      }
      return current.state
    },
  }
}
