import { Chat } from '@ai-sdk/react'
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses, type UIMessage } from 'ai'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { aiSdkAdapter } from '../../src/ai-sdk/index.js'
import type { ToolDefinition } from '../../src/contract/tool.js'
import { defineChat, type ChatDefinition } from '../../src/index.js'
import { createChatHandler, type ChatHandler, type ChatHandlerOptions } from '../../src/server/index.js'
import type { ConversationStore } from '../../src/store/index.js'
import { scriptedModel, textParts, toolCallParts } from '../ai-sdk/mock-model.js'
import { everyStore } from './support/every-store.js'
import { eventually, listen, type Listening } from './support/harness.js'

// The AI SDK's tool-approval flow against the server: the AI SDK's own Chat (what useChat runs),
// unchanged, with `sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses`;
// the turn pauses on a tool that requires confirmation, its state stored, and the approval resumes
// it on another instance (a fresh handler: a restart in between), exactly once.

const stores = everyStore('approval', 'server tool approval')

type ToolPartView = { type: string; toolCallId: string; state: string; approval?: { id: string; approved?: boolean }; output?: unknown }
const toolParts = (message: UIMessage | undefined): ToolPartView[] => (message?.parts ?? []).filter((part) => part.type.startsWith('tool-')) as unknown as ToolPartView[]
const textOf = (message: UIMessage | undefined): string => (message?.parts ?? []).flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('')

const chatOf = (model: ReturnType<typeof scriptedModel>['model'], tools: ToolDefinition[]): ChatDefinition =>
  defineChat({ id: 'approval', chat: { adapter: aiSdkAdapter({ model, maxRetries: 0 }), tools }, conversation: { initial: 'open', context: {}, states: { open: {} }, routes: [] } })

/** What a dead instance can no longer do to the store: every write and lease operation. */
const WRITES: ReadonlySet<PropertyKey> = new Set(['append', 'claim', 'renew', 'release', 'signal', 'takeSignals', 'appendTurnParts'])

/** A tool that requires approval and has its effect once per idempotency key. */
function payTool(options: { hangWhile?: () => boolean } = {}): { tool: ToolDefinition; keys: Array<string | undefined>; effects: Set<string> } {
  const keys: Array<string | undefined> = []
  const effects = new Set<string>()
  const tool: ToolDefinition = {
    name: 'pay',
    requiresConfirmation: true,
    schema: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
    execute: async (args, context) => {
      keys.push(context.idempotencyKey)
      if (options.hangWhile?.()) {
        await new Promise<void>((resolve) => context.abortSignal?.addEventListener('abort', () => resolve(), { once: true }))
        throw new Error('aborted')
      }
      if (context.idempotencyKey !== undefined) effects.add(context.idempotencyKey)
      return { paid: args.amount }
    },
  }
  return { tool, keys, effects }
}

describe.each(stores)('tool approval: %s', (_name, makeStore) => {
  let store: ConversationStore
  const servers: Array<{ http: Listening; handler: ChatHandler }> = []
  const serve = async (definition: ChatDefinition, extra: Partial<ChatHandlerOptions> = {}, on: ConversationStore = store): Promise<{ http: Listening; handler: ChatHandler }> => {
    const handler = createChatHandler({ definition, store: on, authenticate: 'none', limits: { signalPollMs: 25 }, ...extra })
    const served = { http: await listen(handler), handler }
    servers.push(served)
    return served
  }
  /** The AI SDK's Chat, its requests sent to whichever instance `target` names at the time. */
  const chatClient = (id: string, target: () => string): Chat<UIMessage> =>
    new Chat<UIMessage>({
      id,
      transport: new DefaultChatTransport({ api: 'http://placeholder/api/chat', fetch: (_input, init) => fetch(target(), init) }),
      sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    })
  const settled = async (chat: Chat<UIMessage>): Promise<void> => eventually(async () => chat.status === 'ready' || chat.status === 'error')

  beforeEach(async () => {
    store = await makeStore()
  }, 60_000)
  afterEach(async () => {
    for (const { http, handler } of servers.splice(0)) {
      await http.close()
      await handler.close({ deadlineMs: 1 })
    }
    await store.close()
  })

  it('pauses on approval (stored, lease released), and the approval sent after a restart runs the tool once and the model goes on', async () => {
    const model = scriptedModel([toolCallParts('pay', { amount: 5 }), textParts('Paid 5.')])
    const pay = payTool()
    const first = await serve(chatOf(model.model, [pay.tool]))
    let target = first.http.url
    const chat = chatClient('c1', () => target)
    await chat.sendMessage({ text: 'pay 5' })
    await settled(chat)
    expect(chat.status).toBe('ready')
    const asked = toolParts(chat.lastMessage)
    expect(asked).toEqual([expect.objectContaining({ type: 'tool-pay', toolCallId: 'call-1', state: 'approval-requested' })])
    expect(pay.keys).toEqual([])
    expect(model.calls).toHaveLength(1)
    // stored: the pending call and the loop's state; the lease released
    const paused = (await store.load('c1'))?.messages[1]
    expect(paused?.metadata?.tools).toEqual([expect.objectContaining({ toolCallId: 'call-1', state: 'approval-requested', approval: { id: asked[0]?.approval?.id } })])
    expect(paused?.metadata?.toolLoop).toMatchObject({ step: 1, calls: [{ id: 'call-1', approvalId: asked[0]?.approval?.id }] })
    expect(await (await fetch(first.http.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 'c1', action: 'stop' }) })).json()).toEqual({ stopped: false })
    // GET restores the pending approval as useChat holds it
    const restored = (await (await fetch(`${first.http.url}?id=c1`)).json()) as { messages: UIMessage[] }
    expect(toolParts(restored.messages[1])).toEqual([expect.objectContaining({ state: 'approval-requested', approval: { id: asked[0]?.approval?.id } })])

    // a restart: the first instance is gone, a fresh one takes the approval
    await first.http.close()
    await first.handler.close()
    const second = await serve(chatOf(model.model, [pay.tool]))
    target = second.http.url
    await chat.addToolApprovalResponse({ id: asked[0]?.approval?.id as string, approved: true })
    await eventually(async () => model.calls.length === 2 && chat.status === 'ready')
    expect(pay.keys).toEqual([`c1:${asked[0]?.approval?.id}`])
    expect(chat.messages).toHaveLength(2)
    expect(toolParts(chat.lastMessage)).toEqual([expect.objectContaining({ state: 'output-available', output: { paid: 5 } })])
    expect(textOf(chat.lastMessage)).toBe('Paid 5.')
    // the model read the result of the approved call
    const results = model.calls[1]?.prompt.filter((message) => message.role === 'tool').flatMap((message) => message.content)
    expect(results).toEqual([expect.objectContaining({ type: 'tool-result', toolCallId: 'call-1', output: { type: 'text', value: '{"paid":5}' } })])
    const stored = await store.load('c1')
    expect(stored?.messages.map((message) => message.role)).toEqual(['user', 'assistant'])
    expect(stored?.messages[1]?.id).toBe(chat.lastMessage?.id)
    expect(stored?.messages[1]?.content).toBe('Paid 5.')
    expect(stored?.messages[1]?.metadata?.tools).toEqual([expect.objectContaining({ state: 'output-available', output: { paid: 5 }, approval: expect.objectContaining({ approved: true }) })])
    expect(stored?.messages[1]?.metadata?.toolLoop).toBeUndefined()
  })

  it('a denial is never run: the model reads the denial and the part is output-denied', async () => {
    const model = scriptedModel([toolCallParts('pay', { amount: 9 }), textParts('Not paid.')])
    const pay = payTool()
    const { http } = await serve(chatOf(model.model, [pay.tool]))
    const chat = chatClient('c2', () => http.url)
    await chat.sendMessage({ text: 'pay 9' })
    await settled(chat)
    const approvalId = toolParts(chat.lastMessage)[0]?.approval?.id as string
    await chat.addToolApprovalResponse({ id: approvalId, approved: false, reason: 'too much' })
    await eventually(async () => model.calls.length === 2 && chat.status === 'ready')
    expect(pay.keys).toEqual([])
    expect(toolParts(chat.lastMessage)).toEqual([expect.objectContaining({ state: 'output-denied' })])
    const results = model.calls[1]?.prompt.filter((message) => message.role === 'tool').flatMap((message) => message.content)
    expect(JSON.stringify(results)).toContain('The user denied this call (too much); it was not run.')
    expect((await store.load('c2'))?.messages[1]?.metadata?.tools).toEqual([expect.objectContaining({ state: 'output-denied', approval: { id: approvalId, approved: false, reason: 'too much' } })])
  })

  it('two instances receiving the same approval at once run the tool once; a later copy gets the stored answer', async () => {
    const model = scriptedModel([toolCallParts('pay', { amount: 1 }), textParts('Paid 1.')])
    const pay = payTool()
    const definition = chatOf(model.model, [pay.tool])
    const a = await serve(definition)
    const b = await serve(definition)
    const chat = chatClient('c3', () => a.http.url)
    await chat.sendMessage({ text: 'pay 1' })
    await settled(chat)
    const part = toolParts(chat.lastMessage)[0] as ToolPartView
    const answered = { ...chat.lastMessage, parts: chat.lastMessage?.parts.map((p) => (p === (part as unknown) ? { ...p, state: 'approval-responded', approval: { id: part.approval?.id, approved: true } } : p)) }
    const body = JSON.stringify({ id: 'c3', trigger: 'submit-message', messageId: answered.id, messages: [...chat.messages.slice(0, -1), answered] })
    const send = (url: string): Promise<Response> => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    const replies = await Promise.all([send(a.http.url), send(b.http.url)])
    const texts = await Promise.all(replies.map((reply) => reply.text()))
    expect(pay.keys).toHaveLength(1)
    expect(replies.map((reply) => reply.status).filter((status) => status === 200).length).toBeGreaterThanOrEqual(1)
    for (const [index, reply] of replies.entries()) if (reply.status !== 200) expect(texts[index]).toContain('conversation_busy')
    await eventually(async () => (await store.load('c3'))?.messages[1]?.content === 'Paid 1.')
    const again = await send(b.http.url)
    expect(again.status).toBe(200)
    expect(await again.text()).toContain('Paid 1.')
    expect(pay.keys).toHaveLength(1)
    expect(model.calls).toHaveLength(2)
  })

  it('a crash between storing the approval and storing the result: the retry runs the call under the same idempotency key, its effect once', async () => {
    const model = scriptedModel([toolCallParts('pay', { amount: 7 }), textParts('Paid 7.')])
    let crashed = false
    const pay = payTool({ hangWhile: () => !crashed && frozen })
    let frozen = false
    // instance A's view of the store dies once it stored the approval: nothing it writes lands after that
    const dying = new Proxy(store, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver) as unknown
        if (typeof value !== 'function') return value
        return (...args: unknown[]) => {
          if (frozen && WRITES.has(key)) return Promise.reject(new Error('instance A is gone'))
          const result = (value as (...a: unknown[]) => unknown).apply(target, args)
          const options = args[1] as { messages?: Array<{ metadata?: { tools?: Array<{ approval?: { approved?: boolean } }> } }> } | undefined
          if (key === 'append' && options?.messages?.[0]?.metadata?.tools?.[0]?.approval?.approved === true) void Promise.resolve(result).then(() => { frozen = true })
          return result
        }
      },
    })
    const definition = chatOf(model.model, [pay.tool])
    const a = await serve(definition, { limits: { leaseMs: 300, signalPollMs: 25 } }, dying)
    const chat = chatClient('c4', () => a.http.url)
    await chat.sendMessage({ text: 'pay 7' })
    await settled(chat)
    const approvalId = toolParts(chat.lastMessage)[0]?.approval?.id as string
    void chat.addToolApprovalResponse({ id: approvalId, approved: true })
    await eventually(async () => pay.keys.length === 1)
    expect(frozen).toBe(true)
    expect(pay.effects.size).toBe(0)
    // the stored approval survives; the lease runs out; the client's retry reaches instance B
    expect((await store.load('c4'))?.messages[1]?.metadata?.tools).toEqual([expect.objectContaining({ state: 'approval-requested', approval: { id: approvalId, approved: true } })])
    crashed = true
    const b = await serve(definition)
    const answered = (await (await fetch(`${b.http.url}?id=c4`)).json()) as { messages: UIMessage[] }
    expect(toolParts(answered.messages[1])[0]?.state).toBe('approval-responded')
    const body = JSON.stringify({ id: 'c4', trigger: 'submit-message', messageId: answered.messages[1]?.id, messages: answered.messages })
    await eventually(async () => (await fetch(b.http.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status === 200, 5_000)
    await eventually(async () => (await store.load('c4'))?.messages[1]?.content === 'Paid 7.')
    expect(pay.keys).toEqual([`c4:${approvalId}`, `c4:${approvalId}`])
    expect([...pay.effects]).toEqual([`c4:${approvalId}`])
  })
})
