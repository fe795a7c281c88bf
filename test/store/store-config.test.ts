import { describe, expect, it } from 'vitest'
import type { Message } from '../../src/contract/message.js'
import { createChatController } from '../../src/controller/index.js'
import { isChatrailConfigError } from '../../src/index.js'
import { memoryStore, pgliteStore, postgresStore, storeMemory } from '../../src/store/index.js'

// Store options that cannot work are config errors at construction, naming the option and the fix;
// and storeMemory plugs into a controller as its ChatMemory, AgentsKit-style, without the helper.

const configError = (make: () => unknown): { path: unknown; message: string; hint: string } => {
  try {
    make()
  } catch (error) {
    if (isChatrailConfigError(error)) return { path: error.path, message: error.message, hint: error.hint }
    throw error
  }
  throw new Error('expected a config error')
}

describe('store options', () => {
  it('postgresStore needs exactly one of connectionString and pool', () => {
    expect(configError(() => postgresStore({} as never))).toMatchObject({ path: ['postgresStore'], message: expect.stringContaining('connectionString or a pg Pool is required') })
    expect(configError(() => postgresStore({ connectionString: 'postgres://x', pool: {} } as never)).message).toContain('not both')
  })

  it('a schema name must be a plain lowercase identifier (it is spliced into SQL text)', () => {
    expect(configError(() => postgresStore({ connectionString: 'postgres://x', schema: 'x; DROP TABLE y' }))).toMatchObject({ path: ['postgresStore', 'schema'], hint: expect.stringContaining('lowercase') })
    expect(configError(() => pgliteStore({ schema: 'Upper' })).path).toEqual(['pgliteStore', 'schema'])
  })

  it('pgliteStore takes dataDir or db, not both, and a non-empty dataDir', () => {
    expect(configError(() => pgliteStore({ dataDir: '/tmp/x', db: {} as never })).message).toContain('either dataDir or db')
    expect(configError(() => pgliteStore({ dataDir: '' })).path).toEqual(['pgliteStore', 'dataDir'])
  })

  it('list and expire refuse bad limits, cursors and TTLs', async () => {
    const store = memoryStore()
    await expect(store.list({ limit: 0 })).rejects.toSatisfy(isChatrailConfigError)
    await expect(store.list({ cursor: 'garbage' })).rejects.toSatisfy(isChatrailConfigError)
    await expect(store.expire({ idleMs: -5 })).rejects.toSatisfy(isChatrailConfigError)
    await expect(store.append('c', { expectedVersion: -1, messages: [], definition: { id: 'd', revision: 1 } })).rejects.toSatisfy(isChatrailConfigError)
  })
})

describe('storeMemory as a controller ChatMemory', () => {
  it('the controller hydrates from the store and persists settled turns through it', async () => {
    const store = memoryStore()
    const seed: Message[] = [{ id: 'u0', role: 'user', content: 'earlier', status: 'complete', createdAt: new Date(0) }]
    await store.append('c1', { expectedVersion: 0, messages: seed, definition: { id: 'd', revision: 1 } })
    const memory = storeMemory(store, { conversationId: 'c1', definition: { id: 'd', revision: 1 } })
    let n = 0
    const adapter = { createSource: () => ({ stream: async function* () { yield { type: 'text' as const, content: 'hi' }; yield { type: 'done' as const } }, abort: () => undefined }) }
    const controller = createChatController({ adapter, memory }, { ids: () => `m${++n}`, clock: () => new Date(0) })
    await expect.poll(() => controller.getState().messages.length).toBe(1)
    await controller.send('hello')
    await expect.poll(async () => (await store.load('c1'))?.messages.map((m) => m.content)).toEqual(['earlier', 'hello', 'hi'])
    await memory.flushed()
    expect(memory.version()).toBe(2)
  })
})
