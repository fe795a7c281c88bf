import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from '@ai-sdk/provider'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { aiSdkAdapter } from '../../src/ai-sdk/index.js'
import type { JSONSchema7, ToolDefinition } from '../../src/contract/tool.js'
import { defineChat, type ChatDefinition } from '../../src/index.js'
import { createChatHandler, type ChatHandlerOptions } from '../../src/server/index.js'
import type { ConversationStore } from '../../src/store/index.js'
import { scriptedModel, textParts, toolCallParts, usage } from '../ai-sdk/mock-model.js'
import { everyStore } from './support/every-store.js'
import { eventually, listen, type Listening, readUntil, sendTurn, userMessage } from './support/harness.js'

// The server's tool loop (tool-loop.ts) over real HTTP: aiSdkAdapter on the AI SDK's mock model,
// the definition's tools run by the handler, useChat's transport and reader on the other side.

const stores = everyStore('tools', 'the server tool loop')

const json = { 'content-type': 'application/json' }
const post = (url: string, body: unknown): Promise<Response> => fetch(url, { method: 'POST', headers: json, body: JSON.stringify(body) })

const chatOf = (model: ReturnType<typeof scriptedModel>['model'], tools: ToolDefinition[]): ChatDefinition =>
  defineChat({ id: 'tools', chat: { adapter: aiSdkAdapter({ model, maxRetries: 0 }), tools }, conversation: { initial: 'open', context: {}, states: { open: {} }, routes: [] } })

const weatherSchema: JSONSchema7 = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false }

/** What the model was sent back as tool results in call `n` (0-based): `toolCallId → text`. */
function toolResultsIn(call: LanguageModelV3CallOptions | undefined): Record<string, string> {
  const results: Record<string, string> = {}
  for (const message of call?.prompt ?? []) {
    if (message.role !== 'tool') continue
    for (const part of message.content) {
      if (part.type === 'tool-result' && part.output.type === 'text') results[part.toolCallId] = part.output.value
    }
  }
  return results
}

const toolPartsOf = (reply: Awaited<ReturnType<typeof sendTurn>>): Array<Record<string, unknown>> =>
  (reply.message?.parts ?? []).filter((part) => part.type.startsWith('tool-')) as unknown as Array<Record<string, unknown>>

/** A model step that stays open (no parts) until its abort signal fires. */
const hanging = (options: LanguageModelV3CallOptions): ReadableStream<LanguageModelV3StreamPart> =>
  new ReadableStream({ start: (controller) => options.abortSignal?.addEventListener('abort', () => controller.error(options.abortSignal?.reason), { once: true }) })

describe.each(stores)('the server runs declared tools: %s', (_name, makeStore) => {
  let store: ConversationStore
  const servers: Listening[] = []
  const serve = async (definition: ChatDefinition, extra: Partial<ChatHandlerOptions> = {}): Promise<Listening> => {
    const http = await listen(createChatHandler({ definition, store, authenticate: 'none', limits: { signalPollMs: 25 }, ...extra }))
    servers.push(http)
    return http
  }
  beforeEach(async () => {
    store = await makeStore()
  }, 60_000)
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((http) => http.close()))
    await store.close()
  })

  it('runs the call, streams its output, sends the result back to the model and stores the whole answer', async () => {
    const model = scriptedModel([toolCallParts('weather', { city: 'Oslo' }), textParts('It is sunny in Oslo.')])
    const seen: Array<{ args: unknown; signal: boolean }> = []
    const weather: ToolDefinition = { name: 'weather', description: 'The weather in a city', schema: weatherSchema, execute: (args, context) => {
      seen.push({ args, signal: context.abortSignal instanceof AbortSignal })
      return { city: args.city, sky: 'sunny' }
    } }
    const http = await serve(chatOf(model.model, [weather]))
    const reply = await sendTurn(http.url, 'c1', [userMessage('u1', 'weather in Oslo?')])
    expect(seen).toEqual([{ args: { city: 'Oslo' }, signal: true }])
    expect(model.calls).toHaveLength(2)
    // the model saw the tool on every step, and its result on the second
    expect(model.calls.map((call) => call.tools?.map((tool) => tool.name))).toEqual([['weather'], ['weather']])
    expect(toolResultsIn(model.calls[1])).toEqual({ 'call-1': JSON.stringify({ city: 'Oslo', sky: 'sunny' }) })
    expect(toolPartsOf(reply)).toEqual([expect.objectContaining({ type: 'tool-weather', toolCallId: 'call-1', state: 'output-available', input: { city: 'Oslo' }, output: { city: 'Oslo', sky: 'sunny' } })])
    expect(reply.text).toBe('It is sunny in Oslo.')
    expect(reply.chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' })
    const stored = await store.load('c1')
    const answer = stored?.messages[1]
    expect(answer?.content).toBe('It is sunny in Oslo.')
    expect(answer?.metadata?.tools).toEqual([expect.objectContaining({ toolCallId: 'call-1', toolName: 'weather', state: 'output-available', output: { city: 'Oslo', sky: 'sunny' }, at: 0 })])
    // GET restores the tool part as it streamed
    const restored = (await (await fetch(`${http.url}?id=c1`)).json()) as { messages: Array<{ parts: Array<{ type: string; state?: string }> }> }
    expect(restored.messages[1]?.parts.find((part) => part.type === 'tool-weather')?.state).toBe('output-available')
  })

  it('a failing tool, an invalid input and an undeclared tool become tool-output-error, go back to the model, and nothing undeclared runs', async () => {
    const calls = [
      { type: 'tool-call', toolCallId: 'a', toolName: 'weather', input: JSON.stringify({ city: 'Bergen' }) },
      { type: 'tool-call', toolCallId: 'b', toolName: 'weather', input: JSON.stringify({ town: 7 }) },
      { type: 'tool-call', toolCallId: 'c', toolName: 'shell', input: JSON.stringify({ command: 'rm -rf /' }) },
    ] as const
    const model = scriptedModel([
      [{ type: 'stream-start', warnings: [] }, ...calls, { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage }],
      textParts('Sorry, the weather service is down.'),
    ])
    const ran: unknown[] = []
    const weather: ToolDefinition = { name: 'weather', schema: weatherSchema, execute: (args) => {
      ran.push(args)
      throw new Error('service unavailable')
    } }
    const http = await serve(chatOf(model.model, [weather]))
    const reply = await sendTurn(http.url, 'c2', [userMessage('u1', 'weather?')])
    expect(ran).toEqual([{ city: 'Bergen' }])
    const parts = toolPartsOf(reply)
    expect(parts.map((part) => [part.toolCallId, part.state])).toEqual([['a', 'output-error'], ['b', 'output-error'], ['c', 'output-error']])
    const results = toolResultsIn(model.calls[1])
    expect(results.a).toContain('service unavailable')
    expect(results.b).toMatch(/invalid input/)
    expect(results.c).toMatch(/not available on this server/)
    expect(parts.map((part) => part.errorText)).toEqual([results.a, results.b, results.c])
    expect(reply.text).toBe('Sorry, the weather service is down.')
  })

  it('maxSteps bounds the model calls: the last step\'s calls are not run and say why', async () => {
    const model = scriptedModel([toolCallParts('ping', {}, 'p1'), toolCallParts('ping', {}, 'p2'), textParts('never asked')])
    let runs = 0
    const http = await serve(chatOf(model.model, [{ name: 'ping', execute: () => ++runs }]), { tools: { maxSteps: 2 } })
    const reply = await sendTurn(http.url, 'c3', [userMessage('u1', 'ping forever')])
    expect(model.calls).toHaveLength(2)
    expect(runs).toBe(1)
    expect(toolPartsOf(reply).map((part) => [part.toolCallId, part.state])).toEqual([['p1', 'output-available'], ['p2', 'output-error']])
    expect(toolPartsOf(reply)[1]?.errorText).toMatch(/limit of 2 model steps/)
    expect(reply.chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' })
    expect((await store.load('c3'))?.messages[1]?.status).toBe('complete')
  })

  it('a tool over its timeout fails with a timeout (its abortSignal fires) and the model hears it', async () => {
    const model = scriptedModel([toolCallParts('slow', {}), textParts('It took too long.')])
    let aborted = false
    const slow: ToolDefinition = { name: 'slow', execute: (_args, context) => new Promise((resolve) => {
      context.abortSignal?.addEventListener('abort', () => {
        aborted = true
        resolve('late')
      })
    }) }
    const http = await serve(chatOf(model.model, [slow]), { tools: { timeoutMs: 50 } })
    const reply = await sendTurn(http.url, 'c4', [userMessage('u1', 'go slow')])
    expect(aborted).toBe(true)
    expect(toolPartsOf(reply)[0]).toMatchObject({ state: 'output-error', errorText: 'Tool "slow" timed out after 50 ms.' })
    expect(toolResultsIn(model.calls[1])).toEqual({ 'call-1': 'Tool "slow" timed out after 50 ms.' })
    expect(reply.text).toBe('It took too long.')
  })

  it('a tool that requires confirmation is not run: the turn pauses for the approval (server-tool-approval.test.ts)', async () => {
    const model = scriptedModel([toolCallParts('pay', { amount: 5 })])
    let paid = 0
    const http = await serve(chatOf(model.model, [{ name: 'pay', requiresConfirmation: true, execute: () => ++paid }]))
    const reply = await sendTurn(http.url, 'c5', [userMessage('u1', 'pay 5')])
    expect(paid).toBe(0)
    expect(model.calls).toHaveLength(1)
    expect(toolPartsOf(reply)[0]).toMatchObject({ state: 'approval-requested', approval: { id: expect.any(String) } })
    expect(reply.chunks.map((chunk) => chunk.type)).toContain('tool-approval-request')
  })

  it('a stop sent to another instance ends the running tool (its abortSignal fires) and no further model step runs', async () => {
    const model = scriptedModel([toolCallParts('wait', {}), hanging])
    let started = false
    let aborted = false
    const wait: ToolDefinition = { name: 'wait', execute: (_args, context) => new Promise((resolve) => {
      started = true
      context.abortSignal?.addEventListener('abort', () => {
        aborted = true
        resolve('stopped')
      })
    }) }
    const definition = chatOf(model.model, [wait])
    const a = await serve(definition)
    const b = await serve(definition)
    const running = await post(a.url, { id: 'c6', messages: [userMessage('u1', 'wait')], trigger: 'submit-message' })
    const reader = (running.body as ReadableStream<Uint8Array>).getReader()
    let text = await readUntil(reader, (seen) => seen.includes('"tool-input-available"'))
    await eventually(async () => started)
    expect(await (await post(b.url, { id: 'c6', action: 'stop' })).json()).toEqual({ stopped: true })
    text += await readUntil(reader, (seen) => seen.includes('[DONE]'))
    expect(aborted).toBe(true)
    expect(model.calls).toHaveLength(1)
    expect(text).toContain('"type":"tool-output-error","toolCallId":"call-1","errorText":"No result: the turn was stopped first."')
    expect(text).toContain('"finishReason":"stop"')
    const stored = await store.load('c6')
    expect(stored?.messages[1]?.metadata?.tools).toEqual([expect.objectContaining({ state: 'output-error' })])
    expect((await store.claim('c6', 'next', { leaseMs: 1000 })).status).toBe('claimed')
  })

  it('a tool that outlasts the lease keeps it: the turn is renewed, and another instance is refused meanwhile', async () => {
    let release: (() => void) | undefined
    const model = scriptedModel([toolCallParts('work', {}), textParts('Done working.')])
    const work: ToolDefinition = { name: 'work', execute: () => new Promise<string>((resolve) => { release = () => resolve('ok') }) }
    const definition = chatOf(model.model, [work])
    const a = await serve(definition, { limits: { leaseMs: 150, signalPollMs: 25 } })
    const b = await serve(definition, { limits: { leaseMs: 150, signalPollMs: 25 } })
    const turn = sendTurn(a.url, 'c7', [userMessage('u1', 'work')])
    await eventually(async () => release !== undefined)
    // three lease lengths later the turn still holds the conversation
    await new Promise((resolve) => setTimeout(resolve, 450))
    const other = await post(b.url, { id: 'c7', messages: [userMessage('u2', 'me too')], trigger: 'submit-message' })
    expect(other.status).toBe(409)
    release?.()
    const reply = await turn
    expect(reply.text).toBe('Done working.')
    expect((await store.load('c7'))?.messages.map((message) => message.role)).toEqual(['user', 'assistant'])
  })
})

describe('the tool loop options', () => {
  it('refuses bad bounds and a tool declared twice, naming the option', async () => {
    const { memoryStore } = await import('../../src/store/index.js')
    const model = scriptedModel([])
    const definition = chatOf(model.model, [{ name: 'x', execute: () => 1 }])
    expect(() => createChatHandler({ definition, store: memoryStore(), authenticate: 'none', tools: { maxSteps: 0 } })).toThrow(/tools\.maxSteps must be a positive integer/)
    expect(() => createChatHandler({ definition, store: memoryStore(), authenticate: 'none', tools: { timeoutMs: 1.5 } })).toThrow(/tools\.timeoutMs must be a positive integer/)
    const twice = chatOf(model.model, [{ name: 'x', execute: () => 1 }, { name: 'x', execute: () => 2 }])
    expect(() => createChatHandler({ definition: twice, store: memoryStore(), authenticate: 'none' })).toThrow(/declares the tool "x" twice/)
  })
})
