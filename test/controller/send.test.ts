import { describe, expect, it } from 'vitest'
import { createChatController, SYSTEM_PROMPT_MESSAGE_ID } from '../../src/controller/index.js'
import type { Message } from '../../src/contract/index.js'
import { contents, manualStream, setup } from './harness.js'

describe('send', () => {
  it('ignores empty and whitespace-only text (no state change, no model call)', async () => {
    const { controller, adapter } = setup(['x'])
    const before = controller.getState()
    await controller.send('')
    await controller.send('  \n\t ')
    expect(controller.getState()).toBe(before)
    expect(adapter.calls).toHaveLength(0)
  })

  it('appends the user and a streaming assistant synchronously, clearing input and error', () => {
    const { controller } = setup(['Hello!'])
    controller.setInput('Hi')
    void controller.send('Hi')
    const state = controller.getState()
    expect(contents(state)).toEqual([['user', 'Hi', 'complete'], ['assistant', '', 'streaming']])
    expect(state.status).toBe('streaming')
    expect(state.input).toBe('')
    expect(state.error).toBeNull()
  })

  it('joins text deltas, completes the assistant, returns to idle and reports onMessage', async () => {
    const finals: Message[] = []
    const { controller } = setup([[{ type: 'text', content: 'Hel' }, { type: 'text', content: '' }, { type: 'text', content: 'lo!' }, { type: 'done' }]], {
      onMessage: (message) => void finals.push(message),
    })
    await controller.send('Hi')
    const state = controller.getState()
    expect(contents(state)).toEqual([['user', 'Hi', 'complete'], ['assistant', 'Hello!', 'complete']])
    expect(state.status).toBe('idle')
    expect(finals.map((message) => message.content)).toEqual(['Hello!'])
  })

  it('records reasoning (running total), the latest tool_result and usage in assistant metadata', async () => {
    const { controller } = setup([[
      { type: 'reasoning', content: 'think ' },
      { type: 'reasoning', content: 'more' },
      { type: 'tool_result', content: 'r1' },
      { type: 'tool_result', content: 'r2' },
      { type: 'usage', usage: { promptTokens: 4, completionTokens: 6, totalTokens: 10 } },
      { type: 'text', content: 'ok' },
    ]])
    await controller.send('q')
    const assistant = controller.getState().messages[1]
    expect(assistant?.metadata).toEqual({ reasoning: 'think more', toolResult: 'r2', usage: { promptTokens: 4, completionTokens: 6, totalTokens: 10 } })
    expect(controller.getState().usage).toEqual({ promptTokens: 4, completionTokens: 6, totalTokens: 10 })
  })

  it('sums usage across turns, counting non-finite or negative figures as 0', async () => {
    const { controller } = setup([
      [{ type: 'usage', usage: { promptTokens: 2, completionTokens: 3, totalTokens: 5 } }],
      [{ type: 'usage', usage: { promptTokens: Number.NaN, completionTokens: -4, totalTokens: Number.POSITIVE_INFINITY } }],
      [{ type: 'usage', usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 } }],
    ])
    await controller.send('a')
    await controller.send('b')
    await controller.send('c')
    expect(controller.getState().usage).toEqual({ promptTokens: 3, completionTokens: 4, totalTokens: 7 })
  })

  it('treats a stream that ends without done as success and ignores unknown chunk types', async () => {
    const { controller } = setup([() => (async function* () {
      yield { type: 'text' as const, content: 'partial' }
      yield { type: 'mystery' } as unknown as { type: 'text' }
    })()])
    await controller.send('q')
    expect(contents(controller.getState())[1]).toEqual(['assistant', 'partial', 'complete'])
    expect(controller.getState().status).toBe('idle')
  })

  it('puts send metadata on the user message only', async () => {
    const { controller } = setup(['ok'])
    await controller.send('Buy', { metadata: { chatrail: { event: 'buy' } } })
    const [user, assistant] = controller.getState().messages
    expect(user?.metadata).toEqual({ chatrail: { event: 'buy' } })
    expect(assistant?.metadata).toBeUndefined()
  })

  it('stops a running turn first: the old assistant completes with its partial text', async () => {
    const first = manualStream()
    const finals: string[] = []
    const { controller, adapter } = setup([first.step, 'second'], { onMessage: (message) => void finals.push(message.content) })
    const pending = controller.send('one')
    await first.push({ type: 'text', content: 'par' })
    await controller.send('two')
    await pending
    expect(adapter.calls[0]?.aborted).toBe(true)
    expect(contents(controller.getState())).toEqual([
      ['user', 'one', 'complete'],
      ['assistant', 'par', 'complete'],
      ['user', 'two', 'complete'],
      ['assistant', 'second', 'complete'],
    ])
    expect(finals).toEqual(['par', 'second'])
  })

  it('sends history with the streaming placeholder, a prepended system prompt, and all context keys', async () => {
    const { controller, adapter } = setup(['ok'], { systemPrompt: 'Be brief.', temperature: 0.2, maxTokens: 50 })
    await controller.send('Hi')
    const request = adapter.requests[0]
    expect(request?.messages.map((m) => [m.id, m.role, m.content, m.status])).toEqual([
      [SYSTEM_PROMPT_MESSAGE_ID, 'system', 'Be brief.', 'complete'],
      ['m1', 'user', 'Hi', 'complete'],
      ['m2', 'assistant', '', 'streaming'],
    ])
    expect(request?.context).toEqual({ systemPrompt: 'Be brief.', temperature: 0.2, maxTokens: 50, tools: [], metadata: undefined })
    expect(Object.keys(request?.context ?? {}).sort()).toEqual(['maxTokens', 'metadata', 'systemPrompt', 'temperature', 'tools'])
    expect(controller.getState().messages.some((m) => m.role === 'system')).toBe(false)
  })

  it('does not prepend the system prompt when history already holds that exact system message', async () => {
    const system: Message = { id: 's', role: 'system', content: 'Be brief.', status: 'complete', createdAt: new Date(0) }
    const { controller, adapter } = setup(['ok'], { systemPrompt: 'Be brief.', initialMessages: [system] })
    await controller.send('Hi')
    expect(adapter.requests[0]?.messages.filter((m) => m.role === 'system').map((m) => m.id)).toEqual(['s'])
  })

  it('prepends retrieved documents ahead of the system prompt and passes them in context.metadata', async () => {
    const documents = [{ id: 'd1', content: 'Paris is in France.', source: 'atlas' }, { id: 'd2', content: 'Lyon too.' }]
    const queries: string[] = []
    const { controller, adapter } = setup(['ok'], {
      systemPrompt: 'Use context.',
      retriever: { retrieve: ({ query }) => (queries.push(query), documents) },
    })
    await controller.send('Where is Paris?')
    const request = adapter.requests[0]
    expect(queries).toEqual(['Where is Paris?'])
    expect(request?.messages[0]?.content).toBe('Relevant context:\n\n[1] Paris is in France.\nSource: atlas\n\n[2] Lyon too.')
    expect(request?.messages[1]?.content).toBe('Use context.')
    expect(request?.context?.metadata).toEqual({ retrievedDocuments: documents })
  })

  it('keeps controller methods safe to call detached', async () => {
    const controller = createChatController({ adapter: setup(['detached']).adapter })
    const { send, getState } = controller
    await send('x')
    expect(getState().messages[1]?.content).toBe('detached')
  })
})
