import { describe, expect, it } from 'vitest'
import { explainTurn } from '../../src/conversation/explain-turn.js'
import { toMermaid } from '../../src/conversation/mermaid.js'
import { createChatSession } from '../../src/conversation/session.js'
import type { ConversationDetail, ConversationListPage, DefinitionList, DevtoolsErrorBody, MessageExplanation, WhatIfResponse } from '../../src/devtools/index.js'
import { createDevtoolsHandler } from '../../src/devtools/index.js'
import { memoryStore } from '../../src/store/index.js'
import { everyStore } from '../server/support/every-store.js'
import { apiChat } from './api/api-chat.js'
import { allKinds, apiHarness, BASE, bearer, type ApiHarness } from './api/api-harness.js'

// The devtools API over every store: the listing (newest first, paged, filtered), a conversation
// as turns, explain, definitions, what-if, the SSE stream, and how it refuses bad requests.

let clockAt = Date.UTC(2026, 0, 1)
/** A store clock that never repeats a millisecond, so "newest first" is the order of the writes. */
const clock = (): number => (clockAt += 1)

const errorOf = async (response: Response): Promise<DevtoolsErrorBody['error']> => ((await response.json()) as DevtoolsErrorBody).error

describe.each(everyStore('devtools', 'devtools API'))('devtools API on %s', (_name, makeStore) => {
  const harness = async (): Promise<ApiHarness> => apiHarness(await makeStore({ clock }))

  it('a conversation is its messages beside its turns: every kind, the route, the states, the record', async () => {
    const h = await harness()
    await allKinds(h, 'c-kinds')
    const detail = await h.json<ConversationDetail>('/conversations/c-kinds')
    expect(detail.known).toBe(true)
    expect(detail.definition).toEqual({ id: 'lost-card', revision: 1 })
    expect(detail.turns.map((turn) => [turn.kind, turn.routeId])).toEqual([
      ['deterministic', 'greet'],
      ['agentic', null],
      ['failed', null],
      ['repaired', 'typo-help'],
      ['fallback', 'old-menu'],
      ['deterministic', 'start'],
      ['refused', null],
      ['form', null],
      ['form', null],
      ['deterministic', 'address-yes'],
      ['deterministic', 'express'],
      ['deterministic', 'order'],
      ['unavailable', null],
    ])
    expect(detail.turns.map((turn) => `${turn.fromState}>${turn.toState}`)).toEqual([
      'greeting>greeting', 'greeting>greeting', 'greeting>greeting', 'greeting>greeting', 'greeting>greeting',
      'greeting>identify', 'identify>identify', 'identify>identify', 'identify>confirmAddress', 'confirmAddress>chooseDelivery',
      'chooseDelivery>lookup', 'lookup>done', 'done>done',
    ])
    expect(detail.path).toEqual(['greeting', 'identify', 'confirmAddress', 'chooseDelivery', 'lookup', 'done'])
    expect(detail.state).toBe('done')
    expect(detail.context).toMatchObject({ digits: '4821', postcode: 'SW1A 1AA', delivery: 'express', tracking: 'LC-4821' })
    expect(detail.running).toBe(false)
    // the messages side by side: each user message and its answer point at their turn
    expect(detail.messages).toHaveLength(26)
    expect(detail.messages[0]).toMatchObject({ role: 'user', text: 'hi', turn: 0 })
    expect(detail.messages[20]).toMatchObject({ role: 'user', text: 'Express', uiEvent: 'express', turn: 10 })
    const failed = detail.turns[2]
    expect(failed).toMatchObject({ errorCode: expect.any(String), record: null, signature: 'unsigned' })
    expect(failed?.adapterCalls).toEqual([{ type: 'model', messageId: failed?.answerIds[0], status: 'error', errorCode: failed?.errorCode }])
    expect(detail.turns[1]?.adapterCalls).toEqual([{ type: 'model', messageId: detail.turns[1]?.answerIds[0], status: 'complete' }])
    const start = detail.turns[5]
    expect(start?.record).toMatchObject({ v: 1, kind: 'deterministic', routeId: 'start', event: 'start', fromState: 'greeting', toState: 'identify' })
    expect(start).toMatchObject({ event: 'start', signature: 'unsigned', recordStale: false, adapterCalls: [] })
    expect(start?.timings.turnMs).toBeGreaterThanOrEqual(0)
    // the phases the chat server stored with each answer: route resolution; the adapter's for an agentic turn
    expect(Object.keys(start?.timings ?? {}).sort()).toEqual(['routeMs', 'storeBeforeWriteMs', 'turnMs'])
    expect(Object.keys(detail.turns[1]?.timings ?? {}).sort()).toEqual(['adapterFirstChunkMs', 'adapterMs', 'routeMs', 'storeBeforeWriteMs', 'turnMs'])
    // the state the devtools report is the state a resumed session reaches on the same history
    const stored = await h.store.load('c-kinds')
    const session = createChatSession(apiChat, { sessionId: 'check', lint: false })
    session.sync(stored?.messages ?? [], { trusted: true })
    expect(detail.state).toBe(session.getSnapshot().state)
    expect(detail.context).toEqual(session.getSnapshot().context)
    session.dispose()
  })

  it('lists newest first, a page at a time, with what each conversation is doing', async () => {
    const h = await harness()
    for (const id of ['c-1', 'c-2', 'c-3', 'c-4', 'c-5']) await h.turn(id, '/start')
    await h.turn('c-2', 'crash')
    await h.turn('c-3', '4821')
    const first = await h.json<ConversationListPage>('/conversations?limit=2')
    expect(first.conversations.map((item) => item.id)).toEqual(['c-3', 'c-2'])
    expect(first.conversations[0]).toMatchObject({ known: true, definition: { id: 'lost-card', revision: 1 }, state: 'identify', lastKind: 'form', failedTurns: 0, turnCount: 2, messageCount: 4, owner: 'developer' })
    expect(first.conversations[1]).toMatchObject({ state: 'identify', lastKind: 'failed', failedTurns: 1 })
    expect(first.nextCursor).toEqual(expect.any(String))
    const second = await h.json<ConversationListPage>(`/conversations?limit=2&cursor=${encodeURIComponent(first.nextCursor ?? '')}`)
    expect(second.conversations.map((item) => item.id)).toEqual(['c-5', 'c-4'])
    const third = await h.json<ConversationListPage>(`/conversations?limit=2&cursor=${encodeURIComponent(second.nextCursor ?? '')}`)
    expect(third.conversations.map((item) => item.id)).toEqual(['c-1'])
    expect(third.nextCursor).toBeUndefined()
    // a write moves a conversation to the top
    await h.turn('c-1', '1234')
    expect((await h.json<ConversationListPage>('/conversations?limit=1')).conversations[0]?.id).toBe('c-1')
    // filters on what only the history says
    expect((await h.json<ConversationListPage>('/conversations?failed=1')).conversations.map((item) => item.id)).toEqual(['c-2'])
    expect((await h.json<ConversationListPage>('/conversations?lastKind=form')).conversations.map((item) => item.id)).toEqual(['c-1', 'c-3'])
    expect((await h.json<ConversationListPage>('/conversations?state=identify&lastKind=deterministic')).conversations.map((item) => item.id)).toEqual(['c-5', 'c-4'])
    expect((await h.json<ConversationListPage>('/conversations?state=done')).conversations).toEqual([])
    expect((await h.json<ConversationListPage>('/conversations?revision=1&definition=lost-card')).conversations).toHaveLength(5)
    expect((await h.json<ConversationListPage>('/conversations?revision=2')).conversations).toEqual([])
    // a filtered page goes on from where it stopped
    const filtered = await h.json<ConversationListPage>('/conversations?state=identify&limit=1')
    const rest = await h.json<ConversationListPage>(`/conversations?state=identify&limit=10&cursor=${encodeURIComponent(filtered.nextCursor ?? '')}`)
    expect([...filtered.conversations, ...rest.conversations].map((item) => item.id)).toEqual(['c-1', 'c-3', 'c-2', 'c-5', 'c-4'])
  })

  it('shows a write and a deletion at once (the listing reads the store on every request)', async () => {
    const h = apiHarness(await makeStore({ clock }))
    await h.turn('c-a', '/start')
    await h.turn('c-b', '/start')
    await h.turn('c-c', '/start')
    expect((await h.json<ConversationDetail>('/conversations/c-a')).turns).toHaveLength(1)
    await h.turn('c-a', '4821')
    // the kept walk of c-a was of version 1: the header says 2 now
    const again = await h.json<ConversationDetail>('/conversations/c-a')
    expect(again.turns.map((turn) => turn.kind)).toEqual(['deterministic', 'form'])
    expect(again.version).toBe(2)
    const ids = async (query = ''): Promise<string[]> => (await h.json<ConversationListPage>(`/conversations${query}`)).conversations.map((item) => item.id)
    expect(await ids()).toEqual(['c-a', 'c-c', 'c-b'])
    expect(await ids('?lastKind=deterministic')).toEqual(['c-c', 'c-b'])
    // deleted by another instance: gone from the next listing, filtered or not, without being opened
    await h.store.delete('c-b')
    expect(await ids()).toEqual(['c-a', 'c-c'])
    expect(await ids('?lastKind=deterministic')).toEqual(['c-c'])
    await h.store.delete('c-c')
    expect((await h.get('/conversations/c-c')).status).toBe(404)
    expect(await ids()).toEqual(['c-a'])
    // a page boundary on a deleted conversation's cursor goes on from where it was
    await h.turn('c-d', '/start')
    const first = await h.json<ConversationListPage>('/conversations?limit=1')
    expect(first.conversations.map((item) => item.id)).toEqual(['c-d'])
    await h.store.delete('c-d')
    expect(await ids(`?cursor=${encodeURIComponent(first.nextCursor ?? '')}`)).toEqual(['c-a'])
  })

  it('explains a stored user message in the state it was sent in, as explainTurn does', async () => {
    const h = await harness()
    await allKinds(h, 'c-explain')
    const detail = await h.json<ConversationDetail>('/conversations/c-explain')
    const yes = detail.turns[9]
    const explained = await h.json<MessageExplanation>(`/conversations/c-explain/messages/${yes?.userMessageId ?? ''}/explain`)
    expect(explained).toMatchObject({ conversationId: 'c-explain', messageId: yes?.userMessageId, state: 'confirmAddress', input: 'yes', outcome: { kind: 'route', routeId: 'address-yes', toState: 'chooseDelivery' } })
    const direct = await explainTurn(apiChat, { state: 'confirmAddress', context: detail.turns[9] ? { digits: '4821', postcode: 'SW1A 1AA' } : {} }, 'yes')
    expect(explained.routes).toEqual(direct.routes)
    expect(explained.text).toContain('route "address-yes" answers')
    // a UI event is explained as one
    const button = detail.turns[10]
    const event = await h.json<MessageExplanation>(`/conversations/c-explain/messages/${button?.userMessageId ?? ''}/explain`)
    expect(event).toMatchObject({ state: 'chooseDelivery', input: { uiEvent: 'express', text: 'Express' }, outcome: { routeId: 'express' } })
    // an answer is not a user message
    const answer = await h.get(`/conversations/c-explain/messages/${yes?.answerIds[0] ?? ''}/explain`)
    expect(answer.status).toBe(404)
  })

  it('describes each definition: states with their events and routes, transitions, the mermaid diagram', async () => {
    const h = await harness()
    const { definitions } = await h.json<DefinitionList>('/definitions')
    expect(definitions).toHaveLength(1)
    const [lostCard] = definitions
    expect(lostCard).toMatchObject({ id: 'lost-card', revision: 1, initial: 'greeting', mermaid: toMermaid(apiChat) })
    const confirm = lostCard?.states.find((state) => state.name === 'confirmAddress')
    expect(confirm).toMatchObject({ initial: false, final: false, events: ['confirm', 'wrongAddress', 'cancel'] })
    expect(confirm?.routes).toEqual(['greet', 'help', 'cancel', 'address-yes', 'address-no', 'typo-help', 'crash', 'old-menu'])
    expect(lostCard?.states.find((state) => state.name === 'identify')?.formSlots).toEqual(['digits', 'postcode'])
    expect(lostCard?.states.find((state) => state.name === 'done')).toMatchObject({ final: true, routes: ['greet', 'help', 'start-over', 'start-over-button', 'typo-help', 'crash', 'old-menu'] })
    expect(lostCard?.transitions).toContainEqual({ from: 'confirmAddress', event: 'confirm', to: 'chooseDelivery', guarded: true, inherited: false })
    expect(lostCard?.transitions).toContainEqual({ from: 'identify', event: 'cancel', to: 'greeting', guarded: false, inherited: true })
    expect(lostCard?.transitions.some((transition) => transition.from === 'greeting' && transition.event === 'cancel')).toBe(false)
    expect(lostCard?.routes.find((route) => route.id === 'start')).toEqual({ id: 'start', kind: 'command', event: 'start', restart: false, matches: '/start' })
  })

  it('what-if: which route would answer in a state, and why, without a stored conversation', async () => {
    const h = await harness()
    const answer = await h.post('/what-if', { definition: 'lost-card', state: 'confirmAddress', text: 'yes', context: { postcode: 'SW1A 1AA' } })
    expect(answer.status).toBe(200)
    const body = (await answer.json()) as WhatIfResponse
    expect(body).toMatchObject({ definition: { id: 'lost-card', revision: 1 }, state: 'confirmAddress', outcome: { kind: 'route', routeId: 'address-yes', toState: 'chooseDelivery' } })
    // without the postcode the transition's guard refuses and the route re-prompts
    const refused = (await (await h.post('/what-if', { definition: 'lost-card', state: 'confirmAddress', text: 'yes' })).json()) as WhatIfResponse
    expect(refused.outcome).toMatchObject({ kind: 'refused', routeId: 'address-yes' })
    const button = (await (await h.post('/what-if', { definition: 'lost-card', state: 'done', uiEvent: 'express' })).json()) as WhatIfResponse
    expect(button.outcome.kind).toBe('unavailable')
    const typo = await h.post('/what-if', { definition: 'lost-card', state: 'confirmAdress', text: 'yes' })
    expect(typo.status).toBe(400)
    expect(await errorOf(typo)).toMatchObject({ code: 'invalid_body', path: 'state', message: expect.stringContaining('did you mean "confirmAddress"') })
    const unknown = await h.post('/what-if', { definition: 'lost-crad', state: 'greeting', text: 'hi' })
    expect(unknown.status).toBe(404)
    expect(await errorOf(unknown)).toMatchObject({ code: 'unknown_definition', message: expect.stringContaining('did you mean "lost-card"') })
    expect((await h.post('/what-if', { definition: 'lost-card', state: 'greeting' })).status).toBe(400)
    expect((await h.post('/what-if', { definition: 'lost-card', state: 'greeting', text: 'hi', extra: 1 })).status).toBe(400)
    // nothing was stored
    expect((await h.store.list()).conversations).toEqual([])
  })

  it('refuses bad requests with a clear message: unknown id 404, bad cursor 400, unknown route 404, wrong method 405', async () => {
    const h = await harness()
    await h.turn('c-1', '/start')
    const missing = await h.get('/conversations/nope')
    expect(missing.status).toBe(404)
    expect(await errorOf(missing)).toEqual({ code: 'not_found', message: 'There is no conversation with this id.' })
    expect((await h.get('/conversations/nope/export')).status).toBe(404)
    expect((await h.get('/conversations/c-1/messages/nope/explain')).status).toBe(404)
    const cursor = await h.get('/conversations?cursor=garbage')
    expect(cursor.status).toBe(400)
    expect(await errorOf(cursor)).toMatchObject({ code: 'invalid_cursor', path: 'cursor', message: expect.stringContaining('pass nextCursor from the previous page unchanged') })
    const limit = await h.get('/conversations?limit=5000')
    expect(limit.status).toBe(400)
    expect(await errorOf(limit)).toMatchObject({ path: 'limit' })
    const kind = await h.get('/conversations?lastKind=agnetic')
    expect(await errorOf(kind)).toMatchObject({ path: 'lastKind', message: expect.stringContaining('did you mean "agentic"') })
    expect(await errorOf(await h.get('/conversations?stat=done'))).toMatchObject({ path: 'stat', message: expect.stringContaining('did you mean "state"') })
    expect((await h.get('/conversations/bad%20id')).status).toBe(400)
    expect((await h.get('/nothing-here')).status).toBe(404)
    const method = await h.devtools(new Request(`${BASE}/conversations`, { method: 'DELETE', headers: { authorization: 'Bearer devtools-api-token' } }))
    expect(method.status).toBe(405)
    expect(method.headers.get('allow')).toBe('GET')
    expect((await h.get('/what-if')).status).toBe(405)
  })

  it('answers 401 to every endpoint without the credentials, before reading anything', async () => {
    const h = await harness()
    await h.turn('c-1', '/start')
    const paths = ['/conversations', '/conversations/c-1', '/conversations/c-1/export', '/conversations/c-1/messages/x/explain', '/definitions', '/events', '/conversations/nope']
    for (const path of paths) {
      for (const headers of [{}, { authorization: 'Bearer wrong' }] as Record<string, string>[]) {
        const response = await h.devtools(new Request(`${BASE}${path}`, { headers }))
        expect(response.status, path).toBe(401)
        expect(await errorOf(response)).toMatchObject({ code: 'unauthorized' })
      }
    }
    const whatIf = await h.devtools(new Request(`${BASE}/what-if`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }))
    expect(whatIf.status).toBe(401)
  })

  it("a principal sees only its own conversations unless access is 'all'", async () => {
    const store = await makeStore({ clock })
    const chatAs = apiHarness(store)
    await chatAs.turn('mine', '/start')
    const who = (request: Request): string | null => request.headers.get('x-who')
    const owner = createDevtoolsHandler({ store, definitions: [apiChat], authenticate: who })
    const all = createDevtoolsHandler({ store, definitions: [apiChat], authenticate: who, access: 'all' })
    const asOther = { headers: { 'x-who': 'someone-else' } }
    expect(((await (await owner(new Request(`${BASE}/conversations`, asOther))).json()) as ConversationListPage).conversations).toEqual([])
    expect((await owner(new Request(`${BASE}/conversations/mine`, asOther))).status).toBe(404)
    expect((await owner(new Request(`${BASE}/conversations/mine`, { headers: { 'x-who': 'developer' } }))).status).toBe(200)
    expect(((await (await all(new Request(`${BASE}/conversations`, asOther))).json()) as ConversationListPage).conversations.map((item) => item.id)).toEqual(['mine'])
  })

  it('streams conversation writes as server-sent events, and ends when the client goes away', async () => {
    const h = apiHarness(await makeStore({ clock }), { events: { pollMs: 10 } })
    await h.turn('before', '/start')
    const abort = new AbortController()
    const response = await h.devtools(new Request(`${BASE}/events`, { headers: { authorization: 'Bearer devtools-api-token' }, signal: abort.signal }))
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
    const reader = (response.body as ReadableStream<Uint8Array>).getReader()
    const decoder = new TextDecoder()
    let text = ''
    const until = async (pattern: RegExp): Promise<void> => {
      while (!pattern.test(text)) {
        const { done, value } = await reader.read()
        if (done) throw new Error(`the stream ended before ${String(pattern)}: ${text}`)
        text += decoder.decode(value)
      }
    }
    await until(/event: ready/)
    await h.turn('after', '/start')
    await until(/event: conversation\ndata: \{"id":"after"/)
    await h.turn('after', '1234')
    await until(/"id":"after"[^\n]*"version":2/)
    // the conversation written before the stream opened is not news
    expect(text).not.toContain('"id":"before"')
    abort.abort()
    let ended = false
    for (let i = 0; i < 100 && !ended; i++) ended = (await reader.read()).done
    expect(ended).toBe(true)
    // close() ends the streams still open, and the handler answers 503 after it
    const open = await h.devtools(new Request(`${BASE}/events`, { headers: { authorization: 'Bearer devtools-api-token' } }))
    const second = (open.body as ReadableStream<Uint8Array>).getReader()
    await second.read()
    h.devtools.close()
    let closed = false
    for (let i = 0; i < 100 && !closed; i++) closed = (await second.read()).done
    expect(closed).toBe(true)
    const after = await h.get('/conversations')
    expect(after.status).toBe(503)
    expect(await errorOf(after)).toMatchObject({ code: 'shutting_down' })
  })
})

describe('signed decision records', () => {
  it('says verified with the sessions\' recordKey, signed without it, forged when a record was changed', async () => {
    const key = 'devtools-api-record-key-0123456789'
    const store = memoryStore({ clock })
    const h = apiHarness(store, { recordKey: key })
    await h.turn('c-signed', '/start')
    await h.turn('c-signed', '4821')
    const verified = await h.json<ConversationDetail>('/conversations/c-signed')
    expect(verified.turns.map((turn) => turn.signature)).toEqual(['verified', 'verified'])
    const withoutKey = createDevtoolsHandler({ store, definitions: [apiChat], authenticate: 'none' })
    const signed = (await (await withoutKey(new Request(`${BASE}/conversations/c-signed`))).json()) as ConversationDetail
    expect(signed.turns.map((turn) => turn.signature)).toEqual(['signed', 'signed'])
    // a record whose context patch was edited after it was signed
    const stored = await store.load('c-signed')
    const messages = (stored?.messages ?? []).map((message) => {
      const record = (message.metadata as { chatrail?: { assign?: object } } | undefined)?.chatrail
      return record?.assign ? { ...message, metadata: { ...message.metadata, chatrail: { ...record, assign: { digits: '9999' } } } } : message
    })
    await store.append('c-signed', { expectedVersion: stored?.version ?? 0, truncateAfter: null, messages, definition: { id: 'lost-card', revision: 1 } })
    const forged = await h.json<ConversationDetail>('/conversations/c-signed')
    expect(forged.turns.map((turn) => turn.signature)).toEqual(['verified', 'forged'])
  })
})

describe('createDevtoolsHandler options', () => {
  it('takes authenticate and refuses to be built without it', () => {
    expect(() => createDevtoolsHandler({ store: {} as never, definitions: [apiChat], authenticate: undefined as never })).toThrow(/authenticate/)
    expect(() => createDevtoolsHandler({ store: {} as never, definitions: [apiChat, apiChat], authenticate: bearer })).toThrow(/two definitions have the id "lost-card"/)
  })
})
