import { createChatController } from '../../src/controller/index.js'
import type { AgentEvent, ChatConfig, ChatState, StreamChunk } from '../../src/contract/index.js'
import { scriptedAdapter } from '../../src/testing/index.js'
import { loadModelTurn } from '../../src/controller/model-turn-loader.js'
import { loadToolHandling } from '../../src/controller/tool-loader.js'
import type { ScriptedAdapter, ScriptedStep } from '../../src/testing/index.js'

/** Deterministic id and clock sources: `m1, m2, …` and a clock that ticks 1 s per reading. */
export function fixedSources(): { ids: () => string; clock: () => Date } {
  let id = 0
  let tick = 0
  return { ids: () => `m${++id}`, clock: () => new Date(Date.UTC(2026, 0, 1) + 1000 * tick++) }
}

export function setup(steps: readonly ScriptedStep[], config: Partial<ChatConfig> = {}, options: { branches?: boolean } = {}) {
  const adapter: ScriptedAdapter = scriptedAdapter(steps)
  const events: AgentEvent[] = []
  const controller = createChatController(
    { adapter, observers: [{ name: 'recorder', on: (event) => void events.push(event) }], ...config },
    { ...fixedSources(), ...options },
  )
  return { adapter, controller, events }
}

/** A stream the test drives chunk by chunk; `abort` ends it only when the adapter honours it. */
export interface ManualStream {
  step: ScriptedStep
  push: (...chunks: StreamChunk[]) => Promise<void>
  end: () => Promise<void>
}

/** Lets pending promise callbacks run (a few macrotask turns). */
/**
 * Lets everything pending run: the controller's lazily loaded modules first (a chat's first turn
 * waits for a turn's code, model-turn-loader.ts, and its first tool call for the tool handling,
 * tool-loader.ts; a file run first in a fresh worker failed on the fresh-clone CI when three ticks
 * were shorter than the import), then three macrotask turns.
 */
export const settle = async (): Promise<void> => {
  await Promise.all([loadModelTurn(), loadToolHandling()])
  for (let i = 0; i < 3; i += 1) await new Promise((resolve) => setImmediate(resolve))
}

export function manualStream(): ManualStream {
  const queue: Array<StreamChunk | 'end'> = []
  let wake: (() => void) | undefined
  const step: ScriptedStep = () => (async function* () {
    for (;;) {
      while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve))
      const next = queue.shift() as StreamChunk | 'end'
      if (next === 'end') return
      yield next
    }
  })()
  const feed = async (item: StreamChunk | 'end'): Promise<void> => {
    queue.push(item)
    wake?.()
    await settle()
  }
  return {
    step,
    push: async (...chunks) => {
      for (const chunk of chunks) await feed(chunk)
    },
    end: () => feed('end'),
  }
}

export const contents = (state: ChatState): Array<[string, string, string]> =>
  state.messages.map((message) => [message.role, message.content, message.status])
