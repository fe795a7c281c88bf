import { afterEach, describe, expect, it, vi } from 'vitest'
import type { AdapterFactory, AdapterRequest, Message, StreamChunk } from '../../src/contract/index.js'
import { HISTORY_VIEW, historyOf } from '../../src/contract/history-view.js'
import { createChatController } from '../../src/controller/index.js'
import { LAZY_MESSAGES_FROM } from '../../src/controller/chat-state.js'
import { MessageList } from '../../src/controller/message-list.js'
import { commandRoute, createChatSession, defineChat } from '../../src/index.js'
import { fixedSources } from './harness.js'

// Issue 20's soak: a turn must cost the same at 100,000 turns as at 1,000. The one history-sized
// copy a turn made was the model request's `messages`; from LAZY_MESSAGES_FROM messages on it is
// built only when read, and the session reads the newest messages through the request's history
// view instead.

/** An adapter that keeps every request and answers `reply`; it never reads `messages` itself. */
function keeping(reply = 'ok'): { adapter: AdapterFactory; requests: AdapterRequest[] } {
  const requests: AdapterRequest[] = []
  const adapter: AdapterFactory = {
    createSource: (request) => {
      requests.push(request)
      return {
        stream: async function* (): AsyncGenerator<StreamChunk> {
          yield { type: 'text', content: reply }
          yield { type: 'done' }
        },
        abort: () => undefined,
      }
    },
  }
  return { adapter, requests }
}

const shape = (messages: readonly Message[]): Array<[string, string]> => messages.map((message) => [message.role, message.content])

/** A stored history long enough for lazy requests (LAZY_MESSAGES_FROM), ending in an answer. */
const long = (): Message[] =>
  Array.from({ length: LAZY_MESSAGES_FROM }, (_, index): Message => ({ id: `old${index}`, role: index % 2 ? 'assistant' : 'user', content: `old ${index}`, status: 'complete', createdAt: new Date(0) }))
const tailOf = (messages: readonly Message[], count: number): Array<[string, string]> => shape(messages.slice(-count))

describe('the model request builds its messages array only when read', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('a request read after later turns still holds its own turn\'s history, system prompt first', async () => {
    const { adapter, requests } = keeping()
    const controller = createChatController({ adapter, systemPrompt: 'Be brief.', initialMessages: long() }, fixedSources())
    await controller.send('one')
    await controller.send('two')
    await controller.send('three')
    expect(requests[0]!.messages).toHaveLength(1 + LAZY_MESSAGES_FROM + 2)
    expect(shape(requests[0]!.messages.slice(0, 2))).toEqual([['system', 'Be brief.'], ['user', 'old 0']])
    expect(tailOf(requests[0]!.messages, 2)).toEqual([['user', 'one'], ['assistant', '']])
    expect(tailOf(requests[1]!.messages, 4)).toEqual([['user', 'one'], ['assistant', 'ok'], ['user', 'two'], ['assistant', '']])
    // Read twice, the same array (the adapter's to keep and mutate).
    expect(requests[1]!.messages).toBe(requests[1]!.messages)
  })

  it('the history view shows what the array holds, index by index, and follows an array the adapter sets', async () => {
    const { adapter, requests } = keeping()
    const controller = createChatController({ adapter, systemPrompt: 'Be brief.', initialMessages: long() }, fixedSources())
    await controller.send('one')
    await controller.send('two')
    const request = requests[1]!
    const view = historyOf(request)
    expect(view).not.toBe(request.messages)
    expect(Array.from({ length: view.length }, (_, index) => view.at(index))).toEqual(request.messages)
    request.messages = [request.messages[0]!]
    expect(view.length).toBe(1)
    expect(view.at(0)?.content).toBe('Be brief.')
  })

  it('spreads and JSON carry messages; the view is not enumerable (a copied request falls back to its array)', async () => {
    const { adapter, requests } = keeping()
    const controller = createChatController({ adapter, initialMessages: long() }, fixedSources())
    await controller.send('one')
    const copied = { ...requests[0]! }
    expect(tailOf(copied.messages, 2)).toEqual([['user', 'one'], ['assistant', '']])
    expect(Object.getOwnPropertySymbols(copied)).toEqual([])
    expect(historyOf(copied)).toBe(copied.messages)
    const json = JSON.parse(JSON.stringify(requests[0])) as { messages: Message[] }
    expect(json.messages).toHaveLength(LAZY_MESSAGES_FROM + 2)
    expect(json.messages.at(-2)).toMatchObject({ role: 'user', content: 'one' })
    expect(Object.getOwnPropertyDescriptor(requests[0], HISTORY_VIEW)?.enumerable).toBe(false)
  })

  it('llm:start counts the request\'s messages without building them', async () => {
    const { adapter } = keeping()
    const events: unknown[] = []
    const controller = createChatController({ adapter, systemPrompt: 'Be brief.', initialMessages: long(), observers: [{ name: 'e', on: (event) => void events.push(event) }] }, fixedSources())
    const copy = vi.spyOn(MessageList.prototype, 'copy')
    await controller.send('one')
    expect(events.find((event) => (event as { type: string }).type === 'llm:start')).toEqual({ type: 'llm:start', messageCount: 1 + LAZY_MESSAGES_FROM + 2 })
    expect(copy).not.toHaveBeenCalled()
  })

  /** A session with one command route (a → b) over an adapter that keeps its requests, and a controller with a long history. */
  const routedSession = (options: { recordKey?: string } = {}) => {
    const { adapter, requests } = keeping('agent')
    const definition = defineChat({
      id: 'lazy',
      chat: { adapter },
      conversation: { initial: 'a', states: { a: { on: { go: 'b' } }, b: {} }, routes: [commandRoute({ id: 'go', command: '/go', event: 'go', response: 'Gone.' })] },
    })
    const session = createChatSession(definition, { lint: false, ...options })
    return { session, requests, controller: createChatController({ ...session.chat, initialMessages: long() }, fixedSources()) }
  }

  // With a recordKey the session also verifies the records it has not seen, through the same view.
  it.each([
    ['a session', {}],
    ['a session with a recordKey', { recordKey: 'k'.repeat(32) }],
  ])('%s over an adapter that never reads messages builds no history array, routed turn or not', async (_, options) => {
    const { session, requests, controller } = routedSession(options)
    const copy = vi.spyOn(MessageList.prototype, 'copy')
    await controller.send('hello')
    await controller.send('/go')
    await controller.send('again')
    await controller.send('once more')
    expect(copy).not.toHaveBeenCalled()
    expect(session.getSnapshot().state).toBe('b')
    expect(requests).toHaveLength(3)
    const answers = controller.getState().messages.slice(LAZY_MESSAGES_FROM)
    expect(answers.map((message) => message.content)).toEqual(['hello', 'agent', '/go', 'Gone.', 'again', 'agent', 'once more', 'agent'])
    expect(answers[3]?.metadata?.chatrail).toMatchObject({ routeId: 'go', ...('recordKey' in options ? { sig: expect.any(String) } : {}) })
  })

  it('a short history is copied at once: a plain data property, no view', async () => {
    const { adapter, requests } = keeping()
    const controller = createChatController({ adapter }, fixedSources())
    await controller.send('one')
    const descriptor = Object.getOwnPropertyDescriptor(requests[0], 'messages')
    expect(descriptor && 'value' in descriptor).toBe(true)
    expect(shape(requests[0]!.messages)).toEqual([['user', 'one'], ['assistant', '']])
    expect(historyOf(requests[0]!)).toBe(requests[0]!.messages)
  })

  it('a route callback that reads ctx.history sees the turn\'s history', async () => {
    const seen: string[][] = []
    const definition = defineChat({
      id: 'history',
      chat: {},
      conversation: {
        initial: 'a',
        states: { a: {} },
        fallback: { response: '?' },
        routes: [commandRoute({ id: 'count', command: '/count', response: (_input, ctx) => (seen.push(ctx.history.map((message) => message.content)), `${ctx.history.length}`) })],
      },
    })
    const controller = createChatController(createChatSession(definition, { lint: false }).chat, fixedSources())
    await controller.send('/count')
    await controller.send('/count')
    expect(seen).toEqual([['/count', ''], ['/count', '2', '/count', '']])
  })

  it('the view counts from the end for a negative index, as an array does, and is read only from the request itself', async () => {
    const { adapter, requests } = keeping()
    const controller = createChatController({ adapter, initialMessages: long() }, fixedSources())
    await controller.send('one')
    const request = requests[0]!
    const view = historyOf(request)
    expect(view.at(-1)?.role).toBe('assistant')
    expect(view.at(-2)?.content).toBe('one')
    expect(view.at(-(LAZY_MESSAGES_FROM + 3))).toBeUndefined()
    // A wrapper that redacts history on a derived request: the session reads what the adapter sees.
    const redacted = Object.create(request, { messages: { value: [request.messages.at(-2)], enumerable: true } }) as AdapterRequest
    expect(historyOf(redacted)).toBe(redacted.messages)
  })

  it('route callbacks see history as an own enumerable key: spreads, Object.keys and JSON keep it, short or long', async () => {
    const seen: unknown[] = []
    const definition = defineChat({
      id: 'own-history',
      chat: {},
      conversation: {
        initial: 'a',
        states: { a: {} },
        fallback: { response: '?' },
        routes: [
          commandRoute({
            id: 'look',
            command: '/look',
            response: (_input, ctx) => {
              seen.push([{ ...ctx }.history?.length, Object.keys(ctx).includes('history'), (JSON.parse(JSON.stringify(ctx)) as { history?: unknown[] }).history?.length])
              return 'ok'
            },
          }),
        ],
      },
    })
    const short = createChatController(createChatSession(definition, { lint: false }).chat, fixedSources())
    await short.send('/look')
    const longer = createChatController({ ...createChatSession(definition, { lint: false }).chat, initialMessages: long() }, fixedSources())
    await longer.send('/look')
    expect(seen).toEqual([
      [2, true, 2],
      [LAZY_MESSAGES_FROM + 2, true, LAZY_MESSAGES_FROM + 2],
    ])
  })
})
