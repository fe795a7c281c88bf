import { describe, expect, it } from 'vitest'
import { createInMemoryMemory, deserializeMessages, MemoryError, serializeMessages } from '../../src/controller/index.js'
import type { AgentEvent, ChatMemory, Message } from '../../src/contract/index.js'
import { manualStream, settle, setup } from './harness.js'

const stored: Message[] = [
  { id: 'u', role: 'user', content: 'earlier', status: 'complete', createdAt: new Date('2026-01-01T00:00:00Z') },
  { id: 'a', role: 'assistant', content: 'reply', status: 'complete', createdAt: new Date('2026-01-01T00:00:01Z'), metadata: { usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 } } },
]

describe('memory', () => {
  it('hydrates a synchronous load before the controller is returned, without saving it back', () => {
    const saves: Message[][] = []
    const memory: ChatMemory = { load: () => stored, save: (m) => void saves.push(m) }
    const { controller, events } = setup([], { memory })
    expect(controller.getState().messages).toEqual(stored)
    expect(saves).toEqual([])
    expect(events).toContainEqual({ type: 'memory:load', messageCount: 2 })
  })

  it('hydrates an async load only into a chat that is still empty', async () => {
    const late = setup(['x'], { memory: { load: async () => stored, save: () => undefined } })
    await settle()
    expect(late.controller.getState().messages).toEqual(stored)
    let resolve: (m: Message[]) => void = () => undefined
    const raced = setup(['fresh'], { memory: { load: () => new Promise((r) => (resolve = r)), save: () => undefined } })
    await raced.controller.send('new')
    resolve(stored)
    await settle()
    expect(raced.controller.getState().messages.map((m) => m.content)).toEqual(['new', 'fresh'])
  })

  it('ignores a failing load and keeps working', async () => {
    const { controller } = setup(['ok'], { memory: { load: () => { throw new Error('disk') }, save: () => undefined } })
    await controller.send('q')
    expect(controller.getState().messages).toHaveLength(2)
  })

  it('serializes saves, coalesces to the newest snapshot, and reports memory:save', async () => {
    const snapshots: string[][] = []
    let release: () => void = () => undefined
    const memory: ChatMemory = {
      load: () => [],
      save: async (messages) => {
        snapshots.push(messages.map((m) => `${m.content}:${m.status}`))
        await new Promise<void>((r) => (release = r))
      },
    }
    const stream = manualStream()
    const { controller, events } = setup([stream.step], { memory })
    const pending = controller.send('q')
    await stream.push({ type: 'text', content: 'a' }, { type: 'text', content: 'b' })
    await stream.end()
    await pending
    expect(snapshots).toEqual([['q:complete', ':streaming']]) // the first save started synchronously
    release()
    await settle()
    expect(snapshots).toEqual([['q:complete', ':streaming'], ['q:complete', 'ab:complete']])
    release()
    await settle()
    expect(events.filter((e): e is Extract<AgentEvent, { type: 'memory:save' }> => e.type === 'memory:save')).toEqual([
      { type: 'memory:save', messageCount: 2 },
      { type: 'memory:save', messageCount: 2 },
    ])
  })

  it('does not save when only the input changes, and swallows save failures', async () => {
    let saves = 0
    const { controller } = setup(['ok'], { memory: { load: () => [], save: () => { saves += 1; throw new Error('quota') } } })
    controller.setInput('typing')
    expect(saves).toBe(0)
    await controller.send('q')
    await settle()
    expect(saves).toBeGreaterThan(0)
    expect(controller.getState().status).toBe('idle')
  })

  it('clear() empties the chat, resets usage, and clears memory after pending saves', async () => {
    const order: string[] = []
    const memory: ChatMemory = { load: () => [], save: (m) => void order.push(`save ${m.length}`), clear: () => void order.push('clear') }
    const { controller } = setup([[{ type: 'usage', usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 } }]], { memory })
    await controller.send('q')
    controller.setInput('draft')
    await controller.clear()
    const state = controller.getState()
    expect(state.messages).toEqual([])
    expect(state.usage).toEqual({ promptTokens: 0, completionTokens: 0, totalTokens: 0 })
    expect(state.input).toBe('draft')
    expect(order.slice(-2)).toEqual(['save 0', 'clear'])
  })

  it('hydrates at the first updateConfig that supplies memory', () => {
    const { controller } = setup([])
    controller.updateConfig({ memory: createInMemoryMemory(stored) })
    expect(controller.getState().messages).toEqual(stored)
  })
})

describe('memory records', () => {
  it('round-trips messages through a JSON record, restoring Dates', () => {
    const record = serializeMessages(stored)
    expect(record.version).toBe(1)
    expect(record.messages[0]?.createdAt).toBe('2026-01-01T00:00:00.000Z')
    expect(deserializeMessages(JSON.parse(JSON.stringify(record)))).toEqual(stored)
  })

  it('rejects a malformed record with a MemoryError naming the bad field', () => {
    const bad = { version: 1, messages: [{ ...serializeMessages(stored).messages[0], role: 'robot' }] }
    let thrown: unknown
    try {
      deserializeMessages(bad)
    } catch (error) {
      thrown = error
    }
    expect(MemoryError.isInstance(thrown)).toBe(true)
    expect((thrown as MemoryError).code).toBe('AK_MEMORY_DESERIALIZE_FAILED')
    expect((thrown as MemoryError).message).toMatch(/at messages\.0\.role/)
    expect(() => deserializeMessages({ version: 2, messages: [] })).toThrow(/at version/)
  })

  it('createInMemoryMemory copies on load and save', async () => {
    const memory = createInMemoryMemory(stored)
    const loaded = (await memory.load()) as Message[]
    loaded.pop()
    expect(await memory.load()).toHaveLength(2)
    const list = [...stored]
    await memory.save(list)
    list.length = 0
    expect(await memory.load()).toHaveLength(2)
    await memory.clear?.()
    expect(await memory.load()).toEqual([])
  })
})
