import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ToolDefinition } from '../../src/contract/tool.js'
import { createCapabilityPolicy } from '../../src/conversation/actions.js'
import { createChatHandler, createStoredConfirmation, type ChatHandler } from '../../src/server/index.js'
import type { ConversationStore } from '../../src/store/index.js'
import { everyStore } from './support/every-store.js'
import { countingAgent, deliveryDefinition, userMessage } from './support/harness.js'

// The approve/reject endpoints: POST { id, action: 'approve-action' | 'reject-action' | 'list-actions', token? }.
// The app proposes on the server (createStoredConfirmation over the same store); any handler
// instance on the store answers the client's decision, and the store's compare-and-swap makes
// exactly one approval execute.

const stores = everyStore('confirm', 'confirmation endpoints')
const T0 = Date.UTC(2030, 0, 1)
const authenticate = (request: Request): string | null => request.headers.get('authorization')?.replace(/^Bearer /, '') || null

describe.each(stores)('confirmation endpoints: %s', (_name, makeStore) => {
  let store: ConversationStore
  let time: number
  let runs: Array<{ amount: unknown; key: string | undefined }>
  let tools: ToolDefinition[]
  let handlers: ChatHandler[]
  beforeEach(async () => {
    time = T0
    store = await makeStore({ clock: () => time })
    runs = []
    tools = [{ name: 'refund', requiresConfirmation: true, execute: async (input, context) => { runs.push({ amount: input.amount, key: context.idempotencyKey }); await new Promise((resolve) => setTimeout(resolve, 5)); return 'refunded' } }]
    handlers = []
  }, 60_000)
  afterEach(async () => {
    await store.close()
  })

  const handler = (extra: Partial<Parameters<typeof createChatHandler>[0]> = {}): ChatHandler => {
    const made = createChatHandler({ definition: deliveryDefinition(countingAgent()), store, authenticate, clock: () => time, confirmations: { tools, ttlMs: 60_000 }, ...extra })
    handlers.push(made)
    return made
  }
  const post = (h: ChatHandler, who: string | undefined, body: unknown): Promise<Response> =>
    h(new Request('http://chat.test/api/chat', { method: 'POST', headers: { 'content-type': 'application/json', ...(who ? { authorization: `Bearer ${who}` } : {}) }, body: JSON.stringify(body) }))
  const propose = (conversationId: string, principal: string, amount = 5) =>
    createStoredConfirmation({ store, conversationId, principal, tools, ttlMs: 60_000, clock: () => time }).propose({ name: 'refund', input: { amount } })

  it('approve executes once; approving again answers the approved record and runs nothing', async () => {
    const h = handler()
    const { token, idempotencyKey } = await propose('c1', 'alice')
    const first = await post(h, 'alice', { id: 'c1', action: 'approve-action', token })
    expect(first.status).toBe(200)
    const body = (await first.json()) as { confirmation: Record<string, unknown> }
    expect(body.confirmation).toMatchObject({ token, status: 'approved', decidedBy: 'alice', action: { name: 'refund', input: { amount: 5 } }, outcome: { status: 'complete' } })
    // what a client sees has no claim and no idempotency key
    expect(Object.keys(body.confirmation)).not.toEqual(expect.arrayContaining(['claim']))
    expect(JSON.stringify(body)).not.toContain(idempotencyKey)
    const again = await post(h, 'alice', { id: 'c1', action: 'approve-action', token })
    expect(((await again.json()) as { confirmation: { status: string } }).confirmation.status).toBe('approved')
    expect(runs).toEqual([{ amount: 5, key: idempotencyKey }])
  })

  it('two handler instances, two clients approving one token at once: exactly one execution', async () => {
    const a = handler()
    const b = handler()
    const { token } = await propose('c2', 'alice')
    const answers = await Promise.all([post(a, 'alice', { id: 'c2', action: 'approve-action', token }), post(b, 'alice', { id: 'c2', action: 'approve-action', token }), post(a, 'alice', { id: 'c2', action: 'approve-action', token })])
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200])
    expect(runs).toHaveLength(1)
    expect((await store.loadConfirmation?.(token))?.status).toBe('approved')
  })

  it('reject: never executes; a later approve answers the rejected record', async () => {
    const h = handler()
    const { token } = await propose('c3', 'alice')
    const rejected = await post(h, 'alice', { id: 'c3', action: 'reject-action', token, reason: 'wrong amount' })
    expect(((await rejected.json()) as { confirmation: unknown }).confirmation).toMatchObject({ status: 'rejected', reason: 'wrong amount', decidedBy: 'alice' })
    expect(((await (await post(h, 'alice', { id: 'c3', action: 'approve-action', token })).json()) as { confirmation: { status: string } }).confirmation.status).toBe('rejected')
    expect(runs).toEqual([])
  })

  it('after expiry an approve expires it and never executes', async () => {
    const h = handler()
    const { token } = await propose('c4', 'alice')
    time += 60_000
    const late = await post(h, 'alice', { id: 'c4', action: 'approve-action', token })
    expect(((await late.json()) as { confirmation: unknown }).confirmation).toMatchObject({ status: 'expired', decidedBy: 'expiry' })
    expect(runs).toEqual([])
  })

  it('another principal, another conversation, an unknown token: 404 and nothing runs', async () => {
    const h = handler()
    // alice's stored conversation, with a proposal in it
    expect(await (await post(h, 'alice', { id: 'c5', messages: [userMessage('u1', '/start')], trigger: 'submit-message' })).text()).toContain('Which day?')
    await expect.poll(async () => (await store.load('c5'))?.owner).toBe('alice')
    const { token } = await propose('c5', 'alice')
    const attempts = [
      post(h, 'bob', { id: 'c5', action: 'approve-action', token }),
      post(h, 'bob', { id: 'c5', action: 'reject-action', token }),
      post(h, 'bob', { id: 'c5', action: 'list-actions' }),
      post(h, 'alice', { id: 'other', action: 'approve-action', token }),
      post(h, 'alice', { id: 'c5', action: 'approve-action', token: 'ct-AAAAAAAAAAAAAAAAAAAAAA' }),
    ]
    const answers = await Promise.all(attempts)
    expect(answers.map((r) => r.status)).toEqual([404, 404, 404, 404, 404])
    // a proposal in a conversation not stored yet is still only its principal's
    const early = await propose('c6', 'alice')
    expect((await post(h, 'bob', { id: 'c6', action: 'approve-action', token: early.token })).status).toBe(404)
    expect(runs).toEqual([])
    expect((await store.loadConfirmation?.(token))?.status).toBe('pending')
  })

  it('list-actions shows the conversation’s records (client view), expired ones swept', async () => {
    const h = handler()
    const one = await propose('c7', 'alice', 1)
    time += 30_000
    const two = await propose('c7', 'alice', 2)
    time += 30_000
    const listed = (await (await post(h, 'alice', { id: 'c7', action: 'list-actions' })).json()) as { confirmations: Array<{ token: string; status: string }> }
    expect(listed.confirmations.map((c) => [c.token, c.status])).toEqual([[one.token, 'expired'], [two.token, 'pending']])
  })

  it('the policy runs at execute: a capability revoked after the proposal rejects it', async () => {
    let capabilities = ['billing:write']
    const policy = (conversationId: string) => createCapabilityPolicy({ sessionId: conversationId, requirements: { refund: ['billing:write'] }, getContext: async () => ({ sessionId: conversationId, capabilities }) })
    const h = handler({ confirmations: { tools, policy } })
    const { token } = await createStoredConfirmation({ store, conversationId: 'c8', principal: 'alice', tools, policy, clock: () => time }).propose({ name: 'refund', input: { amount: 9 } })
    capabilities = []
    const answer = await post(h, 'alice', { id: 'c8', action: 'approve-action', token })
    expect(((await answer.json()) as { confirmation: unknown }).confirmation).toMatchObject({ status: 'rejected', decidedBy: 'policy', reason: 'policy: missing-capability' })
    expect(runs).toEqual([])
  })

  it('bad requests: 400 naming the field; a handler without confirmations: 501', async () => {
    const h = handler()
    const missing = await post(h, 'alice', { id: 'c9', action: 'approve-action' })
    expect(missing.status).toBe(400)
    expect(((await missing.json()) as { error: { path: string } }).error.path).toBe('token')
    expect((await post(h, 'alice', { id: 'not an id', action: 'approve-action', token: 'x' })).status).toBe(400)
    const plain = handler({ confirmations: undefined })
    const refused = await post(plain, 'alice', { id: 'c9', action: 'approve-action', token: 'x' })
    expect(refused.status).toBe(501)
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('confirmations_not_configured')
    const { saveConfirmation: _s, loadConfirmation: _l, listConfirmations: _c, ...older } = store
    const unsupported = handler({ store: { ...older, kind: 'older' } })
    const answer = await post(unsupported, 'alice', { id: 'c9', action: 'approve-action', token: 'x' })
    expect([answer.status, ((await answer.json()) as { error: { code: string } }).error.code]).toEqual([501, 'confirmations_unsupported'])
  })
})
