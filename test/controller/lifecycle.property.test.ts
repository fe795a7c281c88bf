import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { createChatController } from '../../src/controller/index.js'
import type { AdapterFactory, ChatState, Message, StreamChunk } from '../../src/contract/index.js'
import { LAZY_MESSAGES_FROM } from '../../src/controller/chat-state.js'
import { loadModelTurn } from '../../src/controller/model-turn-loader.js'
import { loadToolHandling } from '../../src/controller/tool-loader.js'
import { scriptedAdapter } from '../../src/testing/index.js'
import { fixedSources } from './harness.js'

type Command =
  | { kind: 'send'; text: string }
  | { kind: 'retry' }
  | { kind: 'regenerate'; pick: number | null }
  | { kind: 'edit'; pick: number; text: string; regenerate: boolean }
  | { kind: 'stop' }
  | { kind: 'clear' }
  | { kind: 'advance'; steps: number }

const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('send' as const), text: fc.constantFrom('hi', 'add', ' ', 'again') }) },
  fc.record({ kind: fc.constant('retry' as const) }),
  fc.record({ kind: fc.constant('regenerate' as const), pick: fc.option(fc.nat(12)) }),
  fc.record({ kind: fc.constant('edit' as const), pick: fc.nat(12), text: fc.constantFrom('edited', 'x'), regenerate: fc.boolean() }),
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('stop' as const) }) },
  fc.record({ kind: fc.constant('clear' as const) }),
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('advance' as const), steps: fc.integer({ min: 1, max: 6 }) }) },
)

const chunk: fc.Arbitrary<StreamChunk> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('a', 'b', 'c').map((content): StreamChunk => ({ type: 'text', content })) },
  fc.constant<StreamChunk>({ type: 'reasoning', content: 'r' }),
  fc.nat(3).map((n): StreamChunk => ({ type: 'tool_call', toolCall: { id: `tool-${n}`, name: 'echo', args: '{}' } })),
  fc.constant<StreamChunk>({ type: 'usage', usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 } }),
)
const reply: fc.Arbitrary<StreamChunk[]> = fc
  .tuple(fc.array(chunk, { maxLength: 4 }), fc.constantFrom<StreamChunk[]>([{ type: 'done' }], [{ type: 'error', content: 'boom' }], []))
  .map(([body, end]) => [...body, ...end])

// Half the runs start from a history long enough for lazily built, structurally shared states
// (issue 20), so every command also runs over the shared buffer, its flushes and rewinds.
const longHistory: Message[] = Array.from({ length: LAZY_MESSAGES_FROM + 40 }, (_, index) => ({
  id: `past-${index}`,
  role: index % 2 ? 'assistant' : 'user',
  content: `past ${index}`,
  status: 'complete',
  createdAt: new Date(0),
}))

function expectSettled(state: ChatState): void {
  expect(state.status).not.toBe('streaming')
  expect(state.messages.filter((message) => message.status === 'streaming')).toEqual([])
  const unfinished = state.messages.flatMap((message) => message.toolCalls ?? []).filter((call) => call.status === 'pending' || call.status === 'running')
  expect(unfinished).toEqual([])
}

function expectUniqueIds(state: ChatState): void {
  const ids = state.messages.map((message) => message.id)
  expect(new Set(ids).size).toBe(ids.length)
}

describe('lifecycle properties (fast-check, scheduled interleavings)', () => {
  // A controller loads a turn's code on its first turn (src/controller/model-turn-loader.ts) and its
  // tool handling on the first tool call (src/controller/tool-loader.ts): real module imports, which
  // the scheduler does not control. Loaded once before the runs, so every interleaving below is the
  // scheduler's (the first run would otherwise wait on the imports).
  beforeAll(() => Promise.all([loadModelTurn(), loadToolHandling()]))

  it('never ends streaming, never duplicates ids, and nothing changes state after stop()', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.array(command, { minLength: 1, maxLength: 25 }), fc.array(reply, { minLength: 1, maxLength: 8 }), fc.boolean(), fc.boolean(), async (s, commands, replies, honoursAbort, long) => {
        const play = (call: number): AsyncGenerator<StreamChunk> => (async function* () {
          for (const next of replies[call % replies.length] ?? []) {
            await s.schedule(Promise.resolve(), `chunk of call ${call}`)
            yield next
          }
        })()
        // Half the runs use an adapter that ignores abort(), so only the controller's own
        // generation check can keep late chunks out.
        let calls = 0
        const adapter: AdapterFactory = honoursAbort
          ? scriptedAdapter([(_request, call) => play(call)])
          : { createSource: () => { const call = calls++; return { stream: () => play(call), abort: () => undefined } } }
        const controller = createChatController(
          { adapter, maxToolIterations: 2, tools: [{ name: 'echo', execute: () => s.schedule(Promise.resolve('echoed'), 'tool') }], ...(long ? { initialMessages: longHistory } : {}) },
          fixedSources(),
        )
        // Every other published state is read at once and fingerprinted, the rest only at the end:
        // no later change may alter a published history, whether it was read early or late.
        const published: Array<{ state: ChatState; read: string | undefined }> = []
        controller.subscribe(() => {
          const state = controller.getState()
          published.push({ state, read: published.length % 2 ? undefined : JSON.stringify(state.messages) })
        })
        const running: Array<Promise<void>> = []
        const idAt = (pick: number): string | undefined => {
          const messages = controller.getState().messages
          return messages.length === 0 ? undefined : messages[pick % messages.length]?.id
        }
        for (const step of commands) {
          switch (step.kind) {
            case 'send':
              running.push(controller.send(step.text))
              break
            case 'retry':
              running.push(controller.retry())
              break
            case 'regenerate':
              running.push(controller.regenerate(step.pick === null ? undefined : idAt(step.pick)))
              break
            case 'edit': {
              const id = idAt(step.pick)
              if (id) running.push(controller.edit(id, step.text, { regenerate: step.regenerate }))
              break
            }
            case 'stop': {
              controller.stop()
              const stopped = controller.getState()
              expectSettled(stopped)
              await s.waitIdle() // every late chunk and tool result of the stopped turns is delivered now
              expect(controller.getState()).toBe(stopped)
              break
            }
            case 'clear':
              running.push(controller.clear())
              break
            case 'advance':
              // Let the controller's own microtasks run first, so turns reach their streams.
              for (let i = 0; i < step.steps; i += 1) {
                await new Promise((resolve) => setImmediate(resolve))
                if (s.count() === 0) break
                await s.waitNext(1)
              }
              break
          }
          expectUniqueIds(controller.getState())
        }
        await s.waitIdle()
        await Promise.all(running)
        const final = controller.getState()
        expectSettled(final)
        expectUniqueIds(final)
        for (const { state, read } of published) {
          expectUniqueIds(state)
          if (read !== undefined) expect(JSON.stringify(state.messages)).toBe(read)
        }
      }),
      { numRuns: 150 },
    )
  })
})
