import type { PGlite } from '@electric-sql/pglite'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import type { Message } from '../../src/contract/message.js'
import type { ChatDefinition } from '../../src/conversation/definition.js'
import type { JsonObject } from '../../src/conversation/json.js'
import { uiEventMessageMetadata } from '../../src/conversation/ui-events.js'
import { createDevtoolsHandler, type ConversationListItem, type ConversationListPage, type MessageExplanation } from '../../src/devtools/index.js'
import { memoryStore, pgliteStore, rederive, type ConversationStore } from '../../src/store/index.js'
import { pgliteFromTemplate } from '../support/pglite-template.js'
import { DATABASE_ROWS } from '../support/store-rows.js'
import { apiChat } from './api/api-chat.js'

// An explanation in a conversation nobody opened, and a listing's facts, are computed from the
// store's `loadDecisions` (no answer's text or parts): they must be exactly what the walk of the
// whole history gives, for every user message, on histories edited and regenerated after the fact (a stale
// record, an answer replaced by one without a record, a truncating write), on every store.

const definition = apiChat as unknown as ChatDefinition<JsonObject>
const ref = { id: definition.id, revision: definition.revision }
const inputs = ['hi', '/start', '/help', '/cancel', '12', '4821', 'sw1a 1aa', 'nope', 'yes', 'no', 'order', 'hlep', 'old menu', 'crash', 'what?']
const events = ['express', 'standard', 'resolve', 'start-over']

const input: fc.Arbitrary<{ text: string; uiEvent?: string }> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...inputs).map((text) => ({ text })) },
  { weight: 1, arbitrary: fc.constantFrom(...events).map((uiEvent) => ({ text: uiEvent, uiEvent })) },
)
/** What happens to a turn after it was stored. */
const change = fc.constantFrom('none', 'none', 'edited', 'regenerated')

/** The store as one written before `loadDecisions` existed: explanations then walk the whole log. */
function withoutDecisions(store: ConversationStore): ConversationStore {
  const { loadDecisions: _loadDecisions, ...rest } = store
  return rest
}

/** Counts the whole-log `load`s (no range) a handler makes. */
function countingWholeLoads(store: ConversationStore): { store: ConversationStore; wholeLoads: () => number } {
  let count = 0
  return {
    store: { ...store, load: (id, options) => ((count += options === undefined ? 1 : 0), store.load(id, options)) },
    wholeLoads: () => count,
  }
}

let runs = 0
async function property(store: ConversationStore): Promise<void> {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.tuple(input, change), { minLength: 1, maxLength: 10 }), fc.nat(9), async (steps, cutAt) => {
      const id = `x${++runs}`
      const users: Message[] = steps.map(([step], i) => ({ id: `${id}-u${i}`, role: 'user', content: step.text, status: 'complete', createdAt: new Date(i * 1000), ...(step.uiEvent === undefined ? {} : { metadata: uiEventMessageMetadata(step.uiEvent) }) }))
      const { messages } = await rederive(definition, users, id)
      const history = messages.map((message) => {
        const turn = users.findIndex((user) => user.id === message.id || (message.role !== 'user' && (message.metadata as { chatrail?: { messageId?: string } } | undefined)?.chatrail?.messageId === user.id))
        const what = turn === -1 ? 'none' : steps[turn]?.[1]
        // edited: the user's text changed under its stored record; regenerated: the answer is now one without a record
        if (what === 'edited' && message.role === 'user') return { ...message, content: `${message.content}!` }
        if (what === 'regenerated' && message.role === 'assistant') return { ...message, content: 'another answer', metadata: {} }
        return message
      })
      // written in two writes, the second truncating after the first's last message but one (a regenerate)
      const cut = Math.min(cutAt + 1, history.length)
      await store.append(id, { expectedVersion: 0, messages: history.slice(0, cut), definition: ref })
      const keep = cut >= 2 ? history[cut - 2]?.id : null
      await store.append(id, { expectedVersion: 1, truncateAfter: keep ?? null, messages: history.slice(cut >= 2 ? cut - 1 : 0), definition: ref })
      expect((await store.load(id))?.messages.map((m) => m.id)).toEqual(history.map((m) => m.id))

      const counted = countingWholeLoads(store)
      const decided = createDevtoolsHandler({ store: counted.store, definitions: [definition], authenticate: 'none', warmUp: false })
      const whole = createDevtoolsHandler({ store: withoutDecisions(store), definitions: [definition], authenticate: 'none', warmUp: false })
      const explain = async (handler: typeof whole, messageId: string): Promise<MessageExplanation> => {
        const response = await handler(new Request(`http://localhost/devtools/api/conversations/${id}/messages/${messageId}/explain`))
        expect(response.status).toBe(200)
        return (await response.json()) as MessageExplanation
      }
      for (const user of history.filter((message) => message.role === 'user')) {
        expect(await explain(decided, user.id)).toEqual(await explain(whole, user.id))
      }
      // the listing's facts (state, last kind, failed turns) from the decisions alone are the whole walk's
      const listed = async (handler: typeof whole): Promise<ConversationListItem | undefined> => {
        const page = (await (await handler(new Request('http://localhost/devtools/api/conversations?limit=200'))).json()) as ConversationListPage
        return page.conversations.find((item) => item.id === id)
      }
      const item = await listed(decided)
      expect(item?.turnCount).toBe(users.length)
      expect(item).toEqual(await listed(whole))
      // the explanations and the facts came from the decisions alone: the log was never read whole
      expect(counted.wholeLoads()).toBe(0)
    }),
    { numRuns: 40 },
  )
}

describe('explain from loadDecisions', () => {
  it('memory store: the same explanation as the whole walk, for every user message of an edited history', async () => {
    await property(memoryStore())
  }, 60_000)

  if (DATABASE_ROWS) {
    let db: PGlite | undefined
    afterAll(async () => {
      await db?.close()
    }, 60_000)
    it('PGlite store (loadDecisions in SQL): the same explanation as the whole walk', async () => {
      db = await pgliteFromTemplate()
      const store = pgliteStore({ db, schema: 'public' })
      await property(store)
      await store.close()
    }, 120_000)
  }
})
