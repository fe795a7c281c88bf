import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { memoryStore, type ConversationStore } from '../../src/store/index.js'
import { createChatHandler, type ChatHandlerOptions } from '../../src/server/index.js'
import { countingAgent, deliveryDefinition, listen, userMessage, type Ctx, type Listening } from './support/harness.js'

// Every refusal over real HTTP: a status, a JSON body { error: { code, message, path? } } naming
// the field at fault, no internal text, and nothing stored.

const json = { 'content-type': 'application/json' }
const body = (value: unknown): string => JSON.stringify(value)
const turn = (messages: unknown[], extra: Record<string, unknown> = {}) => body({ id: 'c1', messages, trigger: 'submit-message', ...extra })

describe('createChatHandler: refusals', () => {
  let store: ConversationStore
  let http: Listening
  let agent: ReturnType<typeof countingAgent>
  let errors: unknown[]
  const start = async (options: Partial<ChatHandlerOptions<Ctx>> = {}) => {
    http = await listen(createChatHandler({ definition: deliveryDefinition(agent), store, authenticate: 'none', onError: (error) => errors.push(error), ...options }))
  }
  beforeEach(() => {
    store = memoryStore()
    agent = countingAgent()
    errors = []
  })
  afterEach(async () => {
    await http.close()
    await store.close()
  })

  const cases: Array<[string, RequestInit & { query?: string }, number, Record<string, unknown>]> = [
    ['malformed JSON', { method: 'POST', headers: json, body: '{"id":' }, 400, { code: 'invalid_json' }],
    ['no messages', { method: 'POST', headers: json, body: body({ id: 'c1', trigger: 'submit-message' }) }, 400, { code: 'invalid_body', path: 'messages' }],
    ['a bad trigger', { method: 'POST', headers: json, body: turn([userMessage('u1', 'hi')], { trigger: 'resubmit' }) }, 400, { code: 'invalid_body', path: 'trigger' }],
    ['a message without parts', { method: 'POST', headers: json, body: turn([{ id: 'u1', role: 'user' }]) }, 400, { code: 'invalid_body', path: 'messages.0.parts' }],
    ['an unsafe conversation id', { method: 'POST', headers: json, body: body({ id: '../etc', messages: [userMessage('u1', 'hi')], trigger: 'submit-message' }) }, 400, { path: 'id' }],
    ['a last message that is not the user', { method: 'POST', headers: json, body: turn([userMessage('u1', 'hi'), { id: 'a1', role: 'assistant', parts: [] }]) }, 400, { path: 'messages.1.role' }],
    ['an empty user message', { method: 'POST', headers: json, body: turn([userMessage('u1', '   ')]) }, 400, { path: 'messages.0.parts' }],
    ['an unsafe UI event', { method: 'POST', headers: json, body: turn([userMessage('u1', 'Yes', { chatrail: { event: 'x y' } })]) }, 400, { path: 'messages.0.metadata.chatrail.event' }],
    ['a form body', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'id=c1' }, 415, { code: 'unsupported_media_type' }],
    ['PUT', { method: 'PUT', headers: json, body: '{}' }, 405, { code: 'method_not_allowed' }],
    ['GET without an id', { method: 'GET' }, 400, { code: 'missing_id', path: 'id' }],
    ['a regenerate of a message never stored', { method: 'POST', headers: json, body: turn([userMessage('u9', 'hi')], { trigger: 'regenerate-message', messageId: 'a9' }) }, 404, { code: 'unknown_message' }],
  ]

  it.each(cases)('%s → %i', async (_name, init, status, error) => {
    await start()
    const response = await fetch(http.url, init)
    expect(response.status).toBe(status)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    const answer = (await response.json()) as { error: { message: string } }
    expect(answer.error).toMatchObject(error)
    expect(answer.error.message.length).toBeGreaterThan(10)
    expect(await store.load('c1')).toBeUndefined()
    expect(agent.calls()).toBe(0)
  })

  it('a conversation stored under another definition is 409 definition_mismatch, and stays as it was', async () => {
    await store.append('c1', { expectedVersion: 0, messages: [{ id: 'x1', role: 'user', content: 'hi', status: 'complete', createdAt: new Date(0) }], definition: { id: 'other', revision: 1 } })
    await start()
    const response = await fetch(http.url, { method: 'POST', headers: json, body: turn([userMessage('u1', '/start')]) })
    expect(response.status).toBe(409)
    expect(await response.json()).toMatchObject({ error: { code: 'definition_mismatch' } })
    expect((await fetch(`${http.url}?id=c1`)).status).toBe(409)
    expect((await store.load('c1'))?.version).toBe(1)
  })

  it("a user message reusing an answer's id is 400 duplicate_id, and changes nothing", async () => {
    await start()
    await (await fetch(http.url, { method: 'POST', headers: json, body: turn([userMessage('u1', '/start')]) })).text()
    const stored = await store.load('c1')
    const answerId = stored?.messages[1]?.id as string
    const response = await fetch(http.url, { method: 'POST', headers: json, body: turn([userMessage(answerId, 'hello')]) })
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ error: { code: 'duplicate_id', path: 'messages' } })
    expect((await store.load('c1'))?.version).toBe(stored?.version)
  })

  it('405 names the methods served', async () => {
    await start()
    expect((await fetch(http.url, { method: 'PATCH' })).headers.get('allow')).toBe('GET, POST, DELETE')
  })

  it('a body over limits.maxBodyBytes is 413, whether or not Content-Length tells', async () => {
    await start({ limits: { maxBodyBytes: 200 } })
    const large = turn([userMessage('u1', 'x'.repeat(500))])
    const declared = await fetch(http.url, { method: 'POST', headers: json, body: large })
    expect(declared.status).toBe(413)
    expect(await declared.json()).toMatchObject({ error: { code: 'body_too_large' } })
    // chunked: no Content-Length, the limit is counted while reading
    const streamed = await fetch(http.url, {
      method: 'POST', headers: json, duplex: 'half',
      body: new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode(large)); c.close() } }),
    } as RequestInit)
    expect(streamed.status).toBe(413)
    expect(await store.load('c1')).toBeUndefined()
  })

  it('authenticate: null is 401 and nothing runs; a principal goes through', async () => {
    await start({ authenticate: (request) => (request.headers.get('authorization') === 'Bearer s3cret-token' ? 'user-1' : null) })
    const refused = await fetch(http.url, { method: 'POST', headers: json, body: turn([userMessage('u1', '/start')]) })
    expect(refused.status).toBe(401)
    expect(await refused.json()).toMatchObject({ error: { code: 'unauthorized' } })
    expect((await fetch(`${http.url}?id=c1`)).status).toBe(401)
    expect(await store.load('c1')).toBeUndefined()
    const allowed = await fetch(http.url, { method: 'POST', headers: { ...json, authorization: 'Bearer s3cret-token' }, body: turn([userMessage('u1', '/start')]) })
    expect(allowed.status).toBe(200)
    expect(allowed.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1')
    await allowed.text()
    expect((await store.load('c1'))?.messages).toHaveLength(2)
  })

  it('authenticate is required: omitting it is a TypeError naming the fix', () => {
    expect(() => createChatHandler({ definition: deliveryDefinition(agent), store } as unknown as ChatHandlerOptions<Ctx>)).toThrow(/authenticate: 'none'/)
  })

  it('an internal failure answers 500 with a code only; the details go to onError', async () => {
    const broken: ConversationStore = { ...memoryStore(), load: () => Promise.reject(new Error('connection string postgres://admin:pw@db leaked')) }
    await start({ store: broken })
    const response = await fetch(`${http.url}?id=c1`)
    expect(response.status).toBe(500)
    const text = await response.text()
    expect(JSON.parse(text)).toEqual({ error: { code: 'internal_error', message: 'The server failed to handle this request.' } })
    expect(text).not.toContain('postgres://')
    expect(errors).toHaveLength(1)
  })

  it('an agent error ends the stream with an error part carrying a code, is stored as failed, frees the conversation, and a retry runs it again', async () => {
    let failures = 1
    const flaky = { createSource: () => ({ abort: () => undefined, async *stream() {
      if (failures-- > 0) {
        yield { type: 'text' as const, content: 'half an ans' }
        yield { type: 'error' as const, content: 'provider said: internal detail' }
        return
      }
      yield { type: 'text' as const, content: 'Recovered.' }
      yield { type: 'done' as const }
    } }) }
    const definition = deliveryDefinition(agent)
    await start({ definition: { ...definition, chat: { ...definition.chat, adapter: flaky } } })
    const response = await fetch(http.url, { method: 'POST', headers: json, body: turn([userMessage('u1', 'free text')]) })
    const text = await response.text()
    expect(text).toContain('"type":"error","errorText":"AGENT_ERROR"')
    expect(text).toContain('"finishReason":"error"')
    expect(text).not.toContain('internal detail')
    const stored = await store.load('c1')
    expect(stored?.messages.map((m) => [m.role, m.content, m.status, m.metadata])).toEqual([['user', 'free text', 'complete', undefined], ['assistant', 'half an ans', 'error', { error: { code: 'AGENT_ERROR' }, timings: { routeMs: expect.any(Number), adapterFirstChunkMs: expect.any(Number), adapterMs: expect.any(Number), storeBeforeWriteMs: expect.any(Number) } }]])
    // the lease was released: the retry of the same message runs the turn again and replaces the failed answer
    const retry = await (await fetch(http.url, { method: 'POST', headers: json, body: turn([userMessage('u1', 'free text')]) })).text()
    expect(retry).toContain('"delta":"Recovered."')
    expect(retry).not.toContain('"type":"error"')
    const after = await store.load('c1')
    expect(after?.messages.map((m) => [m.role, m.content, m.status])).toEqual([['user', 'free text', 'complete'], ['assistant', 'Recovered.', 'complete']])
  })

  it('a turn that outlives limits.turnTimeoutMs ends with TURN_TIMEOUT, is stored as failed and frees the conversation', async () => {
    const open = agent.hold() // the agent never finishes on its own
    await start({ limits: { turnTimeoutMs: 100 } })
    const response = await fetch(http.url, { method: 'POST', headers: json, body: turn([userMessage('u1', 'free text')]) })
    const text = await response.text()
    expect(text).toContain('"type":"error","errorText":"TURN_TIMEOUT"')
    expect(text).toContain('"finishReason":"error"')
    expect(text).not.toMatch(/within \d+ ms|at .*\.ts:/) // a code, never the internal message or a stack
    const stored = await store.load('c1')
    expect(stored?.messages.map((m) => [m.role, m.content, m.status, m.metadata])).toEqual([['user', 'free text', 'complete', undefined], ['assistant', 'I', 'error', { error: { code: 'TURN_TIMEOUT' }, timings: { routeMs: expect.any(Number), adapterFirstChunkMs: expect.any(Number), adapterMs: expect.any(Number), storeBeforeWriteMs: expect.any(Number) } }]])
    open()
    // the conversation goes on past the failed turn
    const next = await (await fetch(http.url, { method: 'POST', headers: json, body: turn([userMessage('u2', '/start')]) })).text()
    expect(next).toContain('"delta":"Which day?"')
    expect((await store.load('c1'))?.messages.map((m) => [m.content, m.status])).toEqual([['free text', 'complete'], ['I', 'error'], ['/start', 'complete'], ['Which day?', 'complete']])
  })
})
