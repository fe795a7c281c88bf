import { DefaultChatTransport, type UIMessage, type UIMessageChunk } from 'ai'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { StreamChunk } from '../../src/contract/stream.js'
import { commandRoute, defineChat, type ChatDefinition } from '../../src/index.js'
import { createChatHandler, type ChatHandler, type ChatHandlerOptions } from '../../src/server/index.js'
import { memoryStore, type ConversationStore } from '../../src/store/index.js'
import { everyStore } from './support/every-store.js'
import { eventually, userMessage } from './support/harness.js'

// Resumable streams without Redis (issue 29): a turn runs on instance A; `useChat`'s own transport
// (`DefaultChatTransport.reconnectToStream`: GET <api>/<id>/stream) reconnects to instance B, which
// shares nothing with A but the store, and gets the parts so far and then the live ones until
// `finish`: every part once, in order, the same message as A's own stream. Both handlers run in
// process (a Request in, a Response out) through the transport's `fetch`, on each store.

const stores = everyStore('resume', 'resumable streams')

const WORDS = ['Resuming', 'a', 'stream', 'needs', 'no', 'Redis', 'when', 'the', 'store', 'is', 'shared.']

/** Streams WORDS (a tool call in the middle), holding after the third word until `open()`. */
function heldAgent(): { adapter: { createSource: () => { stream: () => AsyncIterableIterator<StreamChunk>; abort: () => void } }; hold: () => () => void; aborts: () => number } {
  let gate: Promise<void> | undefined
  let aborts = 0
  return {
    aborts: () => aborts,
    hold() {
      let open!: () => void
      gate = new Promise<void>((resolve) => (open = resolve))
      return () => open()
    },
    adapter: {
      createSource: () => ({
        abort: () => void aborts++,
        async *stream() {
          for (const [index, word] of WORDS.entries()) {
            yield { type: 'text', content: index === 0 ? word : ` ${word}` }
            if (index === 2 && gate) await gate
            if (index === 5) {
              yield { type: 'tool_call', toolCall: { id: 'call-1', name: 'lookup', args: '{"q":"redis"}' } }
              yield { type: 'tool_result', toolCall: { id: 'call-1', name: 'lookup', args: '{"q":"redis"}', result: '"not needed"' } }
            }
            await new Promise((resolve) => setTimeout(resolve, 5))
          }
          yield { type: 'done' }
        },
      }),
    },
  }
}

const chatOf = (adapter: ChatDefinition['chat']['adapter']): ChatDefinition =>
  defineChat({ id: 'resume', chat: { adapter }, conversation: { initial: 'open', context: {}, states: { open: { on: { go: 'open' } } }, routes: [commandRoute({ id: 'go', command: '/go', event: 'go', response: 'Gone.' })] } })

const API = 'http://instance.test/api/chat'
const fetchOf = (handler: ChatHandler): typeof fetch => async (input, init) => handler(new Request(input instanceof Request ? input : new URL(String(input)), init))
const transportOf = (handler: ChatHandler, headers?: Record<string, string>): DefaultChatTransport<UIMessage> => new DefaultChatTransport<UIMessage>({ api: API, fetch: fetchOf(handler), ...(headers ? { headers } : {}) })

async function drain(stream: ReadableStream<UIMessageChunk>): Promise<UIMessageChunk[]> {
  const chunks: UIMessageChunk[] = []
  const reader = stream.getReader()
  for (let step = await reader.read(); !step.done; step = await reader.read()) chunks.push(step.value)
  return chunks
}

/** Chunks with consecutive deltas of one part merged: the same stream whatever its batching. */
function normalized(chunks: readonly UIMessageChunk[]): UIMessageChunk[] {
  const merged: UIMessageChunk[] = []
  for (const chunk of chunks) {
    const last = merged.at(-1)
    if (chunk.type === 'text-delta' && last?.type === 'text-delta' && last.id === chunk.id) merged[merged.length - 1] = { ...last, delta: last.delta + chunk.delta }
    else merged.push(chunk)
  }
  return merged
}

const textOf = (chunks: readonly UIMessageChunk[]): string => chunks.flatMap((chunk) => (chunk.type === 'text-delta' ? [chunk.delta] : [])).join('')
const turnBody = (id: string, messages: UIMessage[]): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id, messages, trigger: 'submit-message' }) })

describe.each(stores)('resumable streams across instances: %s', (_name, makeStore) => {
  let store: ConversationStore
  beforeEach(async () => {
    store = await makeStore()
  }, 60_000)
  afterEach(async () => {
    await store.close()
  })
  const handlers = (adapter: ChatDefinition['chat']['adapter'], extra: Partial<ChatHandlerOptions> = {}): [ChatHandler, ChatHandler] => {
    const options = { definition: chatOf(adapter), store, authenticate: 'none' as const, limits: { partFlushMs: 10, resumePollMs: 10 }, ...extra }
    return [createChatHandler(options), createChatHandler(options)]
  }

  it('a reconnect to instance B replays the parts so far, then follows the live ones to finish: the same stream as A’s', async () => {
    const agent = heldAgent()
    const [a, b] = handlers(agent.adapter)
    const open = agent.hold()
    const live = await transportOf(a).sendMessages({ chatId: 'c1', messages: [userMessage('u1', 'tell me')], trigger: 'submit-message', messageId: undefined, abortSignal: undefined })
    const drainingA = drain(live)
    // A is mid-answer (held after its third word) once its first batch is in the store
    await eventually(async () => ((await store.readTurnParts?.('c1'))?.turn?.parts.length ?? 0) >= 3)
    // GET while it runs: the stored history plus the running turn's user message
    const restored = (await (await b(new Request(`${API}?id=c1`))).json()) as { messages: UIMessage[]; running?: boolean }
    expect(restored.messages.map((m) => m.id)).toEqual(['u1'])
    expect(restored.running).toBe(true)
    const resumed = await transportOf(b).reconnectToStream({ chatId: 'c1' })
    if (resumed === null) throw new Error('instance B answered 204 while the turn runs')
    const drainingB = drain(resumed)
    open()
    const [fromA, fromB] = await Promise.all([drainingA, drainingB])
    expect(textOf(fromB)).toBe(WORDS.join(' '))
    expect(normalized(fromB)).toEqual(normalized(fromA))
    expect(fromB.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' })
    expect(fromB.filter((chunk) => chunk.type === 'tool-input-available')).toHaveLength(1)
    // finished: nothing runs, GET reads the store alone
    expect(await transportOf(b).reconnectToStream({ chatId: 'c1' })).toBeNull()
    const after = (await (await b(new Request(`${API}?id=c1`))).json()) as { messages: UIMessage[]; running?: boolean }
    expect(after.running).toBeUndefined()
    expect(after.messages.map((m) => m.role)).toEqual(['user', 'assistant'])
  })

  it('204 when nothing runs; a turn that ends before its first batch records nothing', async () => {
    const [a, b] = handlers(heldAgent().adapter, { limits: { partFlushMs: 60_000 } })
    expect((await b(new Request(`${API}/never-used/stream`))).status).toBe(204)
    const response = await a(new Request(API, turnBody('c2', [userMessage('u1', '/go')])))
    expect(await response.text()).toContain('"finish"')
    expect((await store.readTurnParts?.('c2'))?.turn).toBeUndefined()
    const reconnect = await b(new Request(`${API}/c2/stream`))
    expect(reconnect.status).toBe(204)
    expect(await reconnect.text()).toBe('')
  })

  it('a client that leaves a resumed stream stops its polling; the turn goes on and is stored', async () => {
    let reads = 0
    const counted: ConversationStore = { ...store, readTurnParts: async (...args) => { reads++; return (store.readTurnParts as NonNullable<ConversationStore['readTurnParts']>)(...args) } }
    const agent = heldAgent()
    const [a] = handlers(agent.adapter)
    const [, b] = handlers(agent.adapter, { store: counted })
    const open = agent.hold()
    const live = await a(new Request(API, turnBody('c3', [userMessage('u1', 'tell me')])))
    await eventually(async () => ((await store.readTurnParts?.('c3'))?.turn?.parts.length ?? 0) >= 3)
    const resumed = await b(new Request(`${API}/c3/stream`))
    const reader = (resumed.body as ReadableStream<Uint8Array>).getReader()
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('"type":"start"')
    await eventually(async () => reads >= 3) // following
    await reader.cancel()
    const afterCancel = reads
    await new Promise((resolve) => setTimeout(resolve, 100)) // ten poll intervals
    expect(reads - afterCancel).toBeLessThanOrEqual(1) // at most the poll already under way
    open()
    expect(await live.text()).toContain('"finish"')
    expect(agent.aborts()).toBe(0)
    expect((await store.load('c3'))?.messages[1]?.content).toBe(WORDS.join(' '))
  })

  it('a turn whose parts pass the store’s cap is resumed up to the cap, then ends with the rest of the stored answer', async () => {
    await store.close()
    store = await makeStore({ maxTurnPartsBytes: 400 })
    const agent = heldAgent()
    const [a, b] = handlers(agent.adapter)
    const open = agent.hold()
    const live = await a(new Request(API, turnBody('c4', [userMessage('u1', 'tell me')])))
    await eventually(async () => ((await store.readTurnParts?.('c4'))?.turn?.parts.length ?? 0) >= 3)
    const resumed = await transportOf(b).reconnectToStream({ chatId: 'c4' })
    if (resumed === null) throw new Error('instance B answered 204 while the turn runs')
    const draining = drain(resumed)
    open()
    await live.text()
    const chunks = await draining
    expect((await store.readTurnParts?.('c4'))?.turn).toMatchObject({ overflowed: true, finished: true })
    expect(textOf(chunks)).toBe(WORDS.join(' '))
    expect(chunks.filter((chunk) => chunk.type === 'start')).toHaveLength(1)
    expect(chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' })
    expect(chunks.find((chunk) => chunk.type === 'data-chatrail')).toMatchObject({ data: { state: 'open' } })
  })
})

describe('resumable streams: owners, paths and turns that stop short (memoryStore, injected clock)', () => {
  const principal: ChatHandlerOptions['authenticate'] = (request) => request.headers.get('x-user')
  let now = Date.UTC(2030, 0, 1)
  const clock = (): number => now
  let store: ConversationStore
  let reads = 0
  /** The store, counting its turn-part reads: a follower's polls. */
  let counted: ConversationStore

  beforeEach(() => {
    now = Date.UTC(2030, 0, 1)
    store = memoryStore({ clock })
    reads = 0
    counted = { ...store, readTurnParts: async (...args) => { reads++; return (store.readTurnParts as NonNullable<ConversationStore['readTurnParts']>)(...args) } }
  })

  const handler = (authenticate: ChatHandlerOptions['authenticate'] = 'none'): ChatHandler =>
    createChatHandler({ definition: chatOf(heldAgent().adapter), store: counted, authenticate, clock, limits: { partFlushMs: 10, resumePollMs: 10 } })
  /** Moves the clock once a follower has polled at least twice since (so it saw the state before the move). */
  const advanceAfterPolls = async (ms: number): Promise<void> => {
    const seen = reads
    await eventually(async () => reads >= seen + 2)
    now += ms
  }

  it('another principal gets 404 for a running turn, stored conversation or first turn; the owner gets the stream', async () => {
    const agent = heldAgent()
    const a = createChatHandler({ definition: chatOf(agent.adapter), store, authenticate: principal, clock, limits: { partFlushMs: 10 } })
    const b = handler(principal)
    const open = agent.hold()
    const live = await a(new Request(API, { ...turnBody('c5', [userMessage('u1', 'tell me')]), headers: { 'content-type': 'application/json', 'x-user': 'alice' } }))
    await eventually(async () => ((await store.readTurnParts?.('c5'))?.turn?.parts.length ?? 0) >= 3)
    expect((await b(new Request(`${API}/c5/stream`, { headers: { 'x-user': 'bob' } }))).status).toBe(404)
    const bobGet = (await (await b(new Request(`${API}?id=c5`, { headers: { 'x-user': 'bob' } }))).json()) as { messages: unknown[]; running?: boolean }
    expect(bobGet).toMatchObject({ messages: [] })
    expect(bobGet.running).toBeUndefined()
    expect((await b(new Request(`${API}/c5/stream`))).status).toBe(401)
    const mine = await b(new Request(`${API}/c5/stream`, { headers: { 'x-user': 'alice' } }))
    expect(mine.status).toBe(200)
    open()
    expect(await mine.text()).toContain('"type":"finish"')
    await live.text()
    // stored now: still 404 for bob (and nothing runs for alice)
    expect((await b(new Request(`${API}/c5/stream`, { headers: { 'x-user': 'bob' } }))).status).toBe(404)
    expect((await b(new Request(`${API}/c5/stream`, { headers: { 'x-user': 'alice' } }))).status).toBe(204)
  })

  it('the path form: <api>/<id>/stream (id URL-encoded), a bad id is 400, ?id= at a path ending in /stream is the conversation', async () => {
    const b = handler()
    expect((await b(new Request('http://x.test/api/chat/c%3A1/stream'))).status).toBe(204)
    expect((await b(new Request('http://x.test/api/chat/c%3A1/stream/'))).status).toBe(204)
    const bad = await b(new Request('http://x.test/api/chat/has%20space/stream'))
    expect(bad.status).toBe(400)
    expect(await bad.json()).toMatchObject({ error: { code: 'invalid_body', path: 'id' } })
    expect((await b(new Request('http://x.test/api/chat/%E0%A4%A/stream'))).status).toBe(400)
    const conversation = await b(new Request('http://x.test/mounted/stream?id=c1'))
    expect(conversation.status).toBe(200)
    expect(await conversation.json()).toMatchObject({ messages: [] })
  })

  /** A turn whose instance died: its lease, its recorded parts (start and "Hel"), no finish. */
  async function deadTurn(conversationId: string): Promise<{ lease: { conversationId: string; turnId: string; token: number; expiresAt: Date } }> {
    const claimed = await store.claim(conversationId, 'turn-1', { leaseMs: 1000 })
    if (claimed.status !== 'claimed') throw new Error('claim must succeed')
    const parts = [{ type: 'start', messageId: 'a1' }, { type: 'text-start', id: 'a1:0' }, { type: 'text-delta', id: 'a1:0', delta: 'Hel' }].map((part) => JSON.stringify(part))
    await store.appendTurnParts?.(conversationId, { lease: claimed.lease, seq: 0, parts, header: JSON.stringify({ after: null, message: userMessage('u1', 'hi') }) })
    return { lease: claimed.lease }
  }

  it('a turn whose instance died before storing anything: followers end with TURN_INTERRUPTED once its lease and the grace have passed', async () => {
    await deadTurn('c6')
    const resumed = await transportOf(handler()).reconnectToStream({ chatId: 'c6' })
    if (resumed === null) throw new Error('204 for a turn holding its lease')
    const draining = drain(resumed)
    await advanceAfterPolls(1000) // the lease expires (nobody renews it)
    await advanceAfterPolls(5000) // and the grace for a finish recorded after the release
    const chunks = await draining
    expect(textOf(chunks)).toBe('Hel')
    expect(chunks.slice(-3)).toEqual([{ type: 'text-end', id: 'a1:0' }, { type: 'error', errorText: 'TURN_INTERRUPTED' }, { type: 'finish', finishReason: 'error' }])
    // and a later reconnect is 204: the turn is over
    now += 1
    expect((await handler()(new Request(`${API}/c6/stream`))).status).toBe(204)
  })

  it('a turn that stored its answer but never recorded its finish: followers end with the rest of the stored text', async () => {
    const { lease } = await deadTurn('c7')
    const resumed = await transportOf(handler()).reconnectToStream({ chatId: 'c7' })
    if (resumed === null) throw new Error('204 for a turn holding its lease')
    const draining = drain(resumed)
    const stamp = new Date(now)
    await store.append('c7', { expectedVersion: 0, messages: [{ id: 'u1', role: 'user', content: 'hi', status: 'complete', createdAt: stamp }, { id: 'a1', role: 'assistant', content: 'Hello there', status: 'complete', createdAt: stamp }], definition: { id: 'resume', revision: 1 }, lease, release: 'completed' })
    await advanceAfterPolls(0)
    await advanceAfterPolls(5000)
    const chunks = await draining
    expect(textOf(chunks)).toBe('Hello there')
    expect(chunks.slice(-3)).toMatchObject([{ type: 'text-end', id: 'a1:0' }, { type: 'data-chatrail', data: { state: 'open' } }, { type: 'finish', finishReason: 'stop' }])
  })

  it('a conversation deleted mid-stream ends its followers (nothing stored: TURN_INTERRUPTED)', async () => {
    await deadTurn('c8')
    const resumed = await transportOf(handler()).reconnectToStream({ chatId: 'c8' })
    if (resumed === null) throw new Error('204 for a turn holding its lease')
    const draining = drain(resumed)
    await store.delete('c8')
    const chunks = await draining
    expect(chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'error' })
    expect(chunks).toContainEqual({ type: 'error', errorText: 'TURN_INTERRUPTED' })
  })
})
