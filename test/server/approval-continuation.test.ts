import type { UIMessage } from 'ai'
import { afterEach, describe, expect, it } from 'vitest'
import { createChatHandler, type ChatHandler, type ChatHandlerOptions } from '../../src/server/index.js'
import { memoryStore, type ConversationStore } from '../../src/store/index.js'
import type { AnthropicServer } from '../support/anthropic-server.js'
import { eventually, listen, sendTurn, userMessage, type Listening } from './support/harness.js'
import { payingDefinition, startPayingModel, type PayingModelOptions, type PayRun } from './support/paying-chat.js'

/**
 * An approval through the endpoint door (`approve-action` / `reject-action`) continues the answer
 * paused on the call: the server resumes the turn itself, through the chat door's own path, stores
 * the continuation and records its parts for the resumable stream (`GET <api>/<id>/stream`). Every
 * hop is real: @ai-sdk/anthropic against the scripted Anthropic Messages server on 127.0.0.1, the
 * handler behind Node's HTTP server, the AI SDK's own transport and message reader.
 */

const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close()
})

type ToolPartView = { type: string; toolCallId: string; state: string; approval?: { id: string; approved?: boolean; reason?: string }; output?: unknown }
const toolParts = (message: UIMessage | undefined): ToolPartView[] => (message?.parts ?? []).filter((part) => part.type.startsWith('tool-')) as unknown as ToolPartView[]

interface Setup {
  /** One URL per instance (two handlers over one store when `instances` is 2). */
  readonly urls: readonly string[]
  readonly store: ConversationStore
  readonly model: AnthropicServer
  readonly runs: readonly PayRun[]
  readonly errors: unknown[]
}

async function setup(options: { instances?: number; extra?: Partial<ChatHandlerOptions>; model?: PayingModelOptions } = {}): Promise<Setup> {
  const model = await startPayingModel(options.model)
  closers.push(model.close)
  const runs: PayRun[] = []
  const definition = payingDefinition(model, runs)
  const store = memoryStore()
  const errors: unknown[] = []
  const handlers: ChatHandler[] = []
  const servers: Listening[] = []
  for (let i = 0; i < (options.instances ?? 1); i++) {
    const handler = createChatHandler({ definition, store, authenticate: 'none', confirmations: {}, onError: (error) => errors.push(error), ...options.extra })
    handlers.push(handler)
    servers.push(await listen(handler))
  }
  closers.push(async () => {
    for (const http of servers) await http.close()
    for (const handler of handlers) await handler.close({ deadlineMs: 1 })
    await store.close()
  })
  return { urls: servers.map((http) => http.url), store, model, runs, errors }
}

const post = (url: string, body: unknown): Promise<Response> => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
const mainRequests = (s: Setup) => s.model.requests.filter((request) => !request.side)

interface Paused {
  readonly messages: UIMessage[]
  readonly approvalId: string
  readonly token: string
}

async function pausedTurn(s: Setup, id: string): Promise<Paused> {
  const url = s.urls[0] as string
  const user = userMessage('u1', 'pay 5')
  const reply = await sendTurn(url, id, [user])
  const part = toolParts(reply.message)[0]
  expect(part).toMatchObject({ type: 'tool-pay', toolCallId: 'toolu_pay', state: 'approval-requested' })
  const listed = (await (await post(url, { id, action: 'list-actions' })).json()) as { confirmations: Array<{ token: string }> }
  return { messages: [user, reply.message as UIMessage], approvalId: part?.approval?.id as string, token: listed.confirmations[0]?.token as string }
}

/** useChat's request after `addToolApprovalResponse`. */
function chatAnswer(paused: Paused, id: string, approved: boolean): unknown {
  const [user, answer] = paused.messages as [UIMessage, UIMessage]
  const parts = answer.parts.map((part) => (part.type === 'tool-pay' ? { ...part, state: 'approval-responded', approval: { id: paused.approvalId, approved } } : part))
  return { id, trigger: 'submit-message', messageId: answer.id, messages: [user, { ...answer, parts }] }
}

const storedAnswer = async (s: Setup, id: string) => (await s.store.load(id))?.messages[1]

describe('an endpoint decision continues the paused answer', () => {
  it('approve-action: the call runs once, the turn resumes on the server, its continuation is stored and streamed to a follower', async () => {
    // the continuation's model step waits a little, so the follower attaches while it runs
    const s = await setup({ model: { continuationDelayMs: 300 } })
    const url = s.urls[0] as string
    const paused = await pausedTurn(s, 'c1')
    const approved = await post(url, { id: 'c1', action: 'approve-action', token: paused.token })
    expect(approved.status).toBe(200)
    expect(await approved.json()).toMatchObject({ confirmation: { status: 'approved', outcome: { status: 'complete', result: '{"paid":5}' } }, continuing: true })

    // what useChat({ resume: true }) and chatrail's client ask: the running turn's stream
    const follower = await fetch(`${url}/c1/stream`)
    expect(follower.status).toBe(200)
    const streamed = await follower.text()
    expect(streamed).toContain(`"messageId":"${paused.messages[1]?.id}"`)
    expect(streamed).toContain('"type":"tool-output-available","toolCallId":"toolu_pay","output":{"paid":5}')
    expect(streamed).toContain('Done.')
    expect(streamed).toContain('"type":"finish"')

    await eventually(async () => (await storedAnswer(s, 'c1'))?.content === 'Paying. Done.')
    expect(s.runs).toEqual([{ key: `c1:${paused.approvalId}`, callId: 'toolu_pay' }])
    expect(mainRequests(s)).toHaveLength(2)
    expect(JSON.stringify(mainRequests(s)[1]?.body.messages)).toContain('{\\"paid\\":5}')
    // the stored answer shows the call answered and settled: a reload reads it as the chat door's continuation
    expect((await storedAnswer(s, 'c1'))?.metadata?.tools).toEqual([expect.objectContaining({ toolCallId: 'toolu_pay', state: 'output-available', approval: expect.objectContaining({ approved: true }) })])
    expect(s.errors).toEqual([])
  })

  it('reject-action: the turn resumes with the denial as the tool result the model reads; nothing runs', async () => {
    const s = await setup()
    const url = s.urls[0] as string
    const paused = await pausedTurn(s, 'c2')
    const rejected = await post(url, { id: 'c2', action: 'reject-action', token: paused.token, reason: 'wrong payee' })
    expect(await rejected.json()).toMatchObject({ confirmation: { status: 'rejected', reason: 'wrong payee' }, continuing: true })
    await eventually(async () => (await storedAnswer(s, 'c2'))?.content === 'Paying. Done.')
    const read = JSON.stringify(mainRequests(s)[1]?.body.messages)
    expect(read).toContain('"tool_use_id":"toolu_pay"')
    expect(read).toContain('wrong payee')
    expect(s.runs).toEqual([])
    expect((await storedAnswer(s, 'c2'))?.metadata?.tools).toEqual([expect.objectContaining({ state: 'output-denied' })])
  })

  it('the chat door afterwards: the same answer gets the stored answer, a contrary one 409 approval_conflict; nothing runs again and the model is not called again', async () => {
    const s = await setup()
    const url = s.urls[0] as string
    const paused = await pausedTurn(s, 'c3')
    await post(url, { id: 'c3', action: 'approve-action', token: paused.token })
    await eventually(async () => (await storedAnswer(s, 'c3'))?.content === 'Paying. Done.')
    const same = await post(url, chatAnswer(paused, 'c3', true))
    expect(same.status).toBe(200)
    expect(await same.text()).toContain('Done.')
    const contrary = await post(url, chatAnswer(paused, 'c3', false))
    expect(contrary.status).toBe(409)
    expect(await contrary.json()).toMatchObject({ error: { code: 'approval_conflict' } })
    expect(s.runs).toHaveLength(1)
    expect(mainRequests(s)).toHaveLength(2)
  })

  it('two instances on one store, each approving the token at once: the call runs once and the answer continues once', async () => {
    const s = await setup({ instances: 2 })
    const [a, b] = s.urls as [string, string]
    const paused = await pausedTurn(s, 'c4')
    const answers = await Promise.all([post(a, { id: 'c4', action: 'approve-action', token: paused.token }), post(b, { id: 'c4', action: 'approve-action', token: paused.token })])
    const bodies = (await Promise.all(answers.map((answer) => answer.json()))) as Array<{ confirmation: { status: string }; continuing?: boolean }>
    expect(bodies.map((body) => body.confirmation.status)).toEqual(['approved', 'approved'])
    // one continues it; the other says so too when it found that continuation running (a client then follows it)
    expect(bodies.some((body) => body.continuing === true)).toBe(true)
    await eventually(async () => (await storedAnswer(s, 'c4'))?.content === 'Paying. Done.')
    // a late decision finds nothing left to continue
    const late = await post(b, { id: 'c4', action: 'approve-action', token: paused.token })
    expect(await late.json()).not.toHaveProperty('continuing')
    expect(s.runs).toHaveLength(1)
    expect(mainRequests(s)).toHaveLength(2)
    expect((await s.store.load('c4'))?.messages).toHaveLength(2)
  })

  it('a decision that leaves another call of the answer pending does not continue it yet', async () => {
    const s = await setup({ model: { firstAnswer: [{ type: 'tool_use', id: 'toolu_a', name: 'pay', input: { amount: 1 } }, { type: 'tool_use', id: 'toolu_b', name: 'pay', input: { amount: 2 } }], continuation: 'Both settled.' } })
    const url = s.urls[0] as string
    await sendTurn(url, 'c5', [userMessage('u1', 'pay twice')])
    const listed = ((await (await post(url, { id: 'c5', action: 'list-actions' })).json()) as { confirmations: Array<{ token: string; action: { input: { amount: number } } }> }).confirmations
    expect(listed).toHaveLength(2)
    const [first, second] = [...listed].sort((x, y) => x.action.input.amount - y.action.input.amount) as [typeof listed[0], typeof listed[0]]
    expect(await (await post(url, { id: 'c5', action: 'approve-action', token: first.token })).json()).not.toHaveProperty('continuing')
    expect(mainRequests(s)).toHaveLength(1)
    expect(await (await post(url, { id: 'c5', action: 'reject-action', token: second.token })).json()).toMatchObject({ continuing: true })
    await eventually(async () => (await s.store.load('c5'))?.messages[1]?.content === 'Both settled.')
    expect(s.runs).toHaveLength(1)
  })
})
