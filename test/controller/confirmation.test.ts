import { describe, expect, it } from 'vitest'
import { ConfigError, STOPPED_TOOL_CALL_ERROR, ToolError } from '../../src/controller/index.js'
import type { StreamChunk, ToolDefinition } from '../../src/contract/index.js'
import { setup } from './harness.js'

const proposal: StreamChunk = { type: 'tool_call', toolCall: { id: 'c1', name: 'deploy', args: '{"env":"prod"}' } }

function deployTool(runs: string[]): ToolDefinition {
  return { name: 'deploy', requiresConfirmation: true, execute: (args) => (runs.push(String(args.env)), `deployed ${String(args.env)}`) }
}

describe('confirmation flow', () => {
  it('waits in requires_confirmation with the turn settled idle, then approve runs the tool once and follows up', async () => {
    const runs: string[] = []
    const { controller, adapter } = setup([[proposal], 'Deployed.'], { tools: [deployTool(runs)] })
    await controller.send('ship it')
    let state = controller.getState()
    expect(state.status).toBe('idle')
    expect(state.messages[1]?.toolCalls?.[0]?.status).toBe('requires_confirmation')
    expect(adapter.calls).toHaveLength(1)
    await controller.approve('c1')
    await controller.approve('c1')
    state = controller.getState()
    expect(runs).toEqual(['prod'])
    expect(state.messages[1]?.toolCalls?.[0]).toMatchObject({ status: 'complete', result: 'deployed prod' })
    expect(state.messages.map((m) => [m.role, m.content])).toEqual([['user', 'ship it'], ['assistant', ''], ['tool', 'deployed prod'], ['assistant', 'Deployed.']])
    expect(adapter.calls).toHaveLength(2)
  })

  it('deny records "Permission denied: <reason>" and sends it back to the model', async () => {
    const runs: string[] = []
    const { controller, adapter } = setup([[proposal], 'Okay, not deploying.'], { tools: [deployTool(runs)] })
    await controller.send('ship it')
    await controller.deny('c1', 'freeze week')
    expect(runs).toEqual([])
    expect(controller.getState().messages[1]?.toolCalls?.[0]).toMatchObject({ status: 'error', error: 'Permission denied: freeze week' })
    expect(adapter.requests[1]?.messages.find((m) => m.role === 'tool')?.content).toBe('Permission denied: freeze week')
    const other = setup([[proposal], 'fine'], { tools: [deployTool([])] })
    await other.controller.send('x')
    await other.controller.deny('c1')
    expect(other.controller.getState().messages[1]?.toolCalls?.[0]?.error).toBe('Permission denied: user denied access')
  })

  it('approve/deny of an unknown or already settled call is a no-op', async () => {
    const { controller } = setup([[proposal], 'x'], { tools: [deployTool([])] })
    await controller.send('q')
    await controller.deny('c1')
    const settled = controller.getState()
    await controller.approve('c1')
    await controller.deny('nope')
    expect(controller.getState()).toBe(settled)
  })

  it('a stop during an approved execution settles the call as stopped and skips the follow-up', async () => {
    let finish: (value: string) => void = () => undefined
    const tool: ToolDefinition = { name: 'deploy', requiresConfirmation: true, execute: () => new Promise<string>((resolve) => (finish = resolve)) }
    const { controller, adapter } = setup([[proposal], 'unused'], { tools: [tool] })
    await controller.send('q')
    const approving = controller.approve('c1')
    await new Promise((resolve) => setImmediate(resolve))
    controller.stop()
    finish('late')
    await approving
    expect(controller.getState().messages[1]?.toolCalls?.[0]).toMatchObject({ status: 'error', error: STOPPED_TOOL_CALL_ERROR })
    expect(adapter.calls).toHaveLength(1)
  })

  it('proposeToolCall appends an assistant message holding the call, awaiting confirmation', async () => {
    const hooked: string[] = []
    const { controller, adapter } = setup(['After approval.'], { tools: [deployTool([])], onToolCall: (c) => void hooked.push(c.id) })
    const returned = await controller.proposeToolCall({ id: 'p1', name: 'deploy', args: { env: 'staging' } })
    expect(returned).toEqual({ id: 'p1', name: 'deploy', args: { env: 'staging' }, status: 'requires_confirmation' })
    const message = controller.getState().messages[0]
    expect(message).toMatchObject({ role: 'assistant', content: '', status: 'complete', toolCalls: [returned] })
    expect(hooked).toEqual(['p1'])
    expect(await controller.proposeToolCall({ id: 'p1', name: 'deploy', args: {} })).toEqual(returned)
    await controller.approve('p1')
    expect(controller.getState().messages.map((m) => m.role)).toEqual(['assistant', 'tool', 'assistant'])
    expect(adapter.calls).toHaveLength(1)
  })

  it('proposeToolCall rejects bad ids, unknown tools, unconfirmable tools, non-JSON args and denials', async () => {
    const { controller } = setup([], {
      tools: [deployTool([]), { name: 'plain', execute: () => 'x' }, { name: 'guarded', requiresConfirmation: true, execute: () => 'x' }],
      authorizeToolCall: (c) => ({ allowed: c.name !== 'guarded', reason: 'guarded is off' }),
    })
    const codeOf = async (work: Promise<unknown>): Promise<string | undefined> => work.then(() => undefined, (e: { code?: string }) => e.code)
    expect(await codeOf(controller.proposeToolCall({ id: '-bad', name: 'deploy', args: {} }))).toBe('AK_TOOL_INVALID_INPUT')
    expect(await codeOf(controller.proposeToolCall({ id: 'p', name: 'nope', args: {} }))).toBe('AK_TOOL_NOT_FOUND')
    expect(await codeOf(controller.proposeToolCall({ id: 'p', name: 'plain', args: {} }))).toBe('AK_CONFIG_INVALID')
    expect(await codeOf(controller.proposeToolCall({ id: 'p', name: 'deploy', args: { n: 1n } as unknown as Record<string, unknown> }))).toBe('AK_TOOL_INVALID_INPUT')
    expect(await codeOf(controller.proposeToolCall({ id: 'p', name: 'guarded', args: {} }))).toBe('AK_TOOL_FORBIDDEN')
    await controller.proposeToolCall({ id: 'p', name: 'plain', args: {} }).catch((e: unknown) => expect(ConfigError.isInstance(e)).toBe(true))
    await controller.proposeToolCall({ id: 'p', name: 'nope', args: {} }).catch((e: unknown) => expect(ToolError.isInstance(e)).toBe(true))
    expect(controller.getState().messages).toEqual([])
  })

  it('proposeToolCall marks the call as an error and rethrows when onToolCall throws', async () => {
    const { controller } = setup([], { tools: [deployTool([])], onToolCall: () => { throw new Error('audit log down') } })
    await expect(controller.proposeToolCall({ id: 'p1', name: 'deploy', args: {} })).rejects.toThrow('audit log down')
    expect(controller.getState().messages[0]?.toolCalls?.[0]).toMatchObject({ status: 'error', error: 'audit log down' })
  })
})
