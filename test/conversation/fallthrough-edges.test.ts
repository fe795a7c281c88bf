import { describe, expect, it, vi } from 'vitest'
import type { AdapterFactory, Message, StreamChunk } from '../../src/contract/index.js'
import { commandRoute, createChatSession, defineChat } from '../../src/index.js'
import { turn, user } from './helpers.js'

// The agentic fallthrough's fast paths (issue 20) must take what the slower paths took: history
// from outside with no string content, and an adapter iterator that returns plain results.

describe('the agentic fallthrough at its edges', () => {
  it('a user message without string content still reaches the fallback (the shortcut reads it as the route context does)', async () => {
    const definition = defineChat({ id: 'no-content', chat: {}, conversation: { initial: 'a', states: { a: {} }, fallback: { response: '?' }, routes: [commandRoute({ id: 'c', command: '/c', response: 'ok' })] } })
    const session = createChatSession(definition, { lint: false })
    const message = { id: 'z1', role: 'user', status: 'complete', createdAt: new Date(0) } as unknown as Message
    const chunks = await turn(session.chat.adapter, [message])
    expect(chunks.map((chunk) => chunk.type)).toEqual(['text', 'done'])
    expect(session.traces().at(-1)).toMatchObject({ kind: 'fallback', outcome: 'ok' })
  })

  it('an adapter iterator whose next() returns plain results passes through a session, as it did under await', async () => {
    const adapter: AdapterFactory = {
      createSource: () => ({
        stream: () => {
          const chunks: StreamChunk[] = [{ type: 'text', content: 'hi' }, { type: 'done' }]
          let index = 0
          const iterator = {
            next: () => (index < chunks.length ? { value: chunks[index++], done: false } : { value: undefined, done: true }),
            [Symbol.asyncIterator]: () => iterator,
          }
          return iterator as unknown as AsyncIterableIterator<StreamChunk>
        },
        abort: () => undefined,
      }),
    }
    const session = createChatSession(defineChat({ id: 'plain-results', chat: { adapter }, conversation: { initial: 'a', states: { a: {} }, routes: [commandRoute({ id: 'c', command: '/c', response: 'ok' })] } }), { lint: false })
    const chunks = await turn(session.chat.adapter, [user('hello', 'p1')])
    expect(chunks.map((chunk) => chunk.type)).toEqual(['text', 'done'])
    expect(session.traces().at(-1)).toMatchObject({ kind: 'agentic', outcome: 'ok' })
  })

  it('a trace is built only when something reads it: a turn with an observer freezes one object more than a turn without', async () => {
    const definition = defineChat({ id: 'lazy-trace', chat: {}, conversation: { initial: 'a', states: { a: {} }, fallback: { response: '?' }, routes: [] } })
    const freezesOf = async (onTrace?: () => void): Promise<number> => {
      const session = createChatSession(definition, { lint: false, sessionId: 'lazy', onTrace })
      await turn(session.chat.adapter, [user('warm', 'w1')])
      const freeze = vi.spyOn(Object, 'freeze')
      try {
        await turn(session.chat.adapter, [user('warm', 'w1'), { id: 'w2', role: 'assistant', content: '?', status: 'complete', createdAt: new Date(0) }, user('count', 'w3')])
        return freeze.mock.calls.length
      } finally {
        freeze.mockRestore()
      }
    }
    const without = await freezesOf()
    const withObserver = await freezesOf(() => undefined)
    expect(withObserver - without).toBe(1)
  })
})
