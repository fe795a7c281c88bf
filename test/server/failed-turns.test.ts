import { DefaultChatTransport, readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { StreamChunk } from '../../src/contract/stream.js'
import { createChatHandler, type ChatHandler } from '../../src/server/index.js'
import { type ConversationStore } from '../../src/store/index.js'
import { everyStore } from './support/every-store.js'
import { toolAgent } from './support/agents.js'
import { countingAgent, deliveryDefinition, listen, sendTurn, userMessage, type Listening } from './support/harness.js'

// Failed and tool turns that survive a reload (issue 29): what GET returns for them, what useChat's
// own reader sees of a failed turn, tool parts that always end, and turn ids unique per conversation.
// Over real HTTP, with the AI SDK's transport and reader, on every store.

const stores = everyStore('failed_turns', 'failed and tool turns')

/** An agent that streams `chunks`, the same on every call. */
const scripted = (chunks: StreamChunk[]) => ({
  createSource: () => ({
    abort: () => undefined,
    async *stream(): AsyncIterableIterator<StreamChunk> {
      yield* chunks
    },
  }),
})

/**
 * A turn as useChat reads it when it fails: the AI SDK's transport and reader with
 * `terminateOnError` (useChat's processing throws at the first `error` part): the message as it
 * stood then, the chunks the server sent, and the error.
 */
async function failingTurn(url: string, chatId: string, messages: UIMessage[]): Promise<{ message: UIMessage | undefined; chunks: UIMessageChunk[]; error: unknown }> {
  const stream = await new DefaultChatTransport<UIMessage>({ api: url }).sendMessages({ chatId, messages, trigger: 'submit-message', messageId: undefined, abortSignal: undefined })
  const [forReading, forCounting] = stream.tee()
  const chunks: UIMessageChunk[] = []
  const counting = (async () => {
    const reader = forCounting.getReader()
    for (let step = await reader.read(); !step.done; step = await reader.read()) chunks.push(step.value)
  })()
  let message: UIMessage | undefined
  let error: unknown
  try {
    for await (const snapshot of readUIMessageStream({ stream: forReading, terminateOnError: true })) message = structuredClone(snapshot)
  } catch (thrown) {
    error = thrown
  }
  await counting
  return { message, chunks, error }
}

interface Stored { messages: Array<{ id: string; role: string; parts: Array<Record<string, unknown>>; metadata?: unknown }> }

describe.each(stores)('failed and tool turns: %s', (_name, makeStore) => {
  let store: ConversationStore
  const servers: Listening[] = []
  beforeEach(async () => {
    store = await makeStore()
  }, 60_000)
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()))
    await store.close()
  })

  const serve = async (adapter: ReturnType<typeof scripted>, extra: { onError?: (error: unknown) => void } = {}): Promise<{ url: string; handler: ChatHandler }> => {
    const definition = deliveryDefinition(countingAgent())
    const handler = createChatHandler({ definition: { ...definition, chat: { ...definition.chat, adapter } }, store, authenticate: 'none', ...extra })
    const http = await listen(handler)
    servers.push(http)
    return { url: http.url, handler }
  }
  const restore = async (url: string, id: string): Promise<Stored> => (await (await fetch(`${url}?id=${id}`)).json()) as Stored

  it('a turn that failed after some text comes back from GET as failed, with its code, not as a complete answer', async () => {
    const { url } = await serve(scripted([{ type: 'text', content: 'Partial ' }, { type: 'error', content: 'provider down' }]))
    await failingTurn(url, 'f1', [userMessage('u1', 'hello')])
    const { messages } = await restore(url, 'f1')
    expect(messages[1]).toMatchObject({ role: 'assistant', parts: [{ type: 'text', text: 'Partial ' }], metadata: { chatrail: { status: 'error', error: { code: 'AGENT_ERROR' } } } })
    // a complete answer carries no such metadata
    expect(messages[0]?.metadata).toBeUndefined()
  })

  it('a failure with no text comes back as a failed answer (no parts, its code), so a page can offer Retry', async () => {
    const { url } = await serve(scripted([{ type: 'error', content: 'nope' }]))
    await failingTurn(url, 'f2', [userMessage('u1', 'hello')])
    const { messages } = await restore(url, 'f2')
    expect(messages[1]).toMatchObject({ role: 'assistant', parts: [], metadata: { chatrail: { status: 'error', error: { code: 'AGENT_ERROR' } } } })
  })

  it("useChat's reader learns the state and the failure's metadata: both come before the error part", async () => {
    const { url } = await serve(scripted([{ type: 'text', content: 'Partial ' }, { type: 'error' }]))
    const reply = await failingTurn(url, 'f3', [userMessage('u1', 'hello')])
    expect((reply.error as Error).message).toBe('AGENT_ERROR')
    const types = reply.chunks.map((chunk) => chunk.type)
    expect(types).toEqual(['start', 'text-start', 'text-delta', 'text-end', 'data-chatrail', 'message-metadata', 'error', 'finish'])
    // the reader stopped at `error`, as useChat does: what it holds is what the page has
    const parts = reply.message?.parts ?? []
    expect(parts.find((part) => part.type === 'data-chatrail')).toMatchObject({ data: { state: 'idle', trace: { kind: 'agentic', outcome: 'error' } } })
    expect(reply.message?.metadata).toEqual({ chatrail: { status: 'error', error: { code: 'AGENT_ERROR' } } })
    expect(parts.flatMap((part) => (part.type === 'text' ? [part.text] : []))).toEqual(['Partial '])
  })

  it('a tool-call turn is restored with its inputs and outputs, where they streamed; a repeated submit streams them again', async () => {
    const { url } = await serve(toolAgent)
    await sendTurn(url, 't1', [userMessage('u1', 'where is my order?')])
    const { messages } = await restore(url, 't1')
    expect(messages[1]?.parts).toEqual([
      { type: 'text', text: 'Looking it up.' },
      { type: 'tool-lookup_order', toolCallId: 'call-1', state: 'output-available', input: { orderId: 'A-7' }, output: { status: 'shipped' } },
      { type: 'text', text: 'It shipped.' },
    ])
    const again = await sendTurn(url, 't1', [userMessage('u1', 'where is my order?')])
    expect(again.message?.parts.filter((part) => part.type !== 'data-chatrail' && part.type !== 'step-start')).toMatchObject([
      { type: 'text', text: 'Looking it up.' },
      { type: 'tool-lookup_order', toolCallId: 'call-1', state: 'output-available', output: { status: 'shipped' } },
      { type: 'text', text: 'It shipped.' },
    ])
    // the record is display-only: the next model turn sees the text, no tool call without its result
    expect((await store.load('t1'))?.messages[1]?.toolCalls).toBeUndefined()
  })

  it('a tool call that never gets its result does not stay input-available: live and restored, it ends in output-error', async () => {
    // what an AI SDK model's tool call is behind this server (it runs no tool loop), or a tool cut short
    const { url } = await serve(scripted([{ type: 'tool_call', toolCall: { id: 'c9', name: 'lookup_order', args: '{"orderId":"B-1"}' } }, { type: 'done' }]))
    const reply = await sendTurn(url, 't2', [userMessage('u1', 'look it up')])
    const live = reply.message?.parts.find((part) => part.type === 'tool-lookup_order')
    expect(live).toMatchObject({ toolCallId: 'c9', state: 'output-error', input: { orderId: 'B-1' } })
    expect((live as { errorText: string }).errorText).toMatch(/No result/)
    const { messages } = await restore(url, 't2')
    expect(messages[1]?.parts).toEqual([{ type: 'tool-lookup_order', toolCallId: 'c9', state: 'output-error', input: { orderId: 'B-1' }, errorText: (live as { errorText: string }).errorText }])
  })

  it("trace.turnId is unique per conversation across requests and instances (not every turn '<id>:1')", async () => {
    const a = await serve(scripted([{ type: 'text', content: 'ok' }, { type: 'done' }]))
    const b = await serve(scripted([{ type: 'text', content: 'ok' }, { type: 'done' }]))
    const history: UIMessage[] = []
    const turnIds: string[] = []
    for (let n = 1; n <= 4; n++) {
      history.push(userMessage(`u${n}`, `message ${n}`))
      const reply = await sendTurn(n % 2 === 0 ? b.url : a.url, 'ids1', history)
      turnIds.push((reply.chatrail?.trace as { turnId: string } | undefined)?.turnId ?? '')
    }
    // a regenerate is a new turn too
    const regenerated = await sendTurn(a.url, 'ids1', history, { trigger: 'regenerate-message', messageId: 'u4' })
    turnIds.push((regenerated.chatrail?.trace as { turnId: string } | undefined)?.turnId ?? '')
    expect(turnIds.every((id) => id.startsWith('ids1:'))).toBe(true)
    expect(new Set(turnIds).size).toBe(5)
  })
})
