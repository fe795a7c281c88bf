import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { httpAdapter } from '../../src/client/index.js'
import type { StreamChunk } from '../../src/contract/stream.js'
import { createChatController } from '../../src/controller/index.js'
import { defineChat, type ChatDefinition } from '../../src/index.js'
import { createChatHandler, type ChatHandler } from '../../src/server/index.js'
import { memoryStore, type ConversationStore } from '../../src/store/index.js'
import { createRemoteChatBinding } from '../../src/view/remote-chat-binding.js'
import { eventually } from '../server/support/harness.js'

// chatrail's own client resumes too (read-turn.ts): a turn whose connection breaks mid-answer is
// followed on the server (`GET <api>/<id>/stream`, here answered by another instance), and a page
// restored while its turn runs (chatrail/react/remote) follows that turn. The text reaches the
// controller once, in order, and no second turn runs. Handlers run in process behind `fetch`.

const WORDS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight']
const API = 'http://chat.test/api/chat'

/** Streams WORDS; `hold(after)` holds it after that word until the returned function opens it. */
function heldAgent(): { adapter: ChatDefinition['chat']['adapter']; hold: (after: number) => () => void; calls: () => number } {
  const gates = new Map<number, Promise<void>>()
  let calls = 0
  return {
    calls: () => calls,
    hold(after) {
      let open!: () => void
      gates.set(after, new Promise<void>((resolve) => (open = resolve)))
      return () => open()
    },
    adapter: {
      createSource: () => ({
        abort: () => undefined,
        async *stream(): AsyncIterableIterator<StreamChunk> {
          calls++
          for (const [index, word] of WORDS.entries()) {
            yield { type: 'text', content: index === 0 ? word : ` ${word}` }
            await gates.get(index)
          }
          yield { type: 'done' }
        },
      }),
    },
  }
}

const definitionOf = (adapter: ChatDefinition['chat']['adapter']): ChatDefinition =>
  defineChat({ id: 'resume-client', chat: { adapter }, conversation: { initial: 'open', context: {}, states: { open: {} }, routes: [] } })

/** A body that breaks (as a reset socket does) once it has passed on a chunk holding a text delta. */
function cutAfterFirstDelta(body: ReadableStream<Uint8Array>, onCut: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let sawDelta = false
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (sawDelta) {
        void reader.cancel()
        onCut()
        controller.error(new TypeError('network error'))
        return
      }
      const step = await reader.read()
      if (step.done) return controller.close()
      sawDelta = decoder.decode(step.value).includes('"text-delta"')
      controller.enqueue(step.value)
    },
  })
}

describe('httpAdapter and chatrail/react/remote resume a turn', () => {
  let store: ConversationStore
  let agent: ReturnType<typeof heldAgent>
  let a: ChatHandler
  let b: ChatHandler
  let requests: string[]
  let cut: (() => void) | undefined
  let onResume: (() => void) | undefined
  const serve = (partFlushMs: number): void => {
    const options = { definition: definitionOf(agent.adapter), store, authenticate: 'none' as const, limits: { partFlushMs, resumePollMs: 10 } }
    a = createChatHandler(options)
    b = createChatHandler(options)
  }

  beforeEach(() => {
    store = memoryStore()
    agent = heldAgent()
    serve(10)
    requests = []
    cut = undefined
    onResume = undefined
  })
  afterEach(async () => {
    await store.close()
  })

  /** POSTs go to instance A (their body cut when `cut` is armed); GETs to instance B. */
  const fetchBoth: typeof fetch = async (input, init) => {
    const request = new Request(input instanceof Request ? input : new URL(String(input)), init)
    requests.push(`${request.method} ${new URL(request.url).pathname}${new URL(request.url).search}`)
    if (request.method !== 'POST') {
      const response = b(request)
      if (request.url.endsWith('/stream')) onResume?.()
      return response
    }
    const response = await a(request)
    const onCut = cut
    if (!onCut || response.body === null) return response
    cut = undefined
    return new Response(cutAfterFirstDelta(response.body, onCut), { status: response.status, headers: response.headers })
  }

  it('a connection cut mid-answer: the source reconnects to the turn’s stream and the text arrives once', async () => {
    // held after the third word until the cut, then after the fifth until the client is back: the
    // answer goes on while the client is away, and the reconnect finds the turn still running
    cut = agent.hold(2)
    onResume = agent.hold(4)
    const adapter = httpAdapter({ api: API, conversationId: 'c1', fetch: fetchBoth })
    const controller = createChatController({ adapter })
    await controller.send('tell me')
    const [, answer] = controller.getState().messages
    expect(answer).toMatchObject({ role: 'assistant', status: 'complete', content: WORDS.join(' ') })
    expect(controller.getState().error).toBeNull()
    expect(requests).toEqual(['POST /api/chat', 'GET /api/chat/c1/stream'])
    expect(agent.calls()).toBe(1)
  })

  it('a cut after the turn ended: the server says nothing runs (204) and the rest comes from the stored answer', async () => {
    // no batch is ever due (a turn that records nothing), so whenever the client comes back the turn
    // has ended (204 at once) or ends while the reconnect waits for its first batch (204 then)
    serve(60_000)
    cut = agent.hold(2)
    const adapter = httpAdapter({ api: API, conversationId: 'c2', fetch: fetchBoth })
    const controller = createChatController({ adapter })
    await controller.send('tell me')
    expect(controller.getState().messages[1]).toMatchObject({ status: 'complete', content: WORDS.join(' ') })
    expect(requests).toEqual(['POST /api/chat', 'GET /api/chat/c2/stream', 'GET /api/chat?id=c2'])
    expect(agent.calls()).toBe(1)
  })

  it('a page restored while its turn runs (chatrail/react/remote) shows the question and follows the answer to its end', async () => {
    const open = agent.hold(2)
    const running = await a(new Request(API, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 'c3', trigger: 'submit-message', messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'tell me' }] }] }) }))
    await eventually(async () => (await store.readTurnParts?.('c3'))?.turn !== undefined)
    const binding = createRemoteChatBinding(definitionOf(agent.adapter), { api: API, conversationId: 'c3', fetch: fetchBoth })
    const unsubscribe = binding.subscribe(() => undefined)
    await eventually(async () => binding.getState().chat.status === 'streaming')
    expect(binding.getState().chat.messages.map((message) => [message.role, message.content.split(' ')[0] ?? ''])).toEqual([['user', 'tell'], ['assistant', 'one']])
    open()
    await running.text()
    await eventually(async () => binding.getState().chat.status === 'idle')
    expect(binding.getState().chat.messages.map((message) => [message.role, message.content, message.status])).toEqual([['user', 'tell me', 'complete'], ['assistant', WORDS.join(' '), 'complete']])
    expect(requests).toEqual(['GET /api/chat?id=c3', 'GET /api/chat/c3/stream'])
    expect(agent.calls()).toBe(1)
    unsubscribe()
  })
})
