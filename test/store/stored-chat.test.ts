import { describe, expect, it } from 'vitest'
import type { Message } from '../../src/contract/message.js'
import { createChatController } from '../../src/controller/index.js'
import { commandRoute, defineChat, patternRoute, readDecisionRecord, type ChatDefinition } from '../../src/index.js'
import {
  isDefinitionMismatchError,
  isRevisionMismatchError,
  isStoreConflictError,
  memoryStore,
  openStoredChat,
  type ConversationStore,
  type RevisionPolicy,
} from '../../src/store/index.js'
import { scriptedAdapter } from '../../src/testing/index.js'

// The one-call helper and the store-backed ChatMemory, with chatrail's real controller.

type Ctx = { deliveryDate?: string }

function deliveryDefinition(revision: number, datePattern = /^deliver on (?<deliveryDate>\d{4}-\d{2}-\d{2})$/, id = 'delivery'): ChatDefinition<Ctx> {
  return defineChat<Ctx>({
    id,
    revision,
    chat: { adapter: scriptedAdapter(['I am the agent.']) },
    conversation: {
      initial: 'idle',
      context: {},
      states: {
        idle: { on: { start: 'asking' } },
        asking: { on: { date: 'booked' } },
        booked: { on: { start: 'asking' } },
      },
      routes: [
        commandRoute({ id: 'start', command: '/start', event: 'start', response: 'Which day?' }),
        patternRoute({ id: 'date', pattern: datePattern, event: 'date', assign: true, response: (_input, ctx) => `Booked for ${ctx.match?.groups.deliveryDate}.` }),
      ],
    },
  })
}

let ids = 0
const open = (store: ConversationStore, definition: ChatDefinition<Ctx>, extra: { onRevisionChange?: RevisionPolicy<Ctx>; onError?: (e: unknown) => void } = {}) =>
  openStoredChat({
    store,
    definition,
    conversationId: 'conv-1',
    createController: (config) => createChatController(config, { ids: () => `m${++ids}`, clock: () => new Date(Date.UTC(2030, 0, 1)) }),
    session: { lint: false },
    ...extra,
  })

describe('openStoredChat + storeMemory', () => {
  it('saves each finished turn as one append, and a reopened chat resumes state from the store', async () => {
    const store = memoryStore()
    const first = await open(store, deliveryDefinition(1))
    await first.controller.send('/start')
    await first.controller.send('deliver on 2030-05-01')
    await first.flushed()
    const stored = await store.load('conv-1')
    expect(stored?.version).toBe(2) // two turns, two writes (streaming states are never written)
    expect(stored?.messages.map((m) => m.content)).toEqual(['/start', 'Which day?', 'deliver on 2030-05-01', 'Booked for 2030-05-01.'])
    expect(readDecisionRecord(stored!.messages[3]!)).toMatchObject({ routeId: 'date', assign: { deliveryDate: '2030-05-01' } })
    first.close()

    const again = await open(store, deliveryDefinition(1))
    expect(again.session.getSnapshot()).toMatchObject({ state: 'booked', context: { deliveryDate: '2030-05-01' } })
    expect(again.controller.getState().messages).toHaveLength(4)
    expect(again.migration).toBeUndefined()
    await again.controller.send('/start')
    await again.flushed()
    expect((await store.load('conv-1'))?.version).toBe(3)
    expect(again.session.getSnapshot().state).toBe('asking')
  })

  it('edit and regenerate are one truncate-and-append each, under CAS', async () => {
    const store = memoryStore()
    const chat = await open(store, deliveryDefinition(1))
    await chat.controller.send('/start')
    await chat.controller.send('hello there')
    await chat.flushed()
    const before = await store.load('conv-1')
    const helloId = before!.messages[2]!.id
    await chat.controller.regenerate(before!.messages[3]!.id)
    await chat.flushed()
    const regenerated = await store.load('conv-1')
    expect(regenerated?.version).toBe(before!.version + 1)
    expect(regenerated?.messages.map((m) => m.id).slice(0, 3)).toEqual(before!.messages.map((m) => m.id).slice(0, 3))
    expect(regenerated?.messages).toHaveLength(4)
    await chat.controller.edit(helloId, 'deliver on 2031-02-03')
    await chat.flushed()
    const edited = await store.load('conv-1')
    expect(edited?.messages.map((m) => m.content)).toEqual(['/start', 'Which day?', 'deliver on 2031-02-03', 'Booked for 2031-02-03.'])
    expect(edited?.version).toBe(regenerated!.version + 1)
    expect(chat.session.getSnapshot().context).toEqual({ deliveryDate: '2031-02-03' })
  })

  it('two tabs on one conversation: the second writer gets a conflict, never a silent overwrite', async () => {
    const store = memoryStore()
    const errors: unknown[] = []
    const tabA = await open(store, deliveryDefinition(1))
    const tabB = await open(store, deliveryDefinition(1), { onError: (e) => errors.push(e) })
    await tabA.controller.send('/start')
    await tabA.flushed()
    await tabB.controller.send('something else')
    await expect(tabB.flushed()).rejects.toSatisfy(isStoreConflictError)
    expect(errors).toHaveLength(1)
    expect((await store.load('conv-1'))?.messages.map((m) => m.content)).toEqual(['/start', 'Which day?'])
  })

  it('a conversation of another definition id is a typed mismatch error', async () => {
    const store = memoryStore()
    const chat = await open(store, deliveryDefinition(1))
    await chat.controller.send('/start')
    await chat.flushed()
    await expect(open(store, deliveryDefinition(1, undefined, 'returns'))).rejects.toSatisfy(
      (error: unknown) => isDefinitionMismatchError(error) && error.storedDefinitionId === 'delivery' && error.definitionId === 'returns',
    )
  })

  describe('loading under another revision', () => {
    async function storedUnderRevision1(): Promise<ConversationStore> {
      const store = memoryStore()
      const chat = await open(store, deliveryDefinition(1))
      await chat.controller.send('/start')
      await chat.controller.send('what is this?') // agentic
      await chat.controller.send('deliver on 2030-05-01')
      await chat.flushed()
      return store
    }
    // Revision 2 takes dates as "ship on …": the stored "deliver on …" no longer books anything.
    const revision2 = () => deliveryDefinition(2, /^ship on (?<deliveryDate>\d{4}-\d{2}-\d{2})$/)

    it('by default re-decides the stored user texts: deterministic turns re-derived, agentic answers kept, traced', async () => {
      const store = await storedUnderRevision1()
      const chat = await open(store, revision2())
      expect(chat.migration?.fromRevision).toBe(1)
      expect(chat.migration?.toRevision).toBe(2)
      expect(chat.migration?.traces.map((t) => [t.kind, t.routeId ?? null])).toEqual([['deterministic', 'start'], ['agentic', null], ['agentic', null]])
      // No state from the old definition: the date is not booked under revision 2.
      expect(chat.session.getSnapshot()).toMatchObject({ state: 'asking', context: {} })
      const stored = await store.load('conv-1')
      expect(stored?.definition).toEqual({ id: 'delivery', revision: 2 })
      expect(stored?.messages.map((m) => m.content)).toEqual(['/start', 'Which day?', 'what is this?', 'I am the agent.', 'deliver on 2030-05-01', 'Booked for 2030-05-01.'])
      expect(stored?.messages.map((m) => readDecisionRecord(m)?.routeId ?? null)).toEqual([null, 'start', null, null, null, null])
      await chat.controller.send('ship on 2030-06-01')
      await chat.flushed()
      expect(chat.session.getSnapshot()).toMatchObject({ state: 'booked', context: { deliveryDate: '2030-06-01' } })
    })

    it("'reject' refuses with a typed error and leaves the store as it was", async () => {
      const store = await storedUnderRevision1()
      await expect(open(store, revision2(), { onRevisionChange: 'reject' })).rejects.toSatisfy(
        (error: unknown) => isRevisionMismatchError(error) && error.storedRevision === 1 && error.revision === 2,
      )
      expect((await store.load('conv-1'))?.definition.revision).toBe(1)
    })

    it('a custom migrate(stored) decides the history, which is stored under the new revision', async () => {
      const store = await storedUnderRevision1()
      const seen: number[] = []
      const chat = await open(store, revision2(), {
        onRevisionChange: {
          migrate: (stored) => {
            seen.push(stored.definition.revision)
            return stored.messages.slice(0, 2) as Message[]
          },
        },
      })
      expect(seen).toEqual([1])
      expect(chat.session.getSnapshot().state).toBe('asking')
      const stored = await store.load('conv-1')
      expect(stored?.messages).toHaveLength(2)
      expect(stored?.definition.revision).toBe(2)
    })
  })
})
