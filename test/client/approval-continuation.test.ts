import { afterEach, describe, expect, it } from 'vitest'
import { createChatHandler } from '../../src/server/index.js'
import { memoryStore } from '../../src/store/index.js'
import { serverApprovals } from '../../src/view/approval-source.js'
import { createRemoteChatBinding } from '../../src/view/remote-chat-binding.js'
import { eventually, listen } from '../server/support/harness.js'
import { payingDefinition, startPayingModel, type PayRun } from '../server/support/paying-chat.js'

/**
 * chatrail's own client (the remote binding under `useRemoteChatSession` and the serve page) when
 * an approval card decides a call the answer paused on: the server continues the answer, and the
 * page shows the continued answer in place, without a new user message. Real hops: the binding's
 * httpAdapter and the approval source's POSTs to the handler behind Node's HTTP server, the
 * handler's model @ai-sdk/anthropic against the scripted Anthropic server.
 */

const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close()
})

async function setup() {
  const model = await startPayingModel()
  closers.push(model.close)
  const runs: PayRun[] = []
  const definition = payingDefinition(model, runs)
  const store = memoryStore()
  const handler = createChatHandler({ definition, store, authenticate: 'none', confirmations: {} })
  const http = await listen(handler)
  closers.push(async () => {
    await http.close()
    await handler.close({ deadlineMs: 1 })
    await store.close()
  })
  return { definition, http, runs, model }
}

describe('the remote binding shows an answer an approval card continued', () => {
  it('approve through the server source: the paused answer grows in place with the result, no new user message', async () => {
    const { definition, http, runs, model } = await setup()
    const binding = createRemoteChatBinding(definition, { api: http.url, conversationId: 'p1', restore: false })
    const off = binding.subscribe(() => undefined)
    await binding.controller.send('pay 5')
    const paused = binding.getState().chat.messages
    expect(paused.map((message) => message.role)).toEqual(['user', 'assistant'])
    expect(paused[1]?.content).toBe('Paying.')

    const source = serverApprovals({ api: http.url, conversationId: 'p1' })
    const [record] = await (source.list as NonNullable<typeof source.list>)()
    expect(record).toMatchObject({ status: 'pending', action: { name: 'pay' } })
    expect(await source.approve(record?.token as string)).toMatchObject({ status: 'approved' })

    await eventually(async () => binding.getState().chat.messages.at(-1)?.content === 'Paying. Done.')
    const shown = binding.getState().chat.messages
    expect(shown.map((message) => message.role)).toEqual(['user', 'assistant'])
    expect(shown[1]?.toolCalls).toEqual([expect.objectContaining({ id: 'toolu_pay', status: 'complete', result: '{"paid":5}' })])
    expect(binding.getState().chat.status).toBe('idle')
    expect(runs).toHaveLength(1)
    expect(model.requests.filter((request) => !request.side)).toHaveLength(2)
    off()
  })

  it('a binding of another conversation is not touched', async () => {
    const { definition, http } = await setup()
    const binding = createRemoteChatBinding(definition, { api: http.url, conversationId: 'p2', restore: false })
    const other = createRemoteChatBinding(definition, { api: http.url, conversationId: 'p3', restore: false })
    const off = binding.subscribe(() => undefined)
    const offOther = other.subscribe(() => undefined)
    await binding.controller.send('pay 5')
    const source = serverApprovals({ api: http.url, conversationId: 'p2' })
    const [record] = await (source.list as NonNullable<typeof source.list>)()
    await source.reject(record?.token as string, 'not today')
    await eventually(async () => binding.getState().chat.messages.at(-1)?.content === 'Paying. Done.')
    expect(binding.getState().chat.messages[1]?.toolCalls).toEqual([expect.objectContaining({ id: 'toolu_pay', status: 'error' })])
    expect(other.getState().chat.messages).toEqual([])
    off()
    offOther()
  })
})
