import type { UIMessage } from 'ai'
import { afterEach, describe, expect, it } from 'vitest'
import { createCapabilityPolicy } from '../../src/conversation/actions.js'
import { createChatHandler, type ChatHandlerOptions } from '../../src/server/index.js'
import { memoryStore, type ConversationStore } from '../../src/store/index.js'
import type { AnthropicServer } from '../support/anthropic-server.js'
import { eventually, listen, sendTurn, userMessage, type Listening } from './support/harness.js'
import { payingDefinition, startPayingModel, type PayRun } from './support/paying-chat.js'

/**
 * One confirmation surface: a model's call to a tool that requires confirmation is a confirmation
 * record (its `toolCallId` the approval id), and the server's approve/reject endpoints and the AI
 * SDK's `addToolApprovalResponse` are two doors to the record's one compare-and-swap. Every hop is
 * real: @ai-sdk/anthropic against the scripted Anthropic Messages server on 127.0.0.1, the handler
 * behind Node's HTTP server, the AI SDK's own transport and message reader.
 */

const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close()
})

type ToolPartView = { type: string; toolCallId: string; state: string; approval?: { id: string; approved?: boolean; reason?: string }; output?: unknown }
const toolParts = (message: UIMessage | undefined): ToolPartView[] => (message?.parts ?? []).filter((part) => part.type.startsWith('tool-')) as unknown as ToolPartView[]

interface Setup {
  readonly http: Listening
  readonly store: ConversationStore
  readonly model: AnthropicServer
  /** Every execute of the tool: its idempotency key and call id. */
  readonly runs: readonly PayRun[]
  readonly advance: (ms: number) => void
}

async function setup(extra: Partial<ChatHandlerOptions> = {}): Promise<Setup> {
  const model = await startPayingModel()
  closers.push(model.close)
  const runs: PayRun[] = []
  const definition = payingDefinition(model, runs)
  const store = memoryStore()
  let time = Date.UTC(2031, 0, 1)
  const handler = createChatHandler({ definition, store, authenticate: 'none', clock: () => time, confirmations: {}, ...extra })
  const http = await listen(handler)
  closers.push(async () => {
    await http.close()
    await handler.close({ deadlineMs: 1 })
    await store.close()
  })
  return { http, store, model, runs, advance: (ms) => void (time += ms) }
}

const post = (url: string, body: unknown): Promise<Response> => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

interface Paused {
  readonly messages: UIMessage[]
  readonly approvalId: string
  readonly token: string
}

/** A turn that pauses on `pay`, and the record it proposed. */
async function pausedTurn(s: Setup, id: string): Promise<Paused> {
  const user = userMessage('u1', 'pay 5')
  const reply = await sendTurn(s.http.url, id, [user])
  const part = toolParts(reply.message)[0]
  expect(part).toMatchObject({ type: 'tool-pay', toolCallId: 'toolu_pay', state: 'approval-requested' })
  const approvalId = part?.approval?.id as string
  const listed = (await (await post(s.http.url, { id, action: 'list-actions' })).json()) as { confirmations: Array<Record<string, unknown>> }
  expect(listed.confirmations).toEqual([expect.objectContaining({ status: 'pending', toolCallId: approvalId, action: { name: 'pay', input: { amount: 5 } } })])
  return { messages: [user, reply.message as UIMessage], approvalId, token: listed.confirmations[0]?.token as string }
}

/** useChat's request after `addToolApprovalResponse`: the paused answer with its tool part answered. */
function answered(paused: Paused, id: string, approved: boolean, reason?: string): unknown {
  const [user, answer] = paused.messages as [UIMessage, UIMessage]
  const parts = answer.parts.map((part) => (part.type === 'tool-pay' ? { ...part, state: 'approval-responded', approval: { id: paused.approvalId, approved, ...(reason === undefined ? {} : { reason }) } } : part))
  return { id, trigger: 'submit-message', messageId: answer.id, messages: [user, { ...answer, parts }] }
}

const recordOf = async (s: Setup, token: string) => s.store.loadConfirmation?.(token)

describe('AI SDK tool approvals and confirmation records: one surface, two doors', () => {
  it('a paused call proposes a record; approve-action runs the call once and continues the answer with its result; a chat approval then gets that answer', async () => {
    const s = await setup()
    const paused = await pausedTurn(s, 'c1')
    const record = await recordOf(s, paused.token)
    // the same key the call runs under through either door
    expect(record).toMatchObject({ toolCallId: paused.approvalId, idempotencyKey: `c1:${paused.approvalId}` })
    const stored = await s.store.load('c1')
    expect(stored?.messages[1]?.metadata?.toolLoop).toMatchObject({ calls: [{ id: 'toolu_pay', approvalId: paused.approvalId, token: paused.token }] })

    const approved = await post(s.http.url, { id: 'c1', action: 'approve-action', token: paused.token })
    expect(approved.status).toBe(200)
    expect(await approved.json()).toMatchObject({ confirmation: { status: 'approved', outcome: { status: 'complete', result: '{"paid":5}' } }, continuing: true })
    expect(s.runs).toEqual([{ key: `c1:${paused.approvalId}`, callId: 'toolu_pay' }])
    // the server resumed the answer with the recorded result (approval-continuation.test.ts follows it)
    await eventually(async () => (await s.store.load('c1'))?.messages[1]?.content === 'Paying. Done.')

    // the other door afterwards: useChat's addToolApprovalResponse gets the continued answer, nothing runs again
    const resumed = await post(s.http.url, answered(paused, 'c1', true))
    expect(resumed.status).toBe(200)
    expect(await resumed.text()).toContain('Done.')
    expect(s.runs).toHaveLength(1)
    const main = s.model.requests.filter((request) => !request.side)
    expect(main).toHaveLength(2)
    expect(JSON.stringify(main[1]?.body.messages)).toContain('"type":"tool_result","tool_use_id":"toolu_pay"')
    expect(JSON.stringify(main[1]?.body.messages)).toContain('{\\"paid\\":5}')
  })

  it('the chat approval first: the resumed turn decides the record and runs the call; approve-action then answers the decided record, nothing runs again', async () => {
    const s = await setup()
    const paused = await pausedTurn(s, 'c2')
    const resumed = await post(s.http.url, answered(paused, 'c2', true))
    expect(resumed.status).toBe(200)
    expect(await resumed.text()).toContain('"type":"tool-output-available","toolCallId":"toolu_pay","output":{"paid":5}')
    await eventually(async () => (await s.store.load('c2'))?.messages[1]?.content === 'Paying. Done.')
    expect(s.runs).toEqual([{ key: `c2:${paused.approvalId}`, callId: 'toolu_pay' }])
    expect(await recordOf(s, paused.token)).toMatchObject({ status: 'approved', decidedBy: 'anonymous', outcome: { status: 'complete', result: '{"paid":5}' } })
    const late = await post(s.http.url, { id: 'c2', action: 'approve-action', token: paused.token })
    expect(((await late.json()) as { confirmation: unknown }).confirmation).toMatchObject({ status: 'approved' })
    expect(s.runs).toHaveLength(1)
  })

  it('reject-action first: the answer continues with the denial the model reads; a chat approval then is 409 approval_conflict and runs nothing', async () => {
    const s = await setup()
    const paused = await pausedTurn(s, 'c3')
    const rejected = await post(s.http.url, { id: 'c3', action: 'reject-action', token: paused.token, reason: 'wrong amount' })
    expect(((await rejected.json()) as { confirmation: unknown }).confirmation).toMatchObject({ status: 'rejected', reason: 'wrong amount' })
    await eventually(async () => (await s.store.load('c3'))?.messages[1]?.content === 'Paying. Done.')
    expect(JSON.stringify(s.model.requests.filter((request) => !request.side)[1]?.body.messages)).toContain('wrong amount')
    const conflict = await post(s.http.url, answered(paused, 'c3', true))
    expect(conflict.status).toBe(409)
    expect(await conflict.json()).toMatchObject({ error: { code: 'approval_conflict' } })
    // the same denial through the chat gets the stored answer
    const denied = await post(s.http.url, answered(paused, 'c3', false))
    expect(denied.status).toBe(200)
    await denied.text()
    expect(s.runs).toEqual([])
    expect(s.model.requests.filter((request) => !request.side)).toHaveLength(2)
  })

  it('the chat denial first: approve-action answers the rejected record and never runs the call', async () => {
    const s = await setup()
    const paused = await pausedTurn(s, 'c4')
    const denied = await post(s.http.url, answered(paused, 'c4', false, 'not now'))
    expect(denied.status).toBe(200)
    await denied.text()
    expect(await recordOf(s, paused.token)).toMatchObject({ status: 'rejected', reason: 'not now' })
    const late = await post(s.http.url, { id: 'c4', action: 'approve-action', token: paused.token })
    expect(((await late.json()) as { confirmation: unknown }).confirmation).toMatchObject({ status: 'rejected' })
    expect(s.runs).toEqual([])
  })

  it('both doors at once: the call runs exactly once, and the turn goes on with that one result', async () => {
    const s = await setup()
    const paused = await pausedTurn(s, 'c5')
    const [door1, door2] = await Promise.all([post(s.http.url, { id: 'c5', action: 'approve-action', token: paused.token }), post(s.http.url, answered(paused, 'c5', true))])
    expect(door1.status).toBe(200)
    // door 2 either went on with the recorded result, or found the call being carried out or the
    // answer being continued by door 1 (retry later): then its retry gets the continued answer
    expect([200, 409]).toContain(door2.status)
    const body = await door2.text()
    if (door2.status === 409) {
      expect(body).toMatch(/approval_in_progress|conversation_busy/)
      await eventually(async () => (await post(s.http.url, answered(paused, 'c5', true))).status === 200)
    }
    await eventually(async () => (await s.store.load('c5'))?.messages[1]?.content === 'Paying. Done.')
    expect(s.runs).toHaveLength(1)
    expect(s.model.requests.filter((request) => !request.side)).toHaveLength(2)
  })

  it('an approval after the record expired never runs: approve-action expires it and the model reads that it expired; a late chat approval is refused', async () => {
    const s = await setup({ confirmations: { ttlMs: 60_000 } })
    const paused = await pausedTurn(s, 'c6')
    s.advance(60_000)
    const late = await post(s.http.url, { id: 'c6', action: 'approve-action', token: paused.token })
    expect(((await late.json()) as { confirmation: unknown }).confirmation).toMatchObject({ status: 'expired', decidedBy: 'expiry' })
    await eventually(async () => (await s.store.load('c6'))?.messages[1]?.content === 'Paying. Done.')
    expect(JSON.stringify(s.model.requests.filter((request) => !request.side)[1]?.body.messages)).toContain('expired')
    const resumed = await post(s.http.url, answered(paused, 'c6', true))
    expect(resumed.status).toBe(409)
    expect(await resumed.json()).toMatchObject({ error: { code: 'approval_conflict' } })
    expect(s.runs).toEqual([])
  })

  it('the handler\'s policy is checked before the call runs, through either door: refused, it never runs and the model reads why', async () => {
    const s = await setup({
      confirmations: { policy: (conversationId) => createCapabilityPolicy({ sessionId: conversationId, requirements: { pay: ['payments:write'] }, getContext: () => ({ sessionId: conversationId, capabilities: [] }) }) },
    })
    const paused = await pausedTurn(s, 'c8')
    const resumed = await post(s.http.url, answered(paused, 'c8', true))
    expect(resumed.status).toBe(200)
    await resumed.text()
    expect(await recordOf(s, paused.token)).toMatchObject({ status: 'rejected', decidedBy: 'policy', reason: 'policy: missing-capability' })
    expect(JSON.stringify(s.model.requests.filter((request) => !request.side)[1]?.body.messages)).toContain('policy: missing-capability')
    // the endpoint finds the refusal too
    const late = await post(s.http.url, { id: 'c8', action: 'approve-action', token: paused.token })
    expect(((await late.json()) as { confirmation: unknown }).confirmation).toMatchObject({ status: 'rejected', decidedBy: 'policy' })
    expect(s.runs).toEqual([])
  })

  it('without confirmations served, tool approvals keep no records (the chat alone answers them)', async () => {
    const s = await setup({ confirmations: undefined })
    const reply = await sendTurn(s.http.url, 'c7', [userMessage('u1', 'pay 5')])
    expect(toolParts(reply.message)[0]?.state).toBe('approval-requested')
    expect(await s.store.listConfirmations?.('c7')).toEqual([])
  })
})
