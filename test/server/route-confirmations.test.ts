import type { UIMessage } from 'ai'
import { afterEach, describe, expect, it } from 'vitest'
import { defineComponents, standardCatalog } from '../../src/components/index.js'
import type { ToolDefinition } from '../../src/contract/tool.js'
import { choiceActionRoute } from '../../src/conversation/actions.js'
import { commandRoute, defineChat } from '../../src/index.js'
import { createChatHandler } from '../../src/server/index.js'
import { memoryStore } from '../../src/store/index.js'
import { listen, userMessage } from './support/harness.js'

/**
 * A served session hands its routes the conversation's coordinator over the store
 * (`ctx.confirmations`): a route's proposal is a record the approve/reject endpoints decide, with
 * the conversation's principal, from any tab or instance, once.
 */

const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close()
})

const components = defineComponents(standardCatalog)

describe('routes propose through the served conversation\'s coordinator', () => {
  it('a choice\'s action becomes a stored record of the principal; two approvals at once execute it once', async () => {
    const refunds: string[] = []
    const refund: ToolDefinition = { name: 'refund', requiresConfirmation: true, execute: (input) => void refunds.push(String(input.order)) }
    const definition = defineChat({
      id: 'refunds',
      chat: {},
      components,
      conversation: {
        initial: 'idle',
        states: { idle: {} },
        routes: [
          commandRoute({ id: 'ask', command: '/refund', response: () => ['Order A-17 never arrived.', components.render('choice-list', { choices: [{ id: 'refund', label: 'Refund it', action: { name: 'refund', input: { order: 'A-17' } } }] }, { instanceId: 'next' })] }),
          // no `confirmations` option: the session's own, over the handler's store
          choiceActionRoute({ actions: ['refund'], components }),
        ],
        fallback: { response: 'Say /refund.' },
      },
    })
    const store = memoryStore()
    const handler = createChatHandler({ definition, store, authenticate: (request) => request.headers.get('x-user'), confirmations: { tools: [refund] } })
    const http = await listen(handler)
    closers.push(async () => {
      await http.close()
      await handler.close({ deadlineMs: 1 })
      await store.close()
    })
    const as = (user: string, body: unknown): Promise<Response> => fetch(http.url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-user': user }, body: JSON.stringify(body) })

    const first = await as('alice', { id: 'r1', trigger: 'submit-message', messages: [userMessage('u1', '/refund')] })
    expect(first.status).toBe(200)
    await first.text()
    const answerId = (await store.load('r1'))?.messages[1]?.id as string
    const click: UIMessage = { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'Refund it' }], metadata: { chatrail: { interaction: { messageId: answerId, instanceId: 'next', componentKey: 'choice-list', event: 'select', value: 'refund' } } } }
    const stored = (await store.load('r1'))?.messages ?? []
    const second = await as('alice', { id: 'r1', trigger: 'submit-message', messages: [...stored.map((m) => ({ id: m.id, role: m.role, parts: [{ type: 'text', text: m.content }] })), click] })
    expect(second.status).toBe(200)
    expect(await second.text()).toContain('approval-request')

    const records = await store.listConfirmations?.('r1')
    expect(records).toEqual([expect.objectContaining({ status: 'pending', principal: 'alice', action: { name: 'refund', input: { order: 'A-17' } } })])
    const token = records?.[0]?.token as string
    // another principal cannot see or decide it
    expect((await as('bob', { id: 'r1', action: 'approve-action', token })).status).toBe(404)
    const answers = await Promise.all([as('alice', { id: 'r1', action: 'approve-action', token }), as('alice', { id: 'r1', action: 'approve-action', token })])
    expect(answers.map((answer) => answer.status)).toEqual([200, 200])
    expect(refunds).toEqual(['A-17'])
  })
})
