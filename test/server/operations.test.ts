import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createChatHandler, createHealthHandlers, type BeforeTurn, type ChatHandler, type ChatHandlerOptions, type TurnAttempt } from '../../src/server/index.js'
import { memoryStore, type ConversationStore } from '../../src/store/index.js'
import { everyStore } from './support/every-store.js'
import { countingAgent, deliveryDefinition, eventually, listen, userMessage, type Ctx, type Listening } from './support/harness.js'

// Operations (issue 29): CORS, the beforeTurn hook, graceful shutdown (handler.close()) and the
// health/ready handlers, over real HTTP.

const json = { 'content-type': 'application/json' }
const turnBody = (conversationId: string, messageId: string, text: string): string => JSON.stringify({ id: conversationId, messages: [userMessage(messageId, text)], trigger: 'submit-message' })

const stores = everyStore('operations', 'operations')

describe('cors', () => {
  let http: Listening
  afterEach(async () => {
    await http.close()
  })
  const start = async (options: Partial<ChatHandlerOptions<Ctx>>): Promise<void> => {
    http = await listen(createChatHandler({ definition: deliveryDefinition(countingAgent()), store: memoryStore(), authenticate: 'none', ...options }))
  }
  const preflight = (origin: string): Promise<Response> =>
    fetch(http.url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, authorization' } })

  it('answers an allowed origin\'s preflight, and marks its responses (errors too) and exposes Retry-After', async () => {
    await start({ cors: { origins: ['https://app.example.com'], credentials: true }, authenticate: (request) => (request.headers.get('authorization') === 'Bearer ok' ? 'ada' : null) })
    const answer = await preflight('https://app.example.com')
    expect(answer.status).toBe(204)
    expect(Object.fromEntries(answer.headers)).toMatchObject({
      'access-control-allow-origin': 'https://app.example.com',
      'access-control-allow-credentials': 'true',
      'access-control-allow-methods': 'GET, POST, DELETE',
      'access-control-allow-headers': 'content-type, authorization',
      'access-control-max-age': '600',
      vary: 'Origin',
    })
    const turn = await fetch(http.url, { method: 'POST', headers: { ...json, origin: 'https://app.example.com', authorization: 'Bearer ok' }, body: turnBody('c1', 'u1', '/start') })
    expect(turn.status).toBe(200)
    expect(turn.headers.get('access-control-allow-origin')).toBe('https://app.example.com')
    expect(turn.headers.get('access-control-expose-headers')).toBe('retry-after')
    expect(await turn.text()).toContain('Which day?')
    const refused = await fetch(`${http.url}?id=c1`, { headers: { origin: 'https://app.example.com' } })
    expect(refused.status).toBe(401)
    expect(refused.headers.get('access-control-allow-origin')).toBe('https://app.example.com')
  })

  it('gives another origin nothing: its preflight is 403 and its responses carry no CORS headers', async () => {
    await start({ cors: { origins: ['https://app.example.com'] } })
    const answer = await preflight('https://evil.example')
    expect(answer.status).toBe(403)
    expect(answer.headers.get('access-control-allow-origin')).toBeNull()
    expect(await answer.json()).toMatchObject({ error: { code: 'cors_origin_refused' } })
    const read = await fetch(`${http.url}?id=c1`, { headers: { origin: 'https://evil.example' } })
    expect(read.status).toBe(200)
    expect(read.headers.get('access-control-allow-origin')).toBeNull()
  })

  it("'*' answers any origin with '*'; a function decides per origin", async () => {
    await start({ cors: { origins: '*' } })
    expect((await preflight('https://anywhere.example')).headers.get('access-control-allow-origin')).toBe('*')
    await http.close()
    await start({ cors: { origins: (origin) => origin.endsWith('.example.com') } })
    expect((await preflight('https://a.example.com')).status).toBe(204)
    expect((await preflight('https://a.example.org')).status).toBe(403)
  })

  it('without the option nothing changes: OPTIONS is 405 and no CORS header is sent', async () => {
    await start({})
    const answer = await preflight('https://app.example.com')
    expect(answer.status).toBe(405)
    expect(answer.headers.get('access-control-allow-origin')).toBeNull()
  })

  it('refuses a configuration browsers would refuse, naming the fix', () => {
    const make = (cors: ChatHandlerOptions<Ctx>['cors']) => () => createChatHandler({ definition: deliveryDefinition(countingAgent()), store: memoryStore(), authenticate: 'none', cors })
    expect(make({ origins: '*', credentials: true })).toThrow(/list the origins instead/)
    expect(make({ origins: ['https://app.example.com/'] })).toThrow(/no path, no trailing slash/)
  })
})

describe('beforeTurn', () => {
  let http: Listening
  let store: ConversationStore
  let agent: ReturnType<typeof countingAgent>
  let errors: unknown[]
  beforeEach(() => {
    store = memoryStore()
    agent = countingAgent()
    errors = []
  })
  afterEach(async () => {
    await http.close()
    await store.close()
  })
  const start = async (beforeTurn: BeforeTurn): Promise<void> => {
    http = await listen(createChatHandler({ definition: deliveryDefinition(agent), store, authenticate: (request) => request.headers.get('x-user'), beforeTurn, onError: (error) => errors.push(error) }))
  }
  const send = (user: string, conversationId: string, messageId: string, text: string): Promise<Response> =>
    fetch(http.url, { method: 'POST', headers: { ...json, 'x-user': user }, body: turnBody(conversationId, messageId, text) })

  it('a rate limit refuses with 429 and Retry-After; nothing runs or is stored; an answered retry costs nothing', async () => {
    const seen: TurnAttempt[] = []
    const used = new Map<string, number>()
    await start(({ principal, conversationId, trigger, request }) => {
      seen.push({ principal, conversationId, trigger, request })
      const count = (used.get(principal ?? '') ?? 0) + 1
      used.set(principal ?? '', count)
      if (count > 2) return { status: 429, retryAfterSeconds: 42.5, message: 'You have used your 2 turns this minute.' }
    })
    expect((await send('ada', 'c1', 'u1', 'hello')).status).toBe(200)
    expect((await send('ada', 'c1', 'u2', 'again')).status).toBe(200)
    // a network retry of an answered message is answered from the store without asking the hook
    expect((await send('ada', 'c1', 'u2', 'again')).status).toBe(200)
    const refused = await send('ada', 'c1', 'u3', 'third')
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('43')
    expect(await refused.json()).toEqual({ error: { code: 'rate_limited', message: 'You have used your 2 turns this minute.' } })
    expect(seen.map((turn) => [turn.principal, turn.conversationId, turn.trigger, turn.request.headers.get('x-user')])).toEqual([
      ['ada', 'c1', 'submit-message', 'ada'], ['ada', 'c1', 'submit-message', 'ada'], ['ada', 'c1', 'submit-message', 'ada'],
    ])
    await eventually(async () => (await store.load('c1'))?.messages.length === 4)
    expect((await store.load('c1'))?.messages.map((message) => message.id).filter((id) => id.startsWith('u'))).toEqual(['u1', 'u2'])
    expect(agent.calls()).toBe(2)
    // another principal has their own allowance
    expect((await send('bob', 'c2', 'u1', 'hello')).status).toBe(200)
  })

  it('403 for a quota used up; a throwing hook is a 500 with its error to onError', async () => {
    await start(({ principal }) => {
      if (principal === 'broke') return { status: 403, code: 'quota_exhausted', message: 'Your plan has no turns left this month.' }
      if (principal === 'buggy') throw new Error('quota service down')
    })
    const quota = await send('broke', 'c1', 'u1', 'hello')
    expect(quota.status).toBe(403)
    expect(await quota.json()).toEqual({ error: { code: 'quota_exhausted', message: 'Your plan has no turns left this month.' } })
    const buggy = await send('buggy', 'c2', 'u1', 'hello')
    expect(buggy.status).toBe(500)
    expect((errors[0] as Error).message).toBe('quota service down')
    expect(await store.load('c1')).toBeUndefined()
    expect(await store.load('c2')).toBeUndefined()
  })
})

describe.each(stores)('graceful shutdown and readiness: %s', (_name, makeStore) => {
  let http: Listening
  let store: ConversationStore
  let agent: ReturnType<typeof countingAgent>
  let handler: ChatHandler
  beforeEach(async () => {
    store = await makeStore()
    agent = countingAgent('I am the agent.')
    handler = createChatHandler({ definition: deliveryDefinition(agent), store, authenticate: 'none' })
    http = await listen(handler)
  }, 60_000)
  afterEach(async () => {
    await http.close()
    await store.close()
  })
  const send = (conversationId: string, messageId: string, text: string): Promise<Response> => fetch(http.url, { method: 'POST', headers: json, body: turnBody(conversationId, messageId, text) })

  it('close() stops taking turns (503, Retry-After), lets the running turn finish and be stored, then answers 503 to everything', async () => {
    const open = agent.hold()
    const running = await send('c1', 'u1', 'a long question')
    const closed = handler.close({ deadlineMs: 60_000 })
    expect(handler.closing).toBe(true)
    const refused = await send('c2', 'u1', 'hello')
    expect(refused.status).toBe(503)
    expect(refused.headers.get('retry-after')).toBe('2')
    expect(await refused.json()).toMatchObject({ error: { code: 'shutting_down' } })
    // reads still work while the running turn drains
    expect((await fetch(`${http.url}?id=c1`)).status).toBe(200)
    let done = false
    void closed.then(() => (done = true))
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(done).toBe(false)
    open()
    expect(await running.text()).toContain('"finishReason":"stop"')
    await closed
    expect((await store.load('c1'))?.messages.map((message) => [message.content, message.status])).toEqual([['a long question', 'complete'], ['I am the agent.', 'complete']])
    expect((await fetch(`${http.url}?id=c1`)).status).toBe(503)
    expect(await store.load('c2')).toBeUndefined()
  })

  it('at the deadline a turn still running ends failed (SERVER_SHUTDOWN), stored, its lease released at once', async () => {
    agent.hold() // never opened
    const running = await send('c1', 'u1', 'a hung question')
    const started = Date.now()
    await handler.close({ deadlineMs: 100 })
    expect(Date.now() - started).toBeLessThan(5000)
    const text = await running.text()
    expect(text).toContain('"errorText":"SERVER_SHUTDOWN"')
    const stored = await store.load('c1')
    expect(stored?.messages.map((message) => [message.content, message.status, message.metadata?.error])).toEqual([['a hung question', 'complete', undefined], ['I', 'error', { code: 'SERVER_SHUTDOWN' }]])
    // released, not left to expire: another instance takes the conversation now
    expect((await store.claim('c1', 'next', { leaseMs: 30_000 })).status).toBe('claimed')
  })

  it('ready: 200 while the store answers, 503 shutting_down once the handler closes; health stays 200', async () => {
    const probes = createHealthHandlers({ store, handler })
    expect(probes.health().status).toBe(200)
    const ready = await probes.ready()
    expect(ready.status).toBe(200)
    expect(await ready.json()).toEqual({ status: 'ready', store: store.kind })
    await handler.close()
    const draining = await probes.ready()
    expect(draining.status).toBe(503)
    expect(draining.headers.get('retry-after')).toBe('5')
    expect(await draining.json()).toEqual({ status: 'unavailable', reason: 'shutting_down' })
    expect(probes.health().status).toBe(200)
  })
})

describe('ready: a store that fails or hangs', () => {
  it('is 503 store_unavailable, the error to onError; a hung store within timeoutMs', async () => {
    const errors: unknown[] = []
    const failing = { ...memoryStore(), load: () => Promise.reject(new Error('connection refused')) } as ConversationStore
    const answer = await createHealthHandlers({ store: failing, onError: (error) => errors.push(error) }).ready()
    expect(answer.status).toBe(503)
    expect(await answer.json()).toEqual({ status: 'unavailable', reason: 'store_unavailable' })
    expect((errors[0] as Error).message).toBe('connection refused')
    const hung = { ...memoryStore(), load: () => new Promise<never>(() => undefined) } as ConversationStore
    const started = Date.now()
    expect((await createHealthHandlers({ store: hung, timeoutMs: 50 }).ready()).status).toBe(503)
    expect(Date.now() - started).toBeLessThan(2000)
  })
})
