import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createChatHandler } from '../../src/server/index.js'
import { memoryStore, type ConversationStore } from '../../src/store/index.js'
import { endlessAgent } from './support/agents.js'
import { countingAgent, deliveryDefinition, listen, sendTurn, userMessage, type Listening } from './support/harness.js'

// Conversations belong to the principal whose turn created them. Another principal gets 404 (not
// 403: whether the id is taken is nobody else's business) on every method, and changes nothing.
// The principal is the bearer token here; `authenticate: 'none'` is one anonymous principal.

const json = { 'content-type': 'application/json' }
const as = (who: string): Record<string, string> => ({ ...json, authorization: `Bearer ${who}` })
const authenticate = (request: Request): string | null => request.headers.get('authorization')?.replace(/^Bearer /, '') || null

describe('createChatHandler: conversations belong to their principal', () => {
  let store: ConversationStore
  let http: Listening
  let agent: ReturnType<typeof countingAgent>
  beforeEach(async () => {
    store = memoryStore()
    agent = countingAgent()
    http = await listen(createChatHandler({ definition: deliveryDefinition(agent), store, authenticate }))
  })
  afterEach(async () => {
    await http.close()
  })

  const turn = (who: string, messages: unknown[], extra: Record<string, unknown> = {}): Promise<Response> =>
    fetch(http.url, { method: 'POST', headers: as(who), body: JSON.stringify({ id: 'c1', messages, trigger: 'submit-message', ...extra }) })

  it("another principal's conversation is 404 on every method and changes nothing", async () => {
    const first = await (await turn('alice', [userMessage('u1', '/start')])).text()
    expect(first).toContain('"delta":"Which day?"')
    const assistantId = /"type":"start","messageId":"([^"]+)"/.exec(first)?.[1]
    const before = await store.load('c1')
    expect(before?.owner).toBe('alice')
    const attempts: Array<[string, Promise<Response>]> = [
      ['GET', fetch(`${http.url}?id=c1`, { headers: as('bob') })],
      ['DELETE', fetch(`${http.url}?id=c1`, { method: 'DELETE', headers: as('bob') })],
      ['a new turn', turn('bob', [userMessage('u2', 'deliver on 2030-01-01')])],
      ["a retry of alice's message (would replay her answer)", turn('bob', [userMessage('u1', '/start')])],
      ['an edit of her message', turn('bob', [userMessage('u1', 'hello')])],
      ['a regenerate', turn('bob', [userMessage('u1', '/start')], { trigger: 'regenerate-message', messageId: assistantId })],
      ['a stop', fetch(http.url, { method: 'POST', headers: as('bob'), body: JSON.stringify({ id: 'c1', action: 'stop' }) })],
      ['a dialog answer', fetch(http.url, { method: 'POST', headers: as('bob'), body: JSON.stringify({ id: 'c1', action: 'answer-dialog', toolId: 't', answer: { kind: 'plan', approved: true } }) })],
    ]
    for (const [name, attempt] of attempts) {
      const response = await attempt
      expect(response.status, name).toBe(404)
      const text = await response.text()
      expect(JSON.parse(text), name).toEqual({ error: { code: 'not_found', message: 'There is no conversation with this id.' } })
      expect(text).not.toContain('alice')
    }
    expect(await store.load('c1')).toEqual(before)
    expect(agent.calls()).toBe(0)
    // alice goes on as before
    const got = await fetch(`${http.url}?id=c1`, { headers: as('alice') })
    expect(got.status).toBe(200)
    expect(await got.json()).toMatchObject({ chatrail: { state: 'asking' } })
    expect(await (await turn('alice', [userMessage('u2', 'deliver on 2030-05-01')])).text()).toContain('Booked for 2030-05-01.')
    expect(await (await fetch(`${http.url}?id=c1`, { method: 'DELETE', headers: as('alice') })).json()).toEqual({ deleted: true })
  })

  it('a first turn still running (nothing stored yet) can be stopped by its principal only', async () => {
    await http.close()
    const endless = endlessAgent(10)
    const definition = deliveryDefinition(agent)
    http = await listen(createChatHandler({ definition: { ...definition, chat: { ...definition.chat, adapter: endless.adapter } }, store, authenticate, limits: { signalPollMs: 20 } }))
    const running = await turn('alice', [userMessage('u1', 'talk')])
    const reader = (running.body as ReadableStream<Uint8Array>).getReader()
    await reader.read()
    expect(await store.load('c1')).toBeUndefined()
    const stop = (who: string) => fetch(http.url, { method: 'POST', headers: as(who), body: JSON.stringify({ id: 'c1', action: 'stop' }) })
    expect(await (await stop('bob')).json()).toEqual({ stopped: false })
    expect(await (await stop('alice')).json()).toEqual({ stopped: true })
    while (!(await reader.read()).done);
    expect(endless.aborts()).toBe(1)
    expect((await store.load('c1'))?.owner).toBe('alice')
  })

  it('a conversation stored without an owner (before owners, or by an unauthenticated server) is 404 for an authenticated principal', async () => {
    await store.append('legacy', { expectedVersion: 0, messages: [{ id: 'x1', role: 'user', content: '/start', status: 'complete', createdAt: new Date(0) }], definition: { id: 'delivery', revision: 1 } })
    const response = await fetch(`${http.url}?id=legacy`, { headers: as('alice') })
    expect(response.status).toBe(404)
  })

  it('authenticate returning something other than a principal id is a 500 with the reason in onError', async () => {
    await http.close()
    const errors: unknown[] = []
    http = await listen(createChatHandler({ definition: deliveryDefinition(agent), store, authenticate: () => 42 as unknown as string, onError: (error) => errors.push(error) }))
    const response = await fetch(`${http.url}?id=c1`)
    expect(response.status).toBe(500)
    expect(await response.json()).toEqual({ error: { code: 'internal_error', message: 'The server failed to handle this request.' } })
    expect(String(errors[0])).toContain('authenticate must return a principal id')
  })
})

describe("authenticate: 'none' is one anonymous principal", () => {
  it('every request is the same principal: it sees every conversation, and stored conversations have no owner', async () => {
    const store = memoryStore()
    const http = await listen(createChatHandler({ definition: deliveryDefinition(countingAgent()), store, authenticate: 'none' }))
    try {
      await sendTurn(http.url, 'c1', [userMessage('u1', '/start')])
      expect((await store.load('c1'))?.owner).toBeUndefined()
      const got = await fetch(`${http.url}?id=c1`, { headers: { authorization: 'Bearer whoever' } })
      expect(await got.json()).toMatchObject({ chatrail: { state: 'asking' } })
    } finally {
      await http.close()
    }
  })
})
