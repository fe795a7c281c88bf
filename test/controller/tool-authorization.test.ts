import { describe, expect, it } from 'vitest'
import type { ChatrailController } from '../../src/controller/index.js'
import type { AgentEvent, StreamChunk, ToolDefinition } from '../../src/contract/index.js'
import { settle, setup } from './harness.js'

// When authorization is decided and what it says (issue 14 §2 items 2 and 3): the policy in force
// right before `execute` wins, a configuration change mid-check fails closed, and an authorizer's
// own failure never reaches the model, the app's promise or the stored call.

/** A promise with its resolver, for holding an authorizer or an `init` open. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open: () => void = () => undefined
  const promise = new Promise<void>((resolve) => (open = resolve))
  return { promise, open }
}

function writeTool(runs: string[], extra: Partial<ToolDefinition> = {}): ToolDefinition {
  return { name: 'write', requiresConfirmation: true, execute: () => (runs.push('write'), 'written'), ...extra }
}

const modelCall: StreamChunk = { type: 'tool_call', toolCall: { id: 'c1', name: 'write', args: '{}' } }
const NOT_AUTHORIZED = 'Tool "write" is not authorized'

describe('authorization is checked right before execute', () => {
  it('a deny policy added while an approval is in flight wins (no authorizer before)', async () => {
    const runs: string[] = []
    const { controller } = setup(['unused'], { tools: [writeTool(runs)] })
    await controller.proposeToolCall({ id: 'p1', name: 'write', args: {} })
    const approving = controller.approve('p1')
    controller.updateConfig({ authorizeToolCall: () => ({ allowed: false }) })
    await approving
    expect(runs).toEqual([])
    expect(controller.getState().messages[0]?.toolCalls?.[0]).toMatchObject({ status: 'error', error: expect.stringContaining(NOT_AUTHORIZED) })
  })

  it('a deny policy added while the tool\'s init is running wins', async () => {
    const runs: string[] = []
    const initializing = gate()
    const initStarted = gate()
    const tool = writeTool(runs, { init: async () => (initStarted.open(), initializing.promise) })
    const { controller } = setup(['unused'], { tools: [tool], authorizeToolCall: () => ({ allowed: true }) })
    await controller.proposeToolCall({ id: 'p1', name: 'write', args: {} })
    const approving = controller.approve('p1')
    await initStarted.promise
    controller.updateConfig({ authorizeToolCall: () => ({ allowed: false, reason: 'frozen' }) })
    initializing.open()
    await approving
    expect(runs).toEqual([])
    expect(controller.getState().messages[0]?.toolCalls?.[0]?.status).toBe('error')
  })

  it('a deny policy added while onToolCall runs stops a model call from executing', async () => {
    const runs: string[] = []
    const late: { controller?: ChatrailController } = {}
    const { controller } = setup([[modelCall], 'ok'], {
      tools: [{ name: 'write', execute: () => (runs.push('write'), 'written') }],
      onToolCall: async () => late.controller?.updateConfig({ authorizeToolCall: () => ({ allowed: false }) }),
    })
    late.controller = controller
    await controller.send('go')
    expect(runs).toEqual([])
    expect(controller.getState().messages[1]?.toolCalls?.[0]?.error).toContain(NOT_AUTHORIZED)
  })

  it('fails closed when the policy is swapped while the authorizer runs, even for an allowing policy', async () => {
    const runs: string[] = []
    const checking = gate()
    const checkStarted = gate()
    const { controller } = setup(['unused'], {
      tools: [writeTool(runs)],
      authorizeToolCall: async (_call, { phase }) => {
        if (phase === 'execute') {
          checkStarted.open()
          await checking.promise
        }
        return { allowed: true }
      },
    })
    await controller.proposeToolCall({ id: 'p1', name: 'write', args: {} })
    const approving = controller.approve('p1')
    await checkStarted.promise
    controller.updateConfig({ authorizeToolCall: () => ({ allowed: true }) })
    checking.open()
    await approving
    expect(runs).toEqual([])
    const error = controller.getState().messages[0]?.toolCalls?.[0]?.error
    expect(error).toContain(`AK_TOOL_FORBIDDEN]: ${NOT_AUTHORIZED}`)
    expect(error).toContain('changed during authorization')
  })

  it('fails closed when the tool is replaced or removed while the authorizer runs', async () => {
    for (const replacement of [[{ name: 'write', requiresConfirmation: true, execute: () => 'other' }], []]) {
      const runs: string[] = []
      const checking = gate()
      const { controller } = setup(['unused'], {
        tools: [writeTool(runs)],
        authorizeToolCall: async (_call, { phase }) => {
          if (phase === 'execute') await checking.promise
          return { allowed: true }
        },
      })
      await controller.proposeToolCall({ id: 'p1', name: 'write', args: {} })
      const approving = controller.approve('p1')
      await settle()
      controller.updateConfig({ tools: replacement })
      checking.open()
      await approving
      expect(runs).toEqual([])
      expect(controller.getState().messages[0]?.toolCalls?.[0]).toMatchObject({ status: 'error', error: expect.stringContaining(NOT_AUTHORIZED) })
    }
  })
})

describe('a throwing authorizer', () => {
  const secret = 'secret policy failure'
  const throwing = (): never => {
    throw new Error(secret)
  }
  const errorEvents = (events: AgentEvent[]): Error[] =>
    events.flatMap((event) => (event.type === 'error' ? [event.error] : []))

  it('rejects proposeToolCall with "not authorized", the cause kept off the rejection', async () => {
    const { controller, events } = setup([], { tools: [writeTool([])], authorizeToolCall: throwing })
    const rejection: unknown = await controller.proposeToolCall({ id: 'p1', name: 'write', args: {} }).catch((error: unknown) => error)
    expect(rejection).toMatchObject({ code: 'AK_TOOL_FORBIDDEN', message: NOT_AUTHORIZED })
    expect((rejection as Error).cause).toBeUndefined()
    expect(String(rejection)).not.toContain(secret)
    expect(controller.getState().messages).toEqual([])
    // Observers alone hear why.
    expect(errorEvents(events).map((error) => (error.cause as Error | undefined)?.message)).toEqual([secret])
  })

  it('at execute time: ToolCall.error and the tool message to the model say "not authorized", never the cause', async () => {
    const { controller, adapter, events } = setup([[modelCall], 'ok'], {
      tools: [{ name: 'write', execute: () => 'written' }],
      authorizeToolCall: (_call, { phase }) => (phase === 'propose' ? { allowed: true } : throwing()),
    })
    await controller.send('go')
    const state = controller.getState()
    expect(state.messages[1]?.toolCalls?.[0]).toMatchObject({ status: 'error', error: expect.stringContaining(NOT_AUTHORIZED) })
    expect(JSON.stringify(state)).not.toContain(secret)
    expect(adapter.requests[1]?.messages.find((message) => message.role === 'tool')?.content).toContain(NOT_AUTHORIZED)
    expect(JSON.stringify(adapter.requests)).not.toContain(secret)
    expect(state.error).toBeNull()
    expect(errorEvents(events).some((error) => (error.cause as Error | undefined)?.message === secret)).toBe(true)
  })

  it('at propose time on a model call: the chat error says "not authorized" without the cause', async () => {
    const { controller, events } = setup([[modelCall]], { tools: [{ name: 'write', execute: () => 'written' }], authorizeToolCall: throwing })
    await controller.send('go')
    const state = controller.getState()
    expect(state.status).toBe('error')
    expect(state.error).toMatchObject({ code: 'AK_TOOL_FORBIDDEN', message: NOT_AUTHORIZED })
    expect(state.error?.cause).toBeUndefined()
    expect(errorEvents(events).some((error) => (error.cause as Error | undefined)?.message === secret)).toBe(true)
  })
})
