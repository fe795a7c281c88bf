import type { StreamChunk } from '../../../src/contract/stream.js'
import { defineChat, patternRoute, type ChatDefinition } from '../../../src/index.js'

// The workflow the many-instance test serves: every answer is a pure function of the user text,
// so each conversation has one expected transcript. Even turns are deterministic (a route), odd
// turns reach the agentic fallback, a scripted agent that echoes in three streamed pieces with a
// little delay between them (so a SIGKILL can land mid-answer). `hold` (never part of the load)
// streams a word every 10 ms until the turn is stopped: the stop-latency case's running turn.

export const TURNS_PER_CONVERSATION = 10

export const userText = (conversationId: string, turn: number): string => (turn % 2 === 0 ? `step ${turn}` : `hello ${conversationId} ${turn}`)
export const answerText = (conversationId: string, turn: number): string => (turn % 2 === 0 ? `ok ${turn}` : `echo: hello ${conversationId} ${turn}`)
export const userId = (conversationId: string, turn: number): string => `${conversationId}.u${turn}`

export const HOLD_TEXT = 'hold'

const echoAgent = {
  createSource: (request: { messages: ReadonlyArray<{ role: string; content: string }> }) => {
    let aborted = false
    const said = request.messages.findLast((m) => m.role === 'user')?.content ?? ''
    return {
      abort: () => {
        aborted = true
      },
      stream: said === HOLD_TEXT ? () => holding(() => aborted) : () => echo(said),
    }
  },
}

async function* holding(aborted: () => boolean): AsyncIterableIterator<StreamChunk> {
  while (!aborted()) {
    yield { type: 'text', content: ' word' }
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

async function* echo(said: string): AsyncIterableIterator<StreamChunk> {
  const text = `echo: ${said}`
  const third = Math.ceil(text.length / 3)
  for (let i = 0; i < text.length; i += third) {
    yield { type: 'text', content: text.slice(i, i + third) }
    await new Promise((resolve) => setTimeout(resolve, 2))
  }
  yield { type: 'done' }
}

export function loadChat(): ChatDefinition {
  return defineChat({
    id: 'load',
    chat: { adapter: echoAgent },
    conversation: {
      initial: 'open',
      context: {},
      states: { open: { on: { step: 'open' } } },
      routes: [patternRoute({ id: 'step', pattern: /^step (?<n>\d+)$/, event: 'step', response: (_input, ctx) => `ok ${ctx.match?.groups.n}` })],
    },
  })
}
