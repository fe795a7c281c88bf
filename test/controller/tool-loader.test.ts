import { describe, expect, it, vi } from 'vitest'
import type { AdapterFactory, StreamChunk } from '../../src/contract/index.js'
import { scriptedAdapter } from '../../src/testing/index.js'

// A controller's tool handling is a module of its own, loaded on the first tool call or proposal
// (issue 32: not in the initial load of an app without tools). Its load state is per module
// instance, and test files may share a worker's modules: each test takes fresh ones.

const fresh = async () => {
  vi.resetModules()
  const [{ createChatController }, loader] = await Promise.all([import('../../src/controller/index.js'), import('../../src/controller/tool-loader.js')])
  return { createChatController, ...loader }
}

// The testing kit's adapter says it calls tools by default; these say they do not.
const noTools = { capabilities: { streaming: true } }

const toolCall: StreamChunk = { type: 'tool_call', toolCall: { id: 'call-1', name: 'echo', args: '{"text":"hi"}' } }

describe('tool handling, loaded when a chat can use it', () => {
  it('is not loaded for a chat that cannot call tools, even after turns without tool calls', async () => {
    const { createChatController, loadedToolHandling } = await fresh()
    const controller = createChatController({ adapter: scriptedAdapter(['plain answer'], noTools) })
    await controller.send('hello')
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(controller.getState().messages.at(-1)?.content).toBe('plain answer')
    expect(loadedToolHandling()).toBeUndefined()
  })

  it('loads on the first tool call of a chat that declares no tools (a provider\'s call), and the turn waits for it', async () => {
    const { createChatController, loadedToolHandling } = await fresh()
    const adapter: AdapterFactory = scriptedAdapter([[toolCall, { type: 'done' }]], noTools)
    const controller = createChatController({ adapter, maxToolIterations: 0 })
    expect(loadedToolHandling()).toBeUndefined()
    await controller.send('call it')
    expect(loadedToolHandling()).toBeDefined()
    // the call went through the tool handling, which recorded it on the answer
    expect(controller.getState().messages.flatMap((message) => message.toolCalls ?? [])).toEqual([expect.objectContaining({ id: 'call-1', name: 'echo' })])
  })
})

describe('prefetch', () => {
  it('starts loading when a controller is made for a chat with declared tools', async () => {
    const { createChatController, loadedToolHandling } = await fresh()
    createChatController({ adapter: scriptedAdapter(['x'], noTools), tools: [{ name: 'echo', execute: () => 'echoed' }] })
    await vi.waitFor(() => expect(loadedToolHandling()).toBeDefined())
  })

  it('starts loading for an adapter that says it calls tools, and not for one that does not', async () => {
    const { prefetchToolHandling, loadedToolHandling } = await fresh()
    prefetchToolHandling({ adapter: scriptedAdapter(['x'], noTools) })
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(loadedToolHandling()).toBeUndefined()
    prefetchToolHandling({ adapter: scriptedAdapter(['x'], { capabilities: { tools: true } }) })
    await vi.waitFor(() => expect(loadedToolHandling()).toBeDefined())
  })
})
