import { describe, expect, it, vi } from 'vitest'
import { scriptedAdapter } from '../../src/testing/index.js'

// A turn's code (the model call, its stream, its request, the tool loop, the versions an edit or a
// regenerate keeps) is a module of its own, loaded on the first turn or when a UI shows the chat
// (issue 32: an empty chat's first screen runs no turn). Its load state is per module instance, and
// test files may share a worker's modules: each test takes fresh ones.

const fresh = async () => {
  vi.resetModules()
  const [{ createChatController }, loader] = await Promise.all([import('../../src/controller/index.js'), import('../../src/controller/model-turn-loader.js')])
  return { createChatController, ...loader }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe("a turn's code, loaded when a chat needs it", () => {
  it('is not loaded by making a controller, reading it or setting an empty input', async () => {
    const { createChatController, loadedModelTurn } = await fresh()
    const controller = createChatController({ adapter: scriptedAdapter(['answer']) })
    controller.getState()
    controller.setInput('')
    expect(controller.branchesOf('missing')).toEqual({ index: 0, count: 1 })
    await pause(20)
    expect(loadedModelTurn()).toBeUndefined()
  })

  it('loads on the first send, which waits for it and streams the answer', async () => {
    const { createChatController, loadedModelTurn } = await fresh()
    const controller = createChatController({ adapter: scriptedAdapter(['the answer']) })
    const sent = controller.send('hello')
    // the user message and the streaming reply are there at once, before the module is in
    expect(controller.getState().messages.map((message) => [message.role, message.status])).toEqual([['user', 'complete'], ['assistant', 'streaming']])
    expect(loadedModelTurn()).toBeUndefined()
    await sent
    expect(loadedModelTurn()).toBeDefined()
    expect(controller.getState().messages.at(-1)).toMatchObject({ role: 'assistant', content: 'the answer', status: 'complete' })
  })

  it('starts loading when a UI subscribes or the user starts typing', async () => {
    const first = await fresh()
    first.createChatController({ adapter: scriptedAdapter(['x']) }).subscribe(() => undefined)
    await vi.waitFor(() => expect(first.loadedModelTurn()).toBeDefined())

    const second = await fresh()
    const controller = second.createChatController({ adapter: scriptedAdapter(['x']) })
    controller.setInput('h')
    await vi.waitFor(() => expect(second.loadedModelTurn()).toBeDefined())
    expect(controller.getState().input).toBe('h')
  })

  it('an edit of history the chat was created with waits for it and keeps the replaced version', async () => {
    const { createChatController, loadedModelTurn } = await fresh()
    const createdAt = new Date(0)
    const controller = createChatController({
      adapter: scriptedAdapter(['second answer']),
      initialMessages: [
        { id: 'u1', role: 'user', content: 'first question', status: 'complete', createdAt },
        { id: 'a1', role: 'assistant', content: 'first answer', status: 'complete', createdAt },
      ],
    })
    expect(loadedModelTurn()).toBeUndefined()
    await controller.edit('u1', 'edited question')
    expect(controller.getState().messages.map((message) => message.content)).toEqual(['edited question', 'second answer'])
    expect(controller.branchesOf('u1')).toEqual({ index: 1, count: 2 })
    expect(controller.switchBranch('u1', 0)).toBe(true)
    expect(controller.getState().messages.map((message) => message.content)).toEqual(['first question', 'first answer'])
  })

  it('a regenerate of a reply the chat was created with waits for it and keeps the replaced reply', async () => {
    const { createChatController, loadedModelTurn } = await fresh()
    const createdAt = new Date(0)
    const controller = createChatController({
      adapter: scriptedAdapter(['new answer']),
      initialMessages: [
        { id: 'u1', role: 'user', content: 'question', status: 'complete', createdAt },
        { id: 'a1', role: 'assistant', content: 'old answer', status: 'complete', createdAt },
      ],
    })
    expect(loadedModelTurn()).toBeUndefined()
    await controller.regenerate('a1')
    const reply = controller.getState().messages.at(-1)
    expect(reply).toMatchObject({ role: 'assistant', content: 'new answer', status: 'complete' })
    expect(controller.branchesOf(reply?.id ?? '')).toEqual({ index: 1, count: 2 })
  })
})
