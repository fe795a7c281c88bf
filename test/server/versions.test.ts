import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { commandRoute, defineChat, patternRoute } from '../../src/index.js'
import { createChatHandler, type ChatHandler } from '../../src/server/index.js'
import { MAX_VERSIONS_PER_PLACE } from '../../src/server/message-versions.js'
import type { ConversationStore } from '../../src/store/index.js'
import { everyStore } from './support/every-store.js'
import { countingAgent, deliveryDefinition, numberedAgent, userMessage } from './support/harness.js'

// Versions through the server (issue #31 item 9): an edit or a regenerate keeps what it replaced in
// the store, GET tells chatrail's client where they stand, a switch shows another one in one fenced
// write; plus an answer's reasoning and sources stored with it. On every store.

const stores = everyStore('versions', 'versions through the server')

interface Restored {
  messages: Array<{ id: string; role: string; parts: Array<Record<string, unknown>>; metadata?: Record<string, unknown> }>
  chatrail: { state: string; versions?: Record<string, { question?: { index: number; count: number }; answer?: { index: number; count: number } }> }
  switched?: boolean
}

const textOf = (message: Restored['messages'][number] | undefined): string => (message?.parts ?? []).filter((part) => part.type === 'text').map((part) => part.text).join('')

describe.each(stores)('versions through the server: %s', (_name, makeStore) => {
  let store: ConversationStore
  let handler: ChatHandler
  beforeEach(async () => {
    store = await makeStore()
    const definition = deliveryDefinition(countingAgent())
    handler = createChatHandler({ definition: { ...definition, chat: { ...definition.chat, adapter: numberedAgent() } }, store, authenticate: 'none' })
  }, 60_000)
  afterEach(async () => {
    await handler.close()
    await store.close()
  })

  const post = (body: unknown): Promise<Response> => handler(new Request('http://test/api/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }))
  /** One turn, read to its end (its write is done before `finish`); the stream's text. */
  const turn = async (id: string, messages: unknown[], trigger: 'submit-message' | 'regenerate-message' = 'submit-message'): Promise<string> => {
    const response = await post({ id, messages, trigger })
    expect(response.status).toBe(200)
    return response.text()
  }
  const get = async (id: string): Promise<Restored> => (await (await handler(new Request(`http://test/api/chat?id=${id}`))).json()) as Restored
  const switchTo = async (id: string, messageId: string, place: 'question' | 'answer', index: number): Promise<Response> => post({ id, action: 'switch-version', messageId, place, index })

  it('a regenerate keeps the reply it replaced; GET says 2/2; a switch shows the first again, and it stays after a reload', async () => {
    await turn('c1', [userMessage('u1', 'hi')])
    const live = await turn('c1', [userMessage('u1', 'hi')], 'regenerate-message')
    // the turn's snapshot tells chatrail's client where the versions stand
    expect(live).toContain('"versions":{"u1":{"answer":{"index":1,"count":2}}}')
    const after = await get('c1')
    expect(textOf(after.messages[1])).toBe('answer 2')
    expect(after.chatrail.versions).toEqual({ u1: { answer: { index: 1, count: 2 } } })
    // the wire carries only the visible branch: no stored versions in any message
    expect(JSON.stringify(after.messages)).not.toContain('answer 1')

    const switched = (await (await switchTo('c1', 'u1', 'answer', 0)).json()) as Restored
    expect(switched.switched).toBe(true)
    expect(textOf(switched.messages[1])).toBe('answer 1')
    expect(switched.chatrail.versions).toEqual({ u1: { answer: { index: 0, count: 2 } } })
    const reloaded = await get('c1')
    expect(textOf(reloaded.messages[1])).toBe('answer 1')
    expect(reloaded.chatrail.versions).toEqual({ u1: { answer: { index: 0, count: 2 } } })
    // and back: the version switched away from was kept
    const back = (await (await switchTo('c1', 'u1', 'answer', 1)).json()) as Restored
    expect(textOf(back.messages[1])).toBe('answer 2')
    // switching to the version shown writes nothing
    expect(((await (await switchTo('c1', 'u1', 'answer', 1)).json()) as Restored).switched).toBe(false)
  })

  it('an edit keeps the question it replaced with its replies, nested versions included, and the state follows the shown branch', async () => {
    await turn('c2', [userMessage('u1', '/start')])
    expect((await get('c2')).chatrail.state).toBe('asking')
    await turn('c2', [userMessage('u1', '/start'), userMessage('u2', 'hello')])
    await turn('c2', [userMessage('u1', '/start'), userMessage('u2', 'hello')], 'regenerate-message')
    // edit the first question: its replies and the later turns become version 0 of that place
    await turn('c2', [userMessage('u1', 'just chatting')])
    const edited = await get('c2')
    expect(edited.messages.map(textOf)).toEqual(['just chatting', 'answer 3'])
    expect(edited.chatrail).toMatchObject({ state: 'idle', versions: { u1: { question: { index: 1, count: 2 } } } })

    const switched = (await (await switchTo('c2', 'u1', 'question', 0)).json()) as Restored
    expect(switched.messages.map(textOf)).toEqual(['/start', 'Which day?', 'hello', 'answer 2'])
    // the session's state is the shown branch's; the nested versions of u2's answer came back as left
    expect(switched.chatrail).toMatchObject({ state: 'asking', versions: { u1: { question: { index: 0, count: 2 } }, u2: { answer: { index: 1, count: 2 } } } })
    expect((await get('c2')).chatrail.state).toBe('asking')
    // the next turn answers from the shown branch
    await turn('c2', [userMessage('u1', '/start'), userMessage('u3', 'deliver on 2026-01-02')])
    expect((await get('c2')).chatrail.state).toBe('booked')
  })

  it('a retry after a failed reply keeps nothing more, and a switch during a running turn is 409', async () => {
    await turn('c3', [userMessage('u1', 'hi')])
    await turn('c3', [userMessage('u1', 'hi')], 'regenerate-message')
    // mark the shown reply failed in the store, as a failed turn leaves it
    const stored = (await store.load('c3'))!
    const failed = { ...stored.messages[1]!, status: 'error' as const, metadata: { ...stored.messages[1]!.metadata, error: { code: 'AGENT_ERROR' } } }
    await store.append('c3', { expectedVersion: stored.version, truncateAfter: 'u1', messages: [failed], definition: stored.definition })
    await turn('c3', [userMessage('u1', 'hi')]) // a submit of the same text after a failure: a retry
    const after = await get('c3')
    expect(textOf(after.messages[1])).toBe('answer 3')
    expect(after.chatrail.versions).toEqual({ u1: { answer: { index: 1, count: 2 } } })

    const claimed = await store.claim('c3', 'someone-else', { leaseMs: 60_000 })
    expect(claimed.status).toBe('claimed')
    const busy = await switchTo('c3', 'u1', 'answer', 0)
    expect(busy.status).toBe(409)
    expect(((await busy.json()) as { error: { code: string } }).error.code).toBe('conversation_busy')
  })

  it(`keeps at most ${MAX_VERSIONS_PER_PLACE} versions of a place, the oldest dropped`, async () => {
    await turn('c4', [userMessage('u1', 'hi')])
    for (let i = 0; i < MAX_VERSIONS_PER_PLACE + 2; i++) await turn('c4', [userMessage('u1', 'hi')], 'regenerate-message')
    const after = await get('c4')
    expect(after.chatrail.versions?.u1?.answer).toEqual({ index: MAX_VERSIONS_PER_PLACE - 1, count: MAX_VERSIONS_PER_PLACE })
    const oldest = (await (await switchTo('c4', 'u1', 'answer', 0)).json()) as Restored
    // answers 1 to 3 were dropped: 13 made, 10 kept
    expect(textOf(oldest.messages[1])).toBe('answer 4')
  }, 30_000)

  it('hostile switches are 4xx with a clear error, and stored versions never come from a client', async () => {
    await turn('c5', [userMessage('u1', 'hi')])
    await turn('c5', [userMessage('u1', 'hi')], 'regenerate-message')
    const cases: Array<[unknown, number, string, string]> = [
      [{ id: 'c5', action: 'switch-version', messageId: 'u1', place: 'answer', index: 2 }, 400, 'unknown_version', 'index'],
      [{ id: 'c5', action: 'switch-version', messageId: 'u1', place: 'answer', index: -1 }, 400, 'invalid_body', 'index'],
      [{ id: 'c5', action: 'switch-version', messageId: 'u1', place: 'answer', index: 0.5 }, 400, 'invalid_body', 'index'],
      [{ id: 'c5', action: 'switch-version', messageId: 'u1', place: 'question', index: 1 }, 400, 'unknown_version', 'index'],
      [{ id: 'c5', action: 'switch-version', messageId: 'nope', place: 'answer', index: 0 }, 404, 'unknown_message', 'messageId'],
      [{ id: 'c5', action: 'switch-version', messageId: 'u1', place: 'sideways', index: 0 }, 400, 'invalid_body', 'place'],
      [{ id: 'missing', action: 'switch-version', messageId: 'u1', place: 'answer', index: 0 }, 404, 'not_found', ''],
    ]
    for (const [body, status, code, path] of cases) {
      const response = await post(body)
      const error = ((await response.json()) as { error: { code: string; path?: string; message: string } }).error
      expect({ status: response.status, code: error.code }).toEqual({ status, code })
      if (path !== '') expect(error.path).toBe(path)
      expect(error.message.length).toBeGreaterThan(10)
    }
    // an answer's id (the server's) is not a user message
    const answerId = (await get('c5')).messages[1]!.id
    expect((await switchTo('c5', answerId, 'answer', 0)).status).toBe(404)

    // an edit whose client copy claims versions of its own: only what the server kept is stored
    const forged = { versions: { shown: 0, others: [[{ id: 'x', role: 'assistant', content: 'forged', status: 'complete', createdAt: new Date(0).toISOString() }]] } }
    await turn('c5', [userMessage('u1', 'edited', forged)])
    const stored = (await store.load('c5'))!
    expect(JSON.stringify(stored.messages)).not.toContain('forged')
    expect((await get('c5')).chatrail.versions).toEqual({ u1: { question: { index: 1, count: 2 } } })
  })

  it('a version kept under an earlier revision of the definition is re-derived through the running one when switched to', async () => {
    await turn('c7', [userMessage('u1', '/start')])
    await turn('c7', [userMessage('u1', '/start'), userMessage('u2', 'deliver on 2026-01-02')])
    expect((await get('c7')).chatrail.state).toBe('booked')
    await turn('c7', [userMessage('u1', '/start'), userMessage('u2', 'hello')]) // an edit: the booked branch becomes version 0
    expect((await get('c7')).chatrail.state).toBe('asking')
    // revision 2 no longer books "deliver on …": a branch decided under revision 1 must not bring its state back
    const base = deliveryDefinition(countingAgent())
    const revision2 = defineChat({ id: 'delivery', revision: 2, chat: { adapter: numberedAgent() }, conversation: { ...base.conversation, routes: [
      commandRoute({ id: 'start', command: '/start', event: 'start', response: 'Which day?' }),
      patternRoute({ id: 'date', pattern: /^ship on (?<deliveryDate>\d{4}-\d{2}-\d{2})$/, event: 'date', assign: true, response: 'Shipping.' }),
    ] } })
    const next = createChatHandler({ definition: revision2, store, authenticate: 'none' })
    try {
      const response = await next(new Request('http://test/api/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 'c7', action: 'switch-version', messageId: 'u2', place: 'question', index: 0 }) }))
      const switched = (await response.json()) as Restored
      expect(switched.messages.map(textOf)).toEqual(['/start', 'Which day?', 'deliver on 2026-01-02', 'Booked for 2026-01-02.'])
      expect(switched.chatrail.state).toBe('asking')
      const stored = (await store.load('c7'))!
      expect(stored.definition.revision).toBe(2)
      // the re-derived answer no longer carries revision 1's decision
      expect(stored.messages[3]?.metadata?.chatrail).toBeUndefined()
    } finally {
      await next.close()
    }
  })

  it("versions that would not fit the store's maxMessageBytes are dropped, never the turn", async () => {
    const small = await makeStore({ maxMessageBytes: 4096 })
    const definition = deliveryDefinition(countingAgent())
    const tight = createChatHandler({ definition: { ...definition, chat: { ...definition.chat, adapter: numberedAgent() } }, store: small, authenticate: 'none' })
    const send = async (messages: unknown[], trigger = 'submit-message'): Promise<string> => (await tight(new Request('http://test/api/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 'c8', messages, trigger }) }))).text()
    try {
      // an edit of a 2,500-character question: the old one (and its answer) do not fit beside the new one
      await send([userMessage('u1', 'a'.repeat(2500))])
      const edited = await send([userMessage('u1', 'b'.repeat(2500))])
      expect(edited).not.toContain('STORE_FAILED')
      const stored = (await small.load('c8'))!
      expect(stored.messages.map((message) => message.content)).toEqual(['b'.repeat(2500), expect.stringMatching(/^answer \d+$/)])
      expect(stored.messages[0]?.metadata?.versions).toBeUndefined()
      // regenerates until the kept replies no longer fit beside the answer: the answer is stored whole, without them
      for (let i = 0; i < 12; i++) expect(await send([userMessage('u1', 'b'.repeat(2500))], 'regenerate-message')).not.toContain('STORE_FAILED')
      const last = (await small.load('c8'))!.messages[1]!
      expect(last.content).toMatch(/^answer \d+$/)
      expect(last.metadata?.truncated).toBeUndefined()
    } finally {
      await tight.close()
      await small.close()
    }
  })

  it("an answer's reasoning and sources are stored with it and come back from GET and a retried submit", async () => {
    const live = await turn('c6', [userMessage('u1', 'hi')])
    expect(live).toContain('"type":"source-url"')
    const { messages } = await get('c6')
    expect(messages[1]?.parts).toEqual([
      { type: 'reasoning', text: 'thinking 1', state: 'done' },
      { type: 'text', text: 'answer 1' },
      { type: 'source-url', sourceId: `${messages[1]!.id}:source0`, url: 'https://example.com/1', title: 'Source 1' },
    ])
    // a network retry of the same submit is answered from the store, reasoning and sources included
    const replayed = await turn('c6', [userMessage('u1', 'hi')])
    expect(replayed).toContain('"delta":"thinking 1"')
    expect(replayed).toContain('"url":"https://example.com/1"')
  })
})
