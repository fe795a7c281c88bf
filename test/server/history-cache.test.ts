import { describe, expect, it } from 'vitest'
import type { Message } from '../../src/contract/message.js'
import { commandRoute, defineChat, type ChatDefinition } from '../../src/index.js'
import { createChatHandler, type ChatHandler } from '../../src/server/index.js'
import { createHistoryCache } from '../../src/server/history-cache.js'
import { memoryStore, type ConversationStore, type StoredConversation } from '../../src/store/index.js'
import { countingAgent, deliveryDefinition, type Ctx } from './support/harness.js'

// A handler keeps what it derived from a stored history (the history re-derived under its revision,
// the state it leads to) and reuses it only for that very history: the store is shared with other
// instances, so anything another instance wrote since must show, and the cache stays bounded.

const at = new Date(0)
const message = (id: string, content: string, extra: Partial<Message> = {}): Message => ({ id, role: 'user', content, status: 'complete', createdAt: at, ...extra })
const stored = (conversationId: string, version: number, messages: Message[], revision = 1): StoredConversation => ({ conversationId, version, messages, definition: { id: 'd', revision }, createdAt: at, updatedAt: at })

describe('createHistoryCache', () => {
  it('keeps at most `capacity` conversations, dropping the least recently used first', () => {
    const cache = createHistoryCache<string>(2, 1000)
    const a = stored('a', 1, [message('u1', 'hi')])
    const b = stored('b', 1, [message('u1', 'hi')])
    cache.set(a, 'A')
    cache.set(b, 'B')
    expect(cache.get(a)).toBe('A') // a is now the most recently used
    cache.set(stored('c', 1, []), 'C')
    expect(cache.size).toBe(2)
    expect(cache.get(b)).toBeUndefined()
    expect(cache.get(a)).toBe('A')
    for (let i = 0; i < 50; i++) cache.set(stored(`x${i}`, 1, []), 'X')
    expect(cache.size).toBe(2)
  })

  it('keeps at most `maxMessages` stored messages in all, and never a history longer than that', () => {
    const cache = createHistoryCache<string>(100, 10)
    const history = (length: number): Message[] => Array.from({ length }, (_, i) => message(`u${i}`, 'hi'))
    const a = stored('a', 1, history(4))
    const b = stored('b', 1, history(4))
    cache.set(a, 'A')
    cache.set(b, 'B')
    expect(cache.messageCount).toBe(8)
    cache.set(stored('c', 1, history(4)), 'C') // 12 > 10: the least recently used (a) goes
    expect([cache.size, cache.messageCount, cache.get(a), cache.get(b)]).toEqual([2, 8, undefined, 'B'])
    cache.set(stored('b', 2, history(5)), 'B2') // replacing an entry counts its new history only
    expect([cache.size, cache.messageCount]).toEqual([2, 9])
    const long = stored('long', 1, history(11))
    cache.set(long, 'L')
    expect([cache.get(long), cache.size, cache.messageCount]).toEqual([undefined, 2, 9])
  })

  it('answers only for the same version, revision and messages (equal copies hit; any changed field misses)', () => {
    const cache = createHistoryCache<string>(8, 1000)
    const record = { chatrail: { kind: 'deterministic', routeId: 'start', toState: 'asking' } }
    const history = (): Message[] => [message('u1', '/start'), message('a1', 'Which day?', { role: 'assistant', metadata: structuredClone(record) })]
    cache.set(stored('c1', 2, history()), 'derived')
    expect(cache.get(stored('c1', 2, history()))).toBe('derived') // a fresh load: other objects, same history
    expect(cache.get(stored('c1', 3, history()))).toBeUndefined()
    expect(cache.get(stored('c1', 2, history(), 2))).toBeUndefined()
    expect(cache.get(stored('c2', 2, history()))).toBeUndefined()
    const changed: Array<(messages: Message[]) => void> = [
      (m) => void (m[1] = { ...m[1]!, content: 'Which week?' }),
      (m) => void (m[1] = { ...m[1]!, createdAt: new Date(1) }),
      (m) => void (m[1] = { ...m[1]!, metadata: { chatrail: { ...record.chatrail, toState: 'booked' } } }),
      (m) => void (m[1] = { ...m[1]!, metadata: { chatrail: { ...record.chatrail, extra: 1 } } }),
      (m) => void (m[1] = { ...m[1]!, status: 'error' }),
      (m) => void m.pop(),
      (m) => void m.push(message('u2', 'more')),
    ]
    for (const change of changed) {
      const messages = history()
      change(messages)
      expect(cache.get(stored('c1', 2, messages))).toBeUndefined()
    }
  })
})

/** One request straight into the handler (no socket): POST a user message, or GET the conversation. */
async function post(handler: ChatHandler, conversationId: string, id: string, text: string): Promise<string> {
  const response = await handler(new Request('http://localhost/api/chat', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id: conversationId, messages: [{ id, role: 'user', parts: [{ type: 'text', text }] }], trigger: 'submit-message' }),
  }))
  expect(response.status).toBe(200)
  return response.text()
}
async function get(handler: ChatHandler, conversationId: string): Promise<{ messages: Array<{ parts: Array<{ text: string }> }>; chatrail: { state: string } }> {
  const response = await handler(new Request(`http://localhost/api/chat?id=${conversationId}`))
  expect(response.status).toBe(200)
  return (await response.json()) as { messages: Array<{ parts: Array<{ text: string }> }>; chatrail: { state: string } }
}
const texts = (got: Awaited<ReturnType<typeof get>>): string[] => got.messages.map((m) => m.parts[0]?.text ?? '')

/** Revision 2 of the delivery chat, whose `/start` answer counts how often a route ran (re-derivation runs routes again). */
function countingRevision2(agent: ReturnType<typeof countingAgent>): { definition: ChatDefinition<Ctx>; runs: () => number } {
  let runs = 0
  const base = deliveryDefinition(agent).conversation
  const definition = defineChat<Ctx>({
    id: 'delivery',
    revision: 2,
    chat: { adapter: agent.adapter },
    conversation: {
      ...base,
      routes: [commandRoute({ id: 'start', command: '/start', event: 'start', response: () => (runs++, 'Which day?') }), ...base.routes.filter((route) => route.id !== 'start')],
    },
  })
  return { definition, runs: () => runs }
}

describe('createChatHandler: what one instance caches never hides what another wrote', () => {
  it('a GET after another instance (same store) appended a turn returns the new state and messages', async () => {
    const store = memoryStore()
    const agent = countingAgent()
    const a = createChatHandler({ definition: deliveryDefinition(agent), store, authenticate: 'none' })
    const b = createChatHandler({ definition: deliveryDefinition(agent), store, authenticate: 'none' })
    await post(a, 'c1', 'u1', '/start')
    expect((await get(a, 'c1')).chatrail.state).toBe('asking')
    expect((await get(a, 'c1')).chatrail.state).toBe('asking') // served from what the first GET derived
    await post(b, 'c1', 'u2', 'deliver on 2030-05-01')
    const after = await get(a, 'c1')
    expect(after.chatrail.state).toBe('booked')
    expect(texts(after)).toEqual(['/start', 'Which day?', 'deliver on 2030-05-01', 'Booked for 2030-05-01.'])
  })

  it('a conversation deleted and written again by another instance, at the same version and clock, is read anew', async () => {
    // a fixed clock and the same id sequence on both instances: only the messages' content tells the two histories apart
    const store = memoryStore({ clock: () => 0 })
    const agent = countingAgent('Hello there.')
    const sequence = (): (() => string) => {
      let n = 0
      return () => `t${++n}`
    }
    const a = createChatHandler({ definition: deliveryDefinition(agent), store, authenticate: 'none', ids: sequence(), clock: () => 0 })
    const b = createChatHandler({ definition: deliveryDefinition(agent), store, authenticate: 'none', ids: sequence(), clock: () => 0 })
    await post(a, 'c1', 'u1', '/start')
    expect((await get(a, 'c1')).chatrail.state).toBe('asking')
    const first = await store.load('c1')
    expect((await b(new Request('http://localhost/api/chat?id=c1', { method: 'DELETE' }))).status).toBe(200)
    await post(b, 'c1', 'u1', 'hello')
    const second = await store.load('c1')
    expect([second?.version, second?.updatedAt.getTime(), second?.messages.map((m) => m.id)]).toEqual([first?.version, first?.updatedAt.getTime(), first?.messages.map((m) => m.id)])
    const after = await get(a, 'c1')
    expect(after.chatrail.state).toBe('idle')
    expect(texts(after)).toEqual(['hello', 'Hello there.'])
  })

  it('re-derives a conversation stored under an older revision once per stored history: repeated GETs and the next turn reuse it', async () => {
    const store: ConversationStore = memoryStore()
    const agent = countingAgent()
    await post(createChatHandler({ definition: deliveryDefinition(agent), store, authenticate: 'none' }), 'c1', 'u1', '/start')
    const { definition, runs } = countingRevision2(agent)
    const handler = createChatHandler({ definition, store, authenticate: 'none' })
    expect((await get(handler, 'c1')).chatrail.state).toBe('asking')
    expect(runs()).toBe(1)
    expect((await get(handler, 'c1')).chatrail.state).toBe('asking')
    expect(runs()).toBe(1)
    // the turn writes back the history the GETs showed: no re-derivation before or under its lease
    await post(handler, 'c1', 'u2', 'deliver on 2030-05-01')
    expect(runs()).toBe(1)
    expect((await store.load('c1'))?.definition.revision).toBe(2)
    expect((await get(handler, 'c1')).chatrail.state).toBe('booked')

    // without a GET first, a turn re-derives once (it used to: once before the claim, once under the lease)
    await post(createChatHandler({ definition: deliveryDefinition(agent), store, authenticate: 'none' }), 'c2', 'u1', '/start')
    const fresh = countingRevision2(agent)
    await post(createChatHandler({ definition: fresh.definition, store, authenticate: 'none' }), 'c2', 'u2', 'deliver on 2030-05-01')
    expect(fresh.runs()).toBe(1)
  })

  it('keeps a bounded number of conversations: the least recently read is re-derived again, the latest is not', async () => {
    const store = memoryStore()
    const agent = countingAgent()
    const old = createChatHandler({ definition: deliveryDefinition(agent), store, authenticate: 'none' })
    const count = 300 // over the handler's 256
    for (let i = 0; i < count; i++) await post(old, `c${i}`, 'u1', '/start')
    const { definition, runs } = countingRevision2(agent)
    const handler = createChatHandler({ definition, store, authenticate: 'none' })
    for (let i = 0; i < count; i++) await get(handler, `c${i}`)
    expect(runs()).toBe(count)
    await get(handler, `c${count - 1}`)
    expect(runs()).toBe(count)
    await get(handler, 'c0')
    expect(runs()).toBe(count + 1)
  })
})
