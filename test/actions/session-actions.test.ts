import { describe, expect, it } from 'vitest'
import type { TrustedActionContext } from '../../src/contract/action-confirmation.js'
import type { ToolDefinition } from '../../src/contract/tool.js'
import { commandRoute, createChatSession, defineChat, textRoute, type ChatSession } from '../../src/index.js'
import { scriptedAdapter } from '../../src/testing/index.js'
import { drain, user } from '../conversation/helpers.js'

// session.withPolicy and session.createConfirmation: bound to the running session (its id, its
// current state), decisions in the turn's trace.

let policyFor: ((session: ChatSession) => { require: (action: string) => Promise<void> }) | undefined
let current: ChatSession | undefined

const definition = defineChat({
  id: 'shop',
  chat: { adapter: scriptedAdapter(['agent']) },
  conversation: {
    initial: 'browsing',
    states: {
      browsing: { on: { checkout: 'paying' }, actions: ['add-to-cart'] },
      paying: { on: { paid: 'done' }, actions: ['pay', 'refund'] },
      done: { final: true },
    },
    routes: [
      commandRoute({ id: 'checkout', command: '/checkout', event: 'checkout', response: 'Pay?' }),
      // a deterministic route gated by the policy: refused, it fails and the state stays
      textRoute({
        id: 'pay',
        text: 'pay',
        event: 'paid',
        response: async () => {
          await policyFor?.(current as ChatSession).require('pay')
          return 'Paid.'
        },
      }),
    ],
  },
})

async function send(session: ChatSession, text: string, history: ReturnType<typeof user>[]): Promise<void> {
  history.push(user(text))
  await drain(session.chat.adapter!.createSource({ messages: [...history] }))
}

describe('session.withPolicy', () => {
  it('is bound to the running session’s id: the same definition, two sessions, each its own', async () => {
    const a = createChatSession(definition, { sessionId: 'sa', lint: false })
    const b = createChatSession(definition, { sessionId: 'sb', lint: false })
    const context = (sessionId: string): TrustedActionContext => ({ sessionId, capabilities: ['cart'] })
    expect((await a.withPolicy({ 'add-to-cart': ['cart'] }, () => context('sa')).check('add-to-cart', 'propose')).reason).toBe('allowed')
    expect((await b.withPolicy({ 'add-to-cart': ['cart'] }, () => context('sa')).check('add-to-cart', 'propose')).reason).toBe('session-mismatch')
  })

  it('intersects the requirements with the current state’s actions', async () => {
    const session = createChatSession(definition, { sessionId: 's1', lint: false })
    const policy = session.withPolicy({ 'add-to-cart': [], pay: [] }, async () => ({ sessionId: 's1', capabilities: [] }))
    expect((await policy.check('pay', 'propose')).reason).toBe('action-unregistered')
    expect((await policy.check('add-to-cart', 'propose')).reason).toBe('allowed')
    await send(session, '/checkout', [])
    expect(session.getSnapshot().state).toBe('paying')
    expect((await policy.check('pay', 'propose')).reason).toBe('allowed')
    expect((await policy.check('add-to-cart', 'propose')).reason).toBe('action-unregistered')
  })

  it('gates a deterministic route (refused: the route fails, the state stays) and records decisions in the turn’s trace', async () => {
    let capabilities: string[] = []
    const session = createChatSession(definition, { sessionId: 's2', lint: false })
    const policy = session.withPolicy({ pay: ['card'] }, () => ({ sessionId: 's2', capabilities }))
    policyFor = () => policy
    current = session
    const history: ReturnType<typeof user>[] = []
    await send(session, '/checkout', history)
    await send(session, 'pay', history)
    expect(session.getSnapshot().state).toBe('paying')
    const refused = session.traces().at(-1)
    expect(refused?.outcome).toBe('error')
    expect(refused?.policy?.map((p) => [p.phase, p.action, p.reason])).toEqual([['route', 'pay', 'missing-capability']])
    capabilities = ['card', 'secret-capability']
    history.pop()
    await send(session, 'pay', history)
    expect(session.getSnapshot().state).toBe('done')
    const allowed = session.traces().at(-1)
    expect(allowed?.policy?.map((p) => p.reason)).toEqual(['allowed'])
    // decisions name the turn before them (the last traced one), never an input or a context
    expect(allowed?.policy?.[0]?.turnId).toBe(refused?.turnId)
    expect(JSON.stringify(session.traces())).not.toContain('secret-capability')
    policyFor = undefined
  })

  it('has no state gate when no state of the definition lists actions', async () => {
    const plain = defineChat({ id: 'plain', chat: { adapter: scriptedAdapter(['agent']) }, conversation: { initial: 'idle', states: { idle: {} }, routes: [] } })
    const session = createChatSession(plain, { sessionId: 's6', lint: false })
    const policy = session.withPolicy({ refund: [] }, () => ({ sessionId: 's6', capabilities: [] }))
    expect((await policy.check('refund', 'propose')).reason).toBe('allowed')
  })

  it('keeps at most 32 decisions for one turn’s trace', async () => {
    const session = createChatSession(definition, { sessionId: 's3', lint: false })
    const policy = session.withPolicy({ 'add-to-cart': [] }, () => ({ sessionId: 's3', capabilities: [] }))
    for (let i = 0; i < 50; i++) await policy.check('add-to-cart', 'propose')
    await send(session, '/checkout', [])
    expect(session.traces().at(-1)?.policy).toHaveLength(32)
    expect(policy.getTrace()).toHaveLength(50)
  })
})

describe('session.createConfirmation', () => {
  it('is bound to the session’s id and its clock, and checks the session’s policy at execute', async () => {
    let now = Date.UTC(2030, 0, 1)
    const session = createChatSession(definition, { sessionId: 's4', lint: false, clock: () => new Date(now) })
    let capabilities = ['cart']
    const policy = session.withPolicy({ 'add-to-cart': ['cart'] }, () => ({ sessionId: 's4', capabilities }))
    const runs: unknown[] = []
    const tools: ToolDefinition[] = [{ name: 'add-to-cart', requiresConfirmation: true, execute: (input) => void runs.push(input) }]
    const confirmations = session.createConfirmation({ tools, policy, ttlMs: 1000 })
    const first = await confirmations.propose({ name: 'add-to-cart', input: { sku: 'a' } })
    expect(first).toMatchObject({ sessionId: 's4', createdAt: now, expiresAt: now + 1000 })
    await expect(confirmations.approve(first.token, 'other-session')).rejects.toMatchObject({ code: 'CONFIRMATION_NOT_FOUND' })
    expect((await confirmations.approve(first.token, 's4')).status).toBe('approved')
    const second = await confirmations.propose({ name: 'add-to-cart', input: { sku: 'b' } })
    capabilities = []
    expect((await confirmations.approve(second.token, 's4')).status).toBe('rejected')
    capabilities = ['cart']
    const third = await confirmations.propose({ name: 'add-to-cart', input: { sku: 'c' } })
    now += 1000
    expect((await confirmations.approve(third.token, 's4')).status).toBe('expired')
    expect(runs).toEqual([{ sku: 'a' }])
  })
})

describe('the actions proxies (their module loads on first use)', () => {
  it('answers synchronously before the module arrives and forwards every call, listener and dispose after', async () => {
    const session = createChatSession(definition, { sessionId: 's5', lint: false })
    const policy = session.withPolicy({ 'add-to-cart': [] }, () => ({ sessionId: 's5', capabilities: [] }))
    // created in this task: nothing has loaded yet, the synchronous reads answer empty
    expect(policy.getTrace()).toEqual([])
    const tools: ToolDefinition[] = [{ name: 'add-to-cart', requiresConfirmation: true, execute: () => undefined }]
    const confirmations = session.createConfirmation({ tools, policy })
    expect(confirmations.sessionId).toBe('s5')
    expect(confirmations.getSnapshot()).toEqual([])
    expect(confirmations.getByToolCall('call-1')).toBeUndefined()
    const heard: string[] = []
    const unsubscribe = confirmations.subscribe((change) => heard.push(change.record.status))
    const proposed = await confirmations.propose({ name: 'add-to-cart', input: {} }, { toolCallId: 'call-1' })
    expect(heard).toEqual(['pending'])
    expect(confirmations.getSnapshot().map((record) => record.token)).toEqual([proposed.token])
    expect(confirmations.getByToolCall('call-1')?.token).toBe(proposed.token)
    unsubscribe()
    expect((await confirmations.approve(proposed.token, 's5')).status).toBe('approved')
    expect(heard).toEqual(['pending'])
    expect(policy.getTrace().map((trace) => [trace.phase, trace.reason])).toEqual([['propose', 'allowed'], ['execute', 'allowed']])
    // a coordinator disposed before its module arrives tells its listeners nothing after
    const early = session.createConfirmation({ tools })
    const late: unknown[] = []
    early.subscribe((change) => late.push(change))
    early.dispose()
    expect((await early.propose({ name: 'add-to-cart', input: {} })).status).toBe('pending')
    expect(late).toEqual([])
  })
})
