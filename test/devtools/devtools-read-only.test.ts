import { describe, expect, it } from 'vitest'
import type { AdapterRequest } from '../../src/contract/adapter.js'
import type { StreamChunk } from '../../src/contract/stream.js'
import type { ChatDefinition } from '../../src/conversation/definition.js'
import type { JsonObject } from '../../src/conversation/json.js'
import { defineChat } from '../../src/index.js'
import type { ConversationDetail } from '../../src/devtools/index.js'
import { memoryStore, type ConversationStore } from '../../src/store/index.js'
import { apiChat } from './api/api-chat.js'
import { apiHarness, BASE, TOKEN } from './api/api-harness.js'

// A devtools request never changes a conversation, a lease or anything a turn keeps — including
// while a turn streams: the devtools' store sees only reads, and the conversation, its lease and
// the running turn's stored parts are the same after every endpoint was called as before.

const READS = new Set(['kind', 'load', 'loadDecisions', 'list', 'readTurnParts'])

/** The store as the devtools get it: every method called is recorded. */
function recording(store: ConversationStore): { store: ConversationStore; called: Set<string> } {
  const called = new Set<string>()
  const proxy = new Proxy(store, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver)
      if (typeof key !== 'string') return value
      called.add(key)
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value
    },
  })
  return { store: proxy, called }
}

/** An agent whose answer waits until the test opens the gate, after its first word. */
function gatedAgent(): { adapter: { createSource: (request: AdapterRequest) => { stream: () => AsyncIterableIterator<StreamChunk>; abort: () => void } }; open: () => void; started: Promise<void> } {
  let open!: () => void
  let started!: () => void
  const gate = new Promise<void>((resolve) => (open = resolve))
  const running = new Promise<void>((resolve) => (started = resolve))
  return {
    open: () => open(),
    started: running,
    adapter: {
      createSource: () => ({
        abort: () => undefined,
        async *stream() {
          yield { type: 'text', content: 'Thinking' }
          started()
          await gate
          yield { type: 'text', content: ' about it.' }
          yield { type: 'done' }
        },
      }),
    },
  }
}

describe('devtools requests are read-only', () => {
  it('never writes a conversation, a lease or turn parts, while a turn streams', async () => {
    const agent = gatedAgent()
    const definition = defineChat({ ...apiChat, chat: { adapter: agent.adapter } }) as unknown as ChatDefinition<JsonObject>
    const raw = memoryStore()
    const { store, called } = recording(raw)
    const h = apiHarness(raw, { definition, store })
    for (const text of ['/start', '4821', 'sw1a 1aa']) await h.turn('c-1', text)
    // a turn the agent answers, held open mid-stream
    const streaming = h.chat(new Request('http://localhost/api/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ id: 'c-1', trigger: 'submit-message', messages: [{ id: 'u-free', role: 'user', parts: [{ type: 'text', text: 'can you hurry?' }] }] }),
    }))
    await agent.started
    const response = await streaming
    const reading = response.text()
    // the turn's first batch of parts is in the store (so a running turn's record is there to be left alone)
    for (let i = 0; i < 200 && (await raw.readTurnParts?.('c-1'))?.turn === undefined; i++) await new Promise((resolve) => setTimeout(resolve, 5))
    const before = { conversation: await raw.load('c-1'), parts: await raw.readTurnParts?.('c-1') }
    expect(before.parts?.lease?.held).toBe(true)
    expect(before.parts?.turn).toBeDefined()

    const detail = await h.json<ConversationDetail>('/conversations/c-1')
    expect(detail.running).toBe(true)
    const userMessageId = detail.turns[1]?.userMessageId ?? ''
    const requests: Array<[string, Promise<Response>]> = [
      ['list', h.get('/conversations')],
      ['list filtered', h.get('/conversations?state=confirmAddress&failed=0')],
      ['detail', h.get('/conversations/c-1')],
      ['explain', h.get(`/conversations/c-1/messages/${userMessageId}/explain`)],
      ['export', h.get('/conversations/c-1/export')],
      ['export redacted', h.get('/conversations/c-1/export?redact=1')],
      ['definitions', h.get('/definitions')],
      ['what-if', h.post('/what-if', { definition: 'lost-card', state: 'confirmAddress', text: 'yes' })],
    ]
    for (const [name, request] of requests) {
      const answer = await request
      expect(answer.status, name).toBe(200)
      await answer.text()
    }
    const abort = new AbortController()
    const events = await h.devtools(new Request(`${BASE}/events`, { headers: { authorization: `Bearer ${TOKEN}` }, signal: abort.signal }))
    await (events.body as ReadableStream<Uint8Array>).getReader().read()
    abort.abort()

    expect({ conversation: await raw.load('c-1'), parts: await raw.readTurnParts?.('c-1') }).toEqual(before)
    expect([...called].filter((name) => !READS.has(name))).toEqual([])
    // the turn goes on and is stored as if nobody had looked
    agent.open()
    expect(await reading).toContain('about it.')
    const after = await raw.load('c-1')
    expect(after?.version).toBe((before.conversation?.version ?? 0) + 1)
    expect(after?.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Thinking about it.', status: 'complete' })
  })
})
