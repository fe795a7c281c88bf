import { describe, expect, it } from 'vitest'
import type { StreamChunk, ToolCallStatus, ToolDefinition } from '../../src/contract/index.js'
import { setup } from './harness.js'

const call = (id: string, name: string, args = '{}', result?: string): StreamChunk => ({
  type: 'tool_call',
  toolCall: { id, name, args, ...(result === undefined ? {} : { result }) },
})

describe('tool calls and the tool loop', () => {
  it('executes a tool (pending → running → complete), feeds the result back as a tool message, and asks again', async () => {
    const add: ToolDefinition = { name: 'add', execute: (args) => (args.a as number) + (args.b as number) }
    const { controller, adapter, events } = setup([[call('c1', 'add', '{"a":2,"b":3}')], 'The sum is 5.'], { tools: [add] })
    const statuses: ToolCallStatus[] = []
    controller.subscribe(() => {
      const status = controller.getState().messages[1]?.toolCalls?.[0]?.status
      if (status && statuses.at(-1) !== status) statuses.push(status)
    })
    await controller.send('2+3?')
    const state = controller.getState()
    expect(statuses).toEqual(['pending', 'running', 'complete'])
    expect(state.messages.map((m) => [m.role, m.content, m.status, m.toolCallId])).toEqual([
      ['user', '2+3?', 'complete', undefined],
      ['assistant', '', 'complete', undefined],
      ['tool', '5', 'complete', 'c1'],
      ['assistant', 'The sum is 5.', 'complete', undefined],
    ])
    expect(state.messages[1]?.toolCalls?.[0]).toEqual({ id: 'c1', name: 'add', args: { a: 2, b: 3 }, status: 'complete', result: '5' })
    expect(adapter.requests[1]?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant'])
    expect(adapter.requests[0]?.context?.tools).toEqual([add])
    expect(events.filter((e) => e.type.startsWith('tool:')).map((e) => e.type)).toEqual(['tool:start', 'tool:end'])
    expect(state.status).toBe('idle')
  })

  it('parses bad JSON args as {} and serializes results (null → "", objects → JSON)', async () => {
    const seen: unknown[] = []
    const { controller } = setup([[call('c1', 'obj', 'not json'), call('c2', 'nil', '[1]')], 'done'], {
      tools: [
        { name: 'obj', execute: (args) => (seen.push(args), { ok: true }) },
        { name: 'nil', execute: (args) => (seen.push(args), null) },
      ],
    })
    await controller.send('q')
    expect(seen).toEqual([{}, {}])
    expect(controller.getState().messages[1]?.toolCalls?.map((c) => c.result)).toEqual(['{"ok":true}', ''])
  })

  it('streams partial results from an async-iterable tool', async () => {
    const partials: Array<string | undefined> = []
    const { controller } = setup([[call('c1', 'count')], 'ok'], {
      tools: [{ name: 'count', execute: async function* () { yield 'a'; yield 'b'; yield 'c' } }],
    })
    controller.subscribe(() => {
      const result = controller.getState().messages[1]?.toolCalls?.[0]?.result
      if (result !== partials.at(-1)) partials.push(result)
    })
    await controller.send('q')
    expect(partials.filter(Boolean)).toEqual(['a', 'ab', 'abc'])
  })

  it('keeps tool failures inside the ToolCall (never state.error) and still follows up', async () => {
    const { controller, events } = setup([[call('c1', 'explode'), call('c2', 'missing')], 'recovered'], {
      tools: [{ name: 'explode', execute: () => { throw new Error('kaput') } }],
    })
    await controller.send('q')
    const state = controller.getState()
    const [exploded, missing] = state.messages[1]?.toolCalls ?? []
    expect(exploded?.status).toBe('error')
    expect(exploded?.error).toMatch(/^error\[AK_TOOL_EXEC_FAILED\]: Tool "explode" threw during execution: kaput/)
    expect(missing?.error).toMatch(/AK_TOOL_NOT_FOUND/)
    expect(state.error).toBeNull()
    expect(state.messages.at(-1)?.content).toBe('recovered')
    expect(events.find((e) => e.type === 'tool:end')).toMatchObject({ name: 'explode', result: 'Error: kaput' })
  })

  it('rejects invalid args through validateArgs when the tool has a schema', async () => {
    const executed: unknown[] = []
    const { controller } = setup([[call('c1', 'typed', '{"n":"x"}')], 'ok'], {
      tools: [{ name: 'typed', schema: { type: 'object' }, execute: (args) => void executed.push(args) }],
      validateArgs: () => ({ valid: false, errors: [{ path: 'n', message: 'must be a number' }] }),
    })
    await controller.send('q')
    expect(executed).toEqual([])
    expect(controller.getState().messages[1]?.toolCalls?.[0]?.error).toMatch(/AK_TOOL_INVALID_INPUT.*n: must be a number/)
  })

  it('a propose-phase denial ends the turn as a chat error; the call is never added', async () => {
    const { controller } = setup([[call('c1', 'rm')]], {
      tools: [{ name: 'rm', execute: () => 'gone' }],
      authorizeToolCall: (_call, { phase }) => ({ allowed: phase !== 'propose', reason: 'rm is not allowed here' }),
    })
    await controller.send('q')
    const state = controller.getState()
    expect(state.status).toBe('error')
    expect((state.error as { code?: string }).code).toBe('AK_TOOL_FORBIDDEN')
    expect(state.error?.message).toBe('rm is not allowed here')
    expect(state.messages[1]?.toolCalls).toBeUndefined()
  })

  it('an execute-phase denial or a throwing authorizer records a ToolCall error (fail closed)', async () => {
    const { controller } = setup([[call('c1', 'a'), call('c2', 'b')], 'ok'], {
      tools: [{ name: 'a', execute: () => 'ran' }, { name: 'b', execute: () => 'ran' }],
      authorizeToolCall: (toolCall, { phase }) => {
        if (phase === 'propose') return { allowed: true }
        if (toolCall.name === 'a') return { allowed: false }
        throw new Error('policy engine down')
      },
    })
    await controller.send('q')
    const [a, b] = controller.getState().messages[1]?.toolCalls ?? []
    expect(a?.error).toMatch(/AK_TOOL_FORBIDDEN.*Tool "a" is not authorized/)
    expect(b?.error).toMatch(/AK_TOOL_FORBIDDEN.*Tool "b" is not authorized/)
    expect(b?.error).not.toContain('policy engine down') // the cause stays off the wire (tool-authorization.test.ts)
    expect(a?.result).toBeUndefined()
  })

  it('awaits onToolCall before executing; a throwing hook fails the turn', async () => {
    const order: string[] = []
    const ok = setup([[call('c1', 't')], 'done'], {
      tools: [{ name: 't', execute: () => void order.push('execute') }],
      onToolCall: async (toolCall) => void order.push(`hook ${toolCall.id} ${toolCall.status}`),
    })
    await ok.controller.send('q')
    expect(order).toEqual(['hook c1 pending', 'execute'])
    const failing = setup([[call('c1', 't')]], { tools: [{ name: 't', execute: () => 'x' }], onToolCall: () => { throw new Error('hook') } })
    await failing.controller.send('q')
    expect(failing.controller.getState().error?.message).toMatch(/onToolCall failed for tool "t": hook/)
  })

  it('limits follow-up model calls to maxToolIterations (default 5)', async () => {
    const looping = (): StreamChunk[] => [call(`c${Math.random()}`, 'again')]
    const tools = [{ name: 'again', execute: () => 'more' }]
    const byDefault = setup([looping], { tools })
    await byDefault.controller.send('q')
    expect(byDefault.adapter.calls).toHaveLength(6)
    expect(byDefault.controller.getState().status).toBe('idle')
    const two = setup([looping], { tools, maxToolIterations: 2 })
    await two.controller.send('q')
    expect(two.adapter.calls).toHaveLength(3)
  })

  it('treats zero or negative maxToolIterations as no follow-up (tools still run)', async () => {
    for (const maxToolIterations of [0, -3]) {
      const { controller, adapter } = setup([[call('c1', 't')]], { tools: [{ name: 't', execute: () => 'ran' }], maxToolIterations })
      await controller.send('q')
      expect(adapter.calls).toHaveLength(1)
      expect(controller.getState().messages[1]?.toolCalls?.[0]?.result).toBe('ran')
      expect(controller.getState().status).toBe('idle')
    }
  })

  it('records a provider-run call (result given, tool not registered) as complete with no follow-up', async () => {
    const { controller, adapter } = setup([[call('c1', 'Bash', '{"command":"ls"}', 'a.txt'), { type: 'text', content: 'Listed.' }]])
    await controller.send('ls')
    expect(adapter.calls).toHaveLength(1)
    expect(controller.getState().messages[1]?.toolCalls?.[0]).toMatchObject({ status: 'complete', result: 'a.txt' })
    expect(controller.getState().messages.map((m) => m.role)).toEqual(['user', 'assistant'])
  })

  it('keeps tools working after clear(): dispose runs, and the next use re-initializes (upstream retired them)', async () => {
    const lifecycle: string[] = []
    const tool: ToolDefinition = {
      name: 't',
      init: () => void lifecycle.push('init'),
      dispose: () => void lifecycle.push('dispose'),
      execute: () => (lifecycle.push('execute'), 'ok'),
    }
    const { controller } = setup([[call('c1', 't')], 'a', [call('c2', 't')], 'b'], { tools: [tool] })
    await controller.send('one')
    await controller.clear()
    await controller.send('two')
    expect(lifecycle).toEqual(['init', 'execute', 'dispose', 'init', 'execute'])
    expect(controller.getState().messages[1]?.toolCalls?.[0]).toMatchObject({ status: 'complete', result: 'ok' })
  })

  it('uses skill tools (a skill tool wins a name clash) and composes the skill system prompt', async () => {
    const { controller, adapter } = setup([[call('c1', 'lookup')], 'done'], {
      systemPrompt: 'Base.',
      tools: [{ name: 'lookup', execute: () => 'config tool' }],
      skills: [
        { name: 'research', description: 'd', systemPrompt: 'Cite sources.', onActivate: () => ({ tools: [{ name: 'lookup', execute: () => 'skill tool' }] }) },
        { name: 'tone', description: 'd', systemPrompt: 'Be kind.' },
      ],
    })
    await controller.send('q')
    expect(adapter.requests[0]?.context?.systemPrompt).toBe('Base.\n\n--- research ---\nCite sources.\n\n--- tone ---\nBe kind.')
    expect(controller.getState().messages[1]?.toolCalls?.[0]?.result).toBe('skill tool')
  })
})
