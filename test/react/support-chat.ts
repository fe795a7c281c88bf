import type { AdapterFactory } from '../../src/contract/adapter.js'
import type { StreamChunk } from '../../src/contract/stream.js'
import { commandRoute, defineChat, eventRoute } from '../../src/conversation/index.js'
import type { ChatDefinition } from '../../src/conversation/index.js'

/** A small support workflow for the hook and component tests, plus counting adapters. */

export function supportChat(adapter: AdapterFactory, overrides: { id?: string; revision?: number } = {}): ChatDefinition {
  return defineChat({
    id: overrides.id ?? 'support',
    revision: overrides.revision ?? 1,
    chat: { adapter },
    conversation: {
      initial: 'welcome',
      states: {
        welcome: { on: { START: 'triage' } },
        triage: { on: { ESCALATE: 'human', RESOLVE: 'done' } },
        human: { on: { RESOLVE: 'done' } },
        done: { final: true },
      },
      routes: [
        commandRoute({ id: 'start', command: '/start', event: 'START', response: 'How can I help? Describe the problem.' }),
        eventRoute({ id: 'escalate', uiEvent: 'ESCALATE', event: 'ESCALATE', response: 'Connecting you to a person.' }),
        eventRoute({ id: 'resolve', uiEvent: 'RESOLVE', event: 'RESOLVE', response: 'Glad it is solved.' }),
      ],
    },
  })
}

export interface CountingAdapter extends AdapterFactory {
  calls: () => number
  aborts: () => number
}

/** Answers every request with `reply` (streamed word by word, `delayMs` apart); counts calls and aborts. */
export function countingAdapter(reply = 'agent reply', delayMs = 0): CountingAdapter {
  let calls = 0
  let aborts = 0
  return {
    calls: () => calls,
    aborts: () => aborts,
    createSource: () => {
      calls += 1
      let aborted = false
      return {
        abort: () => { aborted = true; aborts += 1 },
        stream: async function* (): AsyncIterableIterator<StreamChunk> {
          for (const word of reply.split(/(?<= )/)) {
            if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs))
            if (aborted) return
            yield { type: 'text', content: word }
          }
          yield { type: 'done' }
        },
      }
    },
  }
}
