import { describe, expect, it } from 'vitest'
import type { ChatState, ToolCall, ToolDefinition } from '../../src/contract/index.js'
import { setup } from './harness.js'

// proposeToolCall's identity rules (issue 14 §2 items 1 and 4): one id is one call, however and
// whenever it is proposed again.

const confirmable = (runs: string[] = []): ToolDefinition => ({
  name: 'write',
  requiresConfirmation: true,
  execute: (args) => (runs.push(JSON.stringify(args)), 'written'),
})

const callsWithId = (state: ChatState, id: string): ToolCall[] =>
  state.messages.flatMap((message) => message.toolCalls ?? []).filter((call) => call.id === id)

describe('proposeToolCall: one id, one call', () => {
  it('concurrent proposals of one id run onToolCall once and leave one call (both callers get it)', async () => {
    const hooked: string[] = []
    const { controller } = setup([], {
      tools: [confirmable()],
      // An async policy widens the window in which both proposals are in flight.
      authorizeToolCall: async () => ({ allowed: true }),
      onToolCall: async (call) => void hooked.push(call.id),
    })
    const proposal = { id: 'p1', name: 'write', args: { path: 'a.txt' } }
    const [first, second] = await Promise.all([controller.proposeToolCall(proposal), controller.proposeToolCall(proposal)])
    expect(first).toEqual({ ...proposal, status: 'requires_confirmation' })
    expect(second).toEqual(first)
    expect(hooked).toEqual(['p1'])
    expect(callsWithId(controller.getState(), 'p1')).toHaveLength(1)
    expect(controller.getState().messages).toHaveLength(1)
  })

  it('also without an authorizer, and a proposal made from inside onToolCall resolves to the same call', async () => {
    let reentrant: Promise<ToolCall> | undefined
    const hooked: string[] = []
    const { controller } = setup([], {
      tools: [confirmable()],
      onToolCall: async (call) => {
        hooked.push(call.id)
        reentrant = controller.proposeToolCall({ id: call.id, name: call.name, args: {} })
        await reentrant
      },
    })
    const proposal = { id: 'p2', name: 'write', args: {} }
    const results = await Promise.all([1, 2, 3].map(() => controller.proposeToolCall(proposal)))
    expect(new Set(results.map((call) => JSON.stringify(call))).size).toBe(1)
    expect(await reentrant).toEqual(results[0])
    expect(hooked).toEqual(['p2'])
    expect(callsWithId(controller.getState(), 'p2')).toHaveLength(1)
  })

  it('concurrent callers share a rejection, and a later proposal of that id is tried afresh', async () => {
    let allowed = false
    const { controller } = setup([], { tools: [confirmable()], authorizeToolCall: async () => ({ allowed, reason: 'closed' }) })
    const proposal = { id: 'p3', name: 'write', args: {} }
    const outcomes = await Promise.allSettled([controller.proposeToolCall(proposal), controller.proposeToolCall(proposal)])
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected'])
    expect(controller.getState().messages).toEqual([])
    allowed = true
    await expect(controller.proposeToolCall(proposal)).resolves.toMatchObject({ id: 'p3', status: 'requires_confirmation' })
  })

  it('replaying a known id resolves to the existing call before the name or args are validated', async () => {
    const runs: string[] = []
    const { controller } = setup(['ok'], { tools: [confirmable(runs)] })
    const first = await controller.proposeToolCall({ id: 'p4', name: 'write', args: { path: 'a.txt' } })
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    const replay = await controller.proposeToolCall({ id: 'p4', name: '', args: cyclic })
    expect(replay).toEqual(first)
    expect(callsWithId(controller.getState(), 'p4')).toEqual([first])
    await controller.approve('p4')
    expect(runs).toEqual(['{"path":"a.txt"}'])
    // An unknown id with an empty name is still refused.
    await expect(controller.proposeToolCall({ id: 'p5', name: '', args: {} })).rejects.toMatchObject({ code: 'AK_TOOL_INVALID_INPUT' })
  })

  it('a replay returns a copy: changing it does not change the call in history', async () => {
    const { controller } = setup([], { tools: [confirmable()] })
    await controller.proposeToolCall({ id: 'p6', name: 'write', args: { path: 'a.txt' } })
    const replay = await controller.proposeToolCall({ id: 'p6', name: 'write', args: {} })
    replay.status = 'complete'
    expect(callsWithId(controller.getState(), 'p6')[0]?.status).toBe('requires_confirmation')
  })
})
