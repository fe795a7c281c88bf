import type { PGlite } from '@electric-sql/pglite'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import type { Message } from '../../src/contract/message.js'
import { memoryStore, pgliteStore, type ConversationStore } from '../../src/store/index.js'
import { freshSchema } from './postgres-env.js'
import { pgliteFromTemplate } from '../support/pglite-template.js'
import { DATABASE_ROWS } from '../support/store-rows.js'

// The two ways of reading a large store a part at a time (S17, S18), as properties over any
// write times (many ties) and any page sizes: paging newest-first visits every conversation once,
// in (updatedAt desc, id desc) order, the exact reverse of paging oldest-first; and paging a log
// back from its end with lastMessages/beforeMessage gives back the whole log, each range placed
// where `range.from` says.

const DEF = { id: 'ranges', revision: 1 }
const T0 = Date.UTC(2030, 0, 1)

const message = (id: string, role: Message['role']): Message => ({ id, role, content: id, status: 'complete', createdAt: new Date(T0) })

async function pages(store: ConversationStore, order: 'oldest' | 'newest', limit: number): Promise<string[]> {
  const ids: string[] = []
  let cursor: string | undefined
  do {
    const page = await store.list({ order, limit, ...(cursor === undefined ? {} : { cursor }) })
    ids.push(...page.conversations.map((c) => c.conversationId))
    cursor = page.nextCursor
  } while (cursor !== undefined)
  return ids
}

const scenario = fc.record({
  // each write: which conversation (of 8), at which tick (of 4: ties are the rule)
  writes: fc.array(fc.record({ conversation: fc.nat(7), tick: fc.nat(3) }), { minLength: 1, maxLength: 20 }),
  limit: fc.integer({ min: 1, max: 5 }),
  logLength: fc.nat(14),
  window: fc.integer({ min: 1, max: 6 }),
})

function properties(name: string, makeStore: (clock: () => number) => Promise<ConversationStore>, runs: number): void {
  describe(name, () => {
    it('newest-first pages are the reverse of oldest-first pages, in (updatedAt, id) order; ranges page a log back whole', async () => {
      await fc.assert(
        fc.asyncProperty(scenario, async ({ writes, limit, logLength, window }) => {
          let now = T0
          const store = await makeStore(() => now)
          try {
            const versions = new Map<string, number>()
            const updated = new Map<string, number>()
            let n = 0
            for (const write of writes) {
              const id = `c${write.conversation}`
              now = T0 + write.tick
              const version = versions.get(id) ?? 0
              await store.append(id, { expectedVersion: version, messages: [message(`m${n++}`, 'user')], definition: DEF })
              versions.set(id, version + 1)
              updated.set(id, now)
            }
            const expected = [...updated].sort(([a, x], [b, y]) => y - x || (a < b ? 1 : -1)).map(([id]) => id)
            const newest = await pages(store, 'newest', limit)
            expect(newest).toEqual(expected)
            expect(await pages(store, 'oldest', limit)).toEqual([...expected].reverse())

            const log = Array.from({ length: logLength }, (_, i) => message(`log${i}`, i % 2 === 0 ? 'user' : 'assistant'))
            await store.append('log', { expectedVersion: 0, messages: log, definition: DEF })
            const read: Message[] = []
            let before: string | undefined
            for (;;) {
              const range = await store.load('log', { lastMessages: window, ...(before === undefined ? {} : { beforeMessage: before }) })
              expect(range?.range?.total).toBe(logLength)
              expect(range?.messages).toEqual(log.slice(range?.range?.from, (range?.range?.from ?? 0) + (range?.messages.length ?? 0)))
              read.unshift(...(range?.messages ?? []))
              if ((range?.range?.from ?? 0) === 0) break
              before = range?.messages[0]?.id
            }
            expect(read).toEqual(log)
          } finally {
            await store.close()
          }
        }),
        { numRuns: runs },
      )
    }, 120_000)
  })
}

properties('memoryStore', async (clock) => memoryStore({ clock }), 200)

// not in `npm run test:unit` (CHATRAIL_TEST_STORES=memory), which opens no database
if (DATABASE_ROWS) {
  let shared: Promise<PGlite> | undefined
  afterAll(async () => {
    await (await shared)?.close()
  }, 60_000)
  properties('pgliteStore', async (clock) => pgliteStore({ clock, db: await (shared ??= pgliteFromTemplate()), schema: freshSchema('ranges') }), 25)
}
