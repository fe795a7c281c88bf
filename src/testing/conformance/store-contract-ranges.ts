import { expect } from 'vitest'
import type { Message } from '../../contract/message.js'
import { isChatrailConfigError } from '../../conversation/config-error.js'
import type { ConversationStore, DefinitionRef, ListOptions } from '../../store/conversation-store.js'

/**
 * The store contract's cases for reading a large store a part at a time (S17, S18; see
 * store-contract.ts): listing newest first, and loading a range of a long conversation's log.
 */

export interface RangeCaseEnv {
  readonly store: () => ConversationStore
  /** Sets the store's clock to the suite's start plus `ms`. */
  readonly at: (ms: number) => void
  /** The suite's start plus `ms`, as a Date. */
  readonly date: (ms: number) => Date
  readonly check: (invariant: 'S17' | 'S18', title: string, body: () => Promise<void>) => void
  readonly rejection: (promise: Promise<unknown>) => Promise<unknown>
  readonly turn: (text: string) => Message[]
  readonly definition: DefinitionRef
}

/** Every page of a listing, followed by its cursor, as one list of ids. */
async function everyPage(store: ConversationStore, options: ListOptions): Promise<string[]> {
  const ids: string[] = []
  let cursor: string | undefined
  for (let pages = 0; pages < 100; pages++) {
    const page = await store.list({ ...options, ...(cursor === undefined ? {} : { cursor }) })
    ids.push(...page.conversations.map((c) => c.conversationId))
    if (page.nextCursor === undefined) return ids
    cursor = page.nextCursor
  }
  throw new Error('the listing never ended (a cursor that does not advance?)')
}

export function describeRangeCases(env: RangeCaseEnv): void {
  const { check, rejection, turn, definition } = env

  check('S17', "list({ order: 'newest' }): newest updatedAt first, ties by id descending, cursor pages in that order, filters as oldest-first", async () => {
    const store = env.store()
    const other: DefinitionRef = { id: 'other-def', revision: 2 }
    // three conversations share each time (ties), two definitions, one owner
    const written: { id: string; at: number }[] = []
    for (let i = 0; i < 9; i++) {
      const at = 1000 * Math.floor(i / 3)
      env.at(at)
      const id = `n${(i * 7) % 9}`
      await store.append(id, { expectedVersion: 0, messages: turn(id), definition: i % 2 === 0 ? definition : other, ...(i === 4 ? { owner: 'ann' } : {}) })
      written.push({ id, at })
    }
    const newest = [...written].sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1)).map((w) => w.id)
    const first = await store.list({ order: 'newest', limit: 4 })
    expect(first.conversations.map((c) => c.conversationId)).toEqual(newest.slice(0, 4))
    expect(first.nextCursor).toBeDefined()
    for (const limit of [1, 2, 3, 4, 9, 10]) expect(await everyPage(store, { order: 'newest', limit })).toEqual(newest)
    expect(await everyPage(store, { order: 'oldest', limit: 2 })).toEqual([...newest].reverse())
    expect(await everyPage(store, { limit: 2 })).toEqual([...newest].reverse())
    expect(await everyPage(store, { order: 'newest', limit: 2, definitionId: definition.id })).toEqual(newest.filter((id) => written.findIndex((w) => w.id === id) % 2 === 0))
    expect((await store.list({ order: 'newest', owner: 'ann' })).conversations.map((c) => c.conversationId)).toEqual([written[4]?.id])
    expect(await everyPage(store, { order: 'newest', limit: 2, updatedBefore: env.date(2000) })).toEqual(newest.filter((id) => (written.find((w) => w.id === id)?.at ?? 0) < 2000))
    // a write moves a conversation to the front; a deletion takes it out at once
    const last = newest.at(-1) as string
    env.at(5000)
    await store.append(last, { expectedVersion: 1, messages: turn('again'), definition: written.findIndex((w) => w.id === last) % 2 === 0 ? definition : other })
    expect((await store.list({ order: 'newest', limit: 1 })).conversations.map((c) => c.conversationId)).toEqual([last])
    await store.delete(last)
    expect(await everyPage(store, { order: 'newest', limit: 3 })).toEqual(newest.slice(0, -1))
    const bad = await rejection(store.list({ order: 'sideways' as 'newest' }))
    expect(isChatrailConfigError(bad)).toBe(true)
    expect(bad).toMatchObject({ issues: [{ code: 'invalid_order' }] })
  })

  check('S18', 'load with lastMessages / beforeMessage reads a range of the log and says where it sits', async () => {
    const store = env.store()
    env.at(0)
    const log = Array.from({ length: 6 }, (_, i) => turn(`t${i}`)).flat()
    await store.append('r1', { expectedVersion: 0, messages: log, definition })
    const whole = await store.load('r1')
    expect(whole?.messages).toEqual(log)
    expect(whole?.range).toBeUndefined()
    const tail = await store.load('r1', { lastMessages: 5 })
    expect(tail?.messages).toEqual(log.slice(7))
    expect(tail?.range).toEqual({ from: 7, total: 12 })
    expect({ ...tail, messages: undefined, range: undefined }).toEqual({ ...whole, messages: undefined, range: undefined })
    const back = await store.load('r1', { lastMessages: 5, beforeMessage: log[7]?.id as string })
    expect(back?.messages).toEqual(log.slice(2, 7))
    expect(back?.range).toEqual({ from: 2, total: 12 })
    const start = await store.load('r1', { lastMessages: 5, beforeMessage: log[2]?.id as string })
    expect(start?.messages).toEqual(log.slice(0, 2))
    expect(start?.range).toEqual({ from: 0, total: 12 })
    expect(await store.load('r1', { beforeMessage: log[3]?.id as string })).toMatchObject({ messages: log.slice(0, 3), range: { from: 0, total: 12 } })
    expect(await store.load('r1', { lastMessages: 100 })).toMatchObject({ messages: log, range: { from: 0, total: 12 } })
    // 0: the header alone (version, times), cheap at any length
    expect(await store.load('r1', { lastMessages: 0 })).toMatchObject({ messages: [], version: 1, range: { from: 12, total: 12 } })
    expect(await store.load('absent', { lastMessages: 3 })).toBeUndefined()
    // after an edit cut the tail, positions follow the log as it is now
    await store.append('r1', { expectedVersion: 1, truncateAfter: log[3]?.id as string, messages: turn('edited'), definition })
    expect(await store.load('r1', { lastMessages: 3 })).toMatchObject({ range: { from: 3, total: 6 } })
    const gone = await rejection(store.load('r1', { beforeMessage: log[9]?.id as string }))
    expect(isChatrailConfigError(gone)).toBe(true)
    expect(gone).toMatchObject({ issues: [{ code: 'unknown_message' }] })
    for (const lastMessages of [-1, 1.5, Number.NaN]) {
      const invalid = await rejection(store.load('r1', { lastMessages }))
      expect(invalid).toMatchObject({ issues: [{ code: 'invalid_range' }] })
    }
    // an empty conversation (everything truncated) reads as an empty range
    await store.append('r1', { expectedVersion: 2, truncateAfter: null, messages: [], definition })
    expect(await store.load('r1', { lastMessages: 3 })).toMatchObject({ messages: [], range: { from: 0, total: 0 } })
  })
}

