import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { defineChat, type ChatDefinition } from '../../src/index.js'
import { createChatHandler } from '../../src/server/index.js'
import { memoryStore, type ConversationStore } from '../../src/store/index.js'
import { everyStore } from './support/every-store.js'
import { endlessAgent, planAgent } from './support/agents.js'
import { eventually, listen, type Listening, readUntil, sendTurn, userMessage } from './support/harness.js'

// Stop and dialog answers reach the instance running the turn: two handler instances on one store,
// sharing nothing but the store (as two processes would), a turn running on A, the control request
// sent to B. B leaves a signal in the store; A's turn polls it (limits.signalPollMs) and acts.

const stores = everyStore('control', 'stop and dialog answers')

const json = { 'content-type': 'application/json' }
const post = (url: string, body: unknown): Promise<Response> => fetch(url, { method: 'POST', headers: json, body: JSON.stringify(body) })
const chatOf = (adapter: ChatDefinition['chat']['adapter']): ChatDefinition =>
  defineChat({ id: 'control', chat: { adapter }, conversation: { initial: 'open', context: {}, states: { open: {} }, routes: [] } })

describe.each(stores)('stop and dialog answers across instances: %s', (_name, makeStore) => {
  let store: ConversationStore
  let a: Listening
  let b: Listening
  const serve = async (adapter: ChatDefinition['chat']['adapter']): Promise<void> => {
    const options = { definition: chatOf(adapter), store, authenticate: 'none' as const, limits: { signalPollMs: 25 } }
    a = await listen(createChatHandler(options))
    b = await listen(createChatHandler(options))
  }
  beforeEach(async () => {
    store = await makeStore()
  }, 60_000)
  afterEach(async () => {
    await a?.close()
    await b?.close()
    await store.close()
  })

  it('a stop sent to instance B stops the turn running on instance A; the answer so far is stored', async () => {
    const agent = endlessAgent(10)
    await serve(agent.adapter)
    const running = await post(a.url, { id: 'c1', messages: [userMessage('u1', 'talk forever')], trigger: 'submit-message' })
    const reader = (running.body as ReadableStream<Uint8Array>).getReader()
    let text = await readUntil(reader, (seen) => seen.includes('"text-delta"'))
    const stop = await post(b.url, { id: 'c1', action: 'stop' })
    expect(stop.status).toBe(200)
    expect(await stop.json()).toEqual({ stopped: true })
    text += await readUntil(reader, (seen) => seen.includes('[DONE]'))
    expect(text).toContain('"type":"finish","finishReason":"stop"')
    expect(text).not.toContain('"type":"error"')
    expect(agent.aborts()).toBe(1)
    const stored = await store.load('c1')
    const answer = stored?.messages[1]
    expect(stored?.messages.map((m) => m.role)).toEqual(['user', 'assistant'])
    expect(answer?.content).toMatch(/^word( word)*$/)
    expect(answer?.status).toBe('complete')
    // the lease was released: nothing is running, so a second stop stops nothing
    expect(await (await post(b.url, { id: 'c1', action: 'stop' })).json()).toEqual({ stopped: false })
    expect((await store.claim('c1', 'next', { leaseMs: 1000 })).status).toBe('claimed')
  })

  it('a stop for a conversation with no running turn stops nothing', async () => {
    await serve(endlessAgent().adapter)
    const response = await post(b.url, { id: 'quiet', action: 'stop' })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ stopped: false })
    expect(await store.load('quiet')).toBeUndefined()
  })

  it("a dialog answer sent to instance B reaches the live agent's pending dialog on instance A", async () => {
    const agent = planAgent()
    await serve(agent.adapter)
    const running = await post(a.url, { id: 'c1', messages: [userMessage('u1', 'make a plan')], trigger: 'submit-message' })
    const reader = (running.body as ReadableStream<Uint8Array>).getReader()
    // the pending dialog reaches the client mid-turn, as a data-chatrail part
    let text = await readUntil(reader, (seen) => seen.includes('"pendingDialog"'))
    expect(text).toMatch(/"type":"data-chatrail","data":\{[^\n]*"pendingDialog":\{"toolId":"plan-1","kind":"plan","prompt":"Ship it\?"/)
    const answer = await post(b.url, { id: 'c1', action: 'answer-dialog', toolId: 'plan-1', answer: { kind: 'plan', approved: true } })
    expect(answer.status).toBe(200)
    expect(await answer.json()).toEqual({ delivered: true })
    text += await readUntil(reader, (seen) => seen.includes('[DONE]'))
    expect(text).toContain('"delta":" Approved."')
    expect(agent.answers).toEqual([{ kind: 'plan', approved: true }])
    await eventually(async () => (await store.load('c1'))?.messages[1]?.content === 'Here is my plan. Approved.')
  })

  it("useChat's own stream reader takes the mid-turn dialog part: the message ends with the dialog gone", async () => {
    const agent = planAgent()
    await serve(agent.adapter)
    const turn = sendTurn(a.url, 'c2', [userMessage('u1', 'make a plan')])
    await eventually(async () => agent.pending())
    await eventually(async () => (await (await post(b.url, { id: 'c2', action: 'answer-dialog', toolId: 'plan-1', answer: { kind: 'plan', approved: false } })).json() as { delivered: boolean }).delivered)
    const reply = await turn
    expect(reply.text).toBe('Here is my plan. Rejected.')
    const snapshots = (reply.message?.parts ?? []).filter((part) => part.type === 'data-chatrail').map((part) => (part as { data: { agent?: { pendingDialog?: { toolId: string } } } }).data)
    expect(snapshots.length).toBeGreaterThanOrEqual(2)
    expect(snapshots.some((data) => data.agent?.pendingDialog?.toolId === 'plan-1')).toBe(true)
    expect(snapshots.at(-1)?.agent?.pendingDialog).toBeUndefined()
  })
})

describe('control requests: refusals', () => {
  let http: Listening
  let store: ConversationStore
  beforeEach(async () => {
    store = memoryStore()
    http = await listen(createChatHandler({ definition: chatOf(endlessAgent().adapter), store, authenticate: 'none' }))
  })
  afterEach(async () => {
    await http.close()
  })

  const cases: Array<[string, unknown, string]> = [
    ['an unknown action', { id: 'c1', action: 'pause' }, 'action'],
    ['a stop without an id', { action: 'stop' }, 'id'],
    ['an unsafe id', { id: '../x', action: 'stop' }, 'id'],
    ['a dialog answer without toolId', { id: 'c1', action: 'answer-dialog', answer: { kind: 'plan', approved: true } }, 'toolId'],
    ['a dialog answer of an unknown kind', { id: 'c1', action: 'answer-dialog', toolId: 't1', answer: { kind: 'vote' } }, 'answer'],
    ['a question answer without answers', { id: 'c1', action: 'answer-dialog', toolId: 't1', answer: { kind: 'question' } }, 'answer'],
    ['an empty toolId', { id: 'c1', action: 'answer-dialog', toolId: '', answer: { kind: 'plan', approved: false } }, 'toolId'],
  ]
  it.each(cases)('%s is 400 naming the field', async (_name, body, path) => {
    const response = await post(http.url, body)
    expect(response.status).toBe(400)
    const answer = (await response.json()) as { error: { code: string; path: string; message: string } }
    expect(answer.error.code).toBe('invalid_body')
    expect(answer.error.path.startsWith(path)).toBe(true)
    expect(answer.error.message).toMatch(/action|toolId|answer|id/)
  })

  it('a dialog answer with no turn running is not delivered', async () => {
    const response = await post(http.url, { id: 'c1', action: 'answer-dialog', toolId: 't1', answer: { kind: 'question', answers: [{ question: 'Which?', chosen: ['A'] }] } })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ delivered: false })
  })
})
