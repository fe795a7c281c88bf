import { describe, expect, it } from 'vitest'
import { AdapterError, ConfigError, createChatController, ErrorCodes, MemoryError, RuntimeError, SkillError, ToolError } from '../../src/controller/index.js'
import { ChatrailError } from '../../src/contract/index.js'
import type { ChatConfig, ChatState } from '../../src/contract/index.js'
import { setup } from './harness.js'

/** Every failure path must end the turn as data: status error, state.error, assistant error, promise resolved. */
function expectFailedTurn(state: ChatState, message: RegExp | string): void {
  expect(state.status).toBe('error')
  expect(state.error).toBeInstanceOf(Error)
  expect(state.error?.message).toMatch(message)
  expect(state.messages.at(-1)?.role).toBe('assistant')
  expect(state.messages.at(-1)?.status).toBe('error')
  expect(state.messages.some((m) => m.status === 'streaming')).toBe(false)
}

describe('errors are data', () => {
  it('an error chunk ends the turn with an AdapterError (AK_ADAPTER_STREAM_FAILED), onError and an observer event', async () => {
    const reported: Error[] = []
    const { controller, events } = setup([[{ type: 'text', content: 'part' }, { type: 'error', content: 'server died' }]], {
      onError: (error) => void reported.push(error),
    })
    await expect(controller.send('q')).resolves.toBeUndefined()
    const state = controller.getState()
    expectFailedTurn(state, 'server died')
    expect(AdapterError.isInstance(state.error)).toBe(true)
    expect((state.error as AdapterError).code).toBe('AK_ADAPTER_STREAM_FAILED')
    expect(state.messages.at(-1)?.content).toBe('part')
    expect(reported).toEqual([state.error])
    expect(events.filter((e) => e.type === 'error')).toEqual([{ type: 'error', error: state.error }])
    expect(events.some((e) => e.type === 'llm:end')).toBe(false)
  })

  it('surfaces a ChatrailError carried in metadata.error unchanged (keeps its code and hint)', async () => {
    const carried = new ChatrailError({ code: 'CLI_MISSING', message: 'claude not found', hint: 'install it' })
    const { controller } = setup([[{ type: 'error', content: 'claude not found', metadata: { error: carried } }]])
    await controller.send('q')
    expect(controller.getState().error).toBe(carried)
  })

  it('a throwing iterator ends the turn with "Stream failed: …" and the cause', async () => {
    const boom = new Error('socket reset')
    const { controller } = setup([() => (async function* () {
      yield { type: 'text' as const, content: 'x' }
      throw boom
    })()])
    await controller.send('q')
    expectFailedTurn(controller.getState(), 'Stream failed: socket reset')
    expect(controller.getState().error?.cause).toBe(boom)
  })

  it('a throwing createSource ends the turn as an error (upstream rejected and stayed streaming)', async () => {
    const config: ChatConfig = { adapter: { createSource: () => { throw new Error('no credentials') } } }
    const controller = createChatController(config)
    await expect(controller.send('q')).resolves.toBeUndefined()
    expectFailedTurn(controller.getState(), 'createSource failed: no credentials')
  })

  it('a throwing stream() call ends the turn as an error', async () => {
    const controller = createChatController({ adapter: { createSource: () => ({ stream: () => { throw new Error('eager') }, abort: () => undefined }) } })
    await controller.send('q')
    expectFailedTurn(controller.getState(), 'Stream failed: eager')
  })

  it('a rejecting retriever ends the turn as a RuntimeError and never calls the adapter', async () => {
    const { controller, adapter } = setup(['unused'], { retriever: { retrieve: async () => Promise.reject(new Error('index offline')) } })
    await expect(controller.send('q')).resolves.toBeUndefined()
    expectFailedTurn(controller.getState(), 'Retriever failed: index offline')
    expect(RuntimeError.isInstance(controller.getState().error)).toBe(true)
    expect(adapter.calls).toHaveLength(0)
  })

  it('a rejecting skill onActivate ends the turn as a SkillError', async () => {
    const { controller, adapter } = setup(['unused'], {
      skills: [{ name: 'broken', description: 'd', systemPrompt: 'p', onActivate: async () => Promise.reject(new Error('no access')) }],
    })
    await controller.send('q')
    expectFailedTurn(controller.getState(), 'Skill "broken" failed to activate: no access')
    expect(SkillError.isInstance(controller.getState().error)).toBe(true)
    expect(adapter.calls).toHaveLength(0)
  })

  it('the next send clears the error and succeeds', async () => {
    const { controller } = setup([[{ type: 'error', content: 'flaky' }], 'fine'])
    await controller.send('a')
    expect(controller.getState().status).toBe('error')
    const pending = controller.send('b')
    expect(controller.getState().error).toBeNull()
    await pending
    expect(controller.getState().status).toBe('idle')
    expect(controller.getState().messages.at(-1)?.content).toBe('fine')
  })

  it('a throwing onMessage or onError callback cannot break the controller', async () => {
    const { controller } = setup(['ok', [{ type: 'error', content: 'bad' }]], {
      onMessage: () => { throw new Error('ui bug') },
      onError: () => { throw new Error('ui bug') },
    })
    await controller.send('a')
    expect(controller.getState().status).toBe('idle')
    await controller.send('b')
    expect(controller.getState().status).toBe('error')
  })

  it('isolates throwing and rejecting observers from each other and from the turn', async () => {
    const seen: string[] = []
    const { controller } = setup(['ok'], {
      observers: [
        { name: 'throws', on: () => { throw new Error('x') } },
        { name: 'rejects', on: async () => Promise.reject(new Error('y')) },
        { name: 'records', on: (event) => void seen.push(event.type) },
      ],
    })
    await controller.send('a')
    expect(seen).toEqual(['llm:start', 'llm:first-token', 'llm:end'])
    expect(controller.getState().status).toBe('idle')
  })
})

describe('the named error classes', () => {
  const classes = { AdapterError, ToolError, MemoryError, ConfigError, RuntimeError, SkillError }

  it('each sets its name, is a ChatrailError, and only its own isInstance recognizes it', () => {
    for (const [name, ErrorClass] of Object.entries(classes)) {
      const error = new ErrorClass({ code: ErrorCodes.AK_CONFIG_INVALID, message: 'm', hint: 'h', cause: 'c' })
      expect(error.name).toBe(name)
      expect(error).toBeInstanceOf(ErrorClass)
      expect(error).toBeInstanceOf(ChatrailError)
      expect([error.code, error.message, error.hint, error.cause]).toEqual(['AK_CONFIG_INVALID', 'm', 'h', 'c'])
      expect(ChatrailError.isInstance(error)).toBe(true)
      const recognizedBy = Object.entries(classes).filter(([, other]) => other.isInstance(error)).map(([otherName]) => otherName)
      expect(recognizedBy).toEqual([name])
    }
  })

  it('ErrorCodes maps each AK_* code to itself', () => {
    expect(Object.entries(ErrorCodes).every(([key, value]) => key === value && key.startsWith('AK_'))).toBe(true)
    expect(Object.keys(ErrorCodes)).toHaveLength(12)
  })
})
