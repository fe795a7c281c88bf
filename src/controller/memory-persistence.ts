import type { ChatMemory } from '../contract/memory.js'
import type { Message } from '../contract/message.js'

export interface MemoryPersistence {
  /**
   * Queues a save of `messages()`; a queued but unstarted save is replaced (latest wins). The
   * history is read when the save starts, so a coalesced save never builds its array.
   */
  save: (memory: ChatMemory | undefined, messages: () => Message[]) => void
  /** Queues `memory.clear()` after every save queued so far. */
  clear: (memory: ChatMemory | undefined) => Promise<void>
}

type Operation = { kind: 'save'; memory: ChatMemory; messages: () => Message[] } | { kind: 'clear'; memory: ChatMemory; done: () => void }

/**
 * Serialized, coalesced persistence. Operations never overlap and run in order; consecutive
 * saves collapse to the newest snapshot. The first save starts synchronously (inside the
 * dispatch that caused it), as upstream. Memory failures are swallowed (§2.11).
 */
export function createMemoryPersistence(onSaved: (messageCount: number) => void): MemoryPersistence {
  const queue: Operation[] = []
  let running = false

  const runOne = async (operation: Operation): Promise<void> => {
    try {
      if (operation.kind === 'save') {
        const messages = operation.messages()
        await operation.memory.save(messages)
        onSaved(messages.length)
      } else {
        await operation.memory.clear?.()
      }
    } catch {
      // swallowed: a failing store must not break the chat
    } finally {
      if (operation.kind === 'clear') operation.done()
    }
  }

  /** Runs queued operations one at a time; the first starts synchronously, inside the caller. */
  const drain = async (): Promise<void> => {
    if (running) return
    running = true
    for (let operation = queue.shift(); operation; operation = queue.shift()) await runOne(operation)
    running = false
  }

  return {
    save: (memory, messages) => {
      if (!memory) return
      const last = queue[queue.length - 1]
      if (last?.kind === 'save' && last.memory === memory) last.messages = messages
      else queue.push({ kind: 'save', memory, messages })
      void drain()
    },
    clear: (memory) => {
      if (!memory?.clear) return Promise.resolve()
      return new Promise<void>((resolve) => {
        queue.push({ kind: 'clear', memory, done: resolve })
        void drain()
      })
    },
  }
}
