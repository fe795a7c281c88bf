import type { ChatMemory } from '../contract/memory.js'
import type { Message } from '../contract/message.js'

/** A `ChatMemory` held in a closure. Copies the array on load and save, so callers cannot alias it. */
export function createInMemoryMemory(initialMessages: Message[] = []): ChatMemory {
  let stored = [...initialMessages]
  return {
    load: () => [...stored],
    save: (messages) => {
      stored = [...messages]
    },
    clear: () => {
      stored = []
    },
  }
}
