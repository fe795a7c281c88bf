import { describe, expect, it } from 'vitest'
import type { AdapterFactory, StreamChunk } from '../../src/contract/index.js'
import { createChatController } from '../../src/controller/index.js'
import { fixedSources, settle } from './harness.js'

// A `done` chunk's `metadata.chatrail` (the session's decision record) lands on the assistant
// message in the same state change that completes it (issue 20: the separate patch was a sixth of
// a deterministic turn), and a turn stopped between its `done` and its settling still keeps it.

const RECORD = { v: 1, messageId: 'm1', input: '00000000', kind: 'deterministic', fromState: 'a', toState: 'b', turnId: 't1' }

const answering = (chunks: StreamChunk[]): AdapterFactory => ({
  createSource: () => ({
    stream: async function* () {
      yield* chunks
    },
    abort: () => undefined,
  }),
})

/** Answers "one" with the record on its first turn, then "two" without one. */
function recordThenPlain(): AdapterFactory {
  let turn = 0
  return {
    createSource: () => {
      turn += 1
      const chunks: StreamChunk[] = turn === 1 ? [{ type: 'text', content: 'one' }, { type: 'done', metadata: { chatrail: RECORD } }] : [{ type: 'text', content: 'two' }, { type: 'done' }]
      return answering(chunks).createSource({ messages: [] })
    },
  }
}

describe('the done record is merged into the completing change', () => {
  it('a turn is three state changes (appended, text, settled) and its answer carries the record', async () => {
    const controller = createChatController({ adapter: answering([{ type: 'text', content: 'Hi.' }, { type: 'done', metadata: { chatrail: RECORD } }]) }, fixedSources())
    const seen: Array<{ status: string; content: string | undefined; record: unknown }> = []
    controller.subscribe(() => {
      const state = controller.getState()
      const last = state.messages.at(-1)
      seen.push({ status: state.status, content: last?.content, record: last?.metadata?.chatrail })
    })
    await controller.send('hello')
    expect(seen).toEqual([
      { status: 'streaming', content: '', record: undefined },
      { status: 'streaming', content: 'Hi.', record: undefined },
      { status: 'idle', content: 'Hi.', record: RECORD },
    ])
    expect(controller.getState().messages[1]).toMatchObject({ status: 'complete', metadata: { chatrail: RECORD } })
  })

  it('a stop between done and settling keeps the record on the stopped answer', async () => {
    const stop = { at: (): void => undefined }
    const controller = createChatController(
      {
        adapter: answering([{ type: 'text', content: 'Hi.' }, { type: 'done', metadata: { chatrail: RECORD } }]),
        // llm:end is emitted after the stream ended and before the tool loop settles the turn.
        observers: [{ name: 'stopper', on: (event) => void (event.type === 'llm:end' && stop.at()) }],
      },
      fixedSources(),
    )
    stop.at = () => controller.stop()
    await controller.send('hello')
    expect(controller.getState().status).toBe('idle')
    expect(controller.getState().messages[1]).toMatchObject({ content: 'Hi.', status: 'complete', metadata: { chatrail: RECORD } })
  })

  it('a record is merged once: the next turn is three changes and leaves the first answer as it was', async () => {
    const adapter = recordThenPlain()
    const controller = createChatController({ adapter }, fixedSources())
    await controller.send('first')
    const firstAnswer = controller.getState().messages[1]
    let changes = 0
    controller.subscribe(() => void (changes += 1))
    await controller.send('second')
    const [, first, , second] = controller.getState().messages
    expect(changes).toBe(3)
    expect(first).toBe(firstAnswer)
    expect(first?.metadata?.chatrail).toEqual(RECORD)
    expect(second?.metadata?.chatrail).toBeUndefined()
  })

  it('a send from a subscriber that sees the stopped answer\'s record is not cut off by that stop', async () => {
    const adapter = recordThenPlain()
    const stop = { once: true }
    const controller = createChatController(
      { adapter, observers: [{ name: 'stopper', on: (event) => void (event.type === 'llm:end' && stop.once && ((stop.once = false), controller.stop())) }] },
      fixedSources(),
    )
    let sent = false
    controller.subscribe(() => {
      if (!sent && controller.getState().messages.at(-1)?.metadata?.chatrail) {
        sent = true
        void controller.send('next')
      }
    })
    await controller.send('first')
    await settle()
    expect(controller.getState().messages.map((message) => `${message.role}:${message.content}`)).toEqual(['user:first', 'assistant:one', 'user:next', 'assistant:two'])
    expect(controller.getState().messages[1]?.metadata?.chatrail).toEqual(RECORD)
  })
})
