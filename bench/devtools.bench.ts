import { PGlite } from '@electric-sql/pglite'
import { bench, describe } from 'vitest'
import type { Message } from '../src/contract/message.js'
import type { ChatDefinition } from '../src/conversation/definition.js'
import type { JsonObject } from '../src/conversation/json.js'
import { createDevtoolsHandler, type ConversationDetail, type ConversationListPage } from '../src/devtools/index.js'
import { createChatHandler } from '../src/server/index.js'
import { pgliteStore, type ConversationStore } from '../src/store/index.js'
import { lostCard } from '../examples/lost-card/definition.js'
import { pgliteFromTemplate } from '../test/support/pglite-template.js'
import { median } from './support/compare.js'

// Issue 33 § Large stores: the devtools API on a PGlite store of 10,000 conversations and one of
// 5,000 turns, each request < 200 ms. Wall time per request (PGlite runs in this process), as a
// ratio to the target: first the cold requests, each on a handler made without its warm-up and on
// a store connection that never read the conversation (the database reopened from a dump of the
// filled one: no query planned, nothing in its buffers): the first listing, the first open of the
// long conversation (read from its newest messages), an explanation in it; then the median of 15
// of each request.

const definition = lostCard as unknown as ChatDefinition<JsonObject>
const CONVERSATIONS = 10_000
const TURNS = 5_000
let now = Date.UTC(2026, 0, 1)
const clock = (): number => (now += 1)

const db = await pgliteFromTemplate()
const store: ConversationStore = pgliteStore({ db, schema: 'public', clock })
const chat = createChatHandler({ definition, store, authenticate: 'none', clock })

let turns = 0
async function turn(conversationId: string, text: string): Promise<void> {
  turns += 1
  const response = await chat(new Request('http://localhost/api/chat', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id: conversationId, trigger: 'submit-message', messages: [{ id: `${conversationId}-u${turns}`, role: 'user', parts: [{ type: 'text', text }] }] }),
  }))
  if (!response.ok) throw new Error(`turn ${text}: ${response.status} ${await response.text()}`)
  await response.text()
}

/** A stored history with every id (and every record's `messageId`) made unique to `prefix`. */
function cloned(messages: readonly Message[], prefix: string): Message[] {
  return messages.map((message) => {
    const record = (message.metadata as { chatrail?: { messageId?: string; turnId?: string } } | undefined)?.chatrail
    const metadata = record?.messageId === undefined ? message.metadata : { ...message.metadata, chatrail: { ...record, messageId: `${prefix}${record.messageId}`, turnId: `${prefix}${record.turnId ?? ''}` } }
    return { ...message, id: `${prefix}${message.id}`, ...(metadata === undefined ? {} : { metadata }) }
  })
}

// templates: three turns for the many (greeting → identify → a slot), two for the long one (/start, /cancel)
await turn('template-small', '/start')
await turn('template-small', '4821')
await turn('template-small', 'not a postcode')
await turn('template-loop', '/start')
await turn('template-loop', '/cancel')
const small = (await store.load('template-small'))?.messages ?? []
const loop = (await store.load('template-loop'))?.messages ?? []
const ref = { id: definition.id, revision: definition.revision }
const filling = performance.now()
for (let i = 0; i < CONVERSATIONS; i++) await store.append(`c-${i}`, { expectedVersion: 0, messages: cloned(small, `c${i}-`), definition: ref })
const long = Array.from({ length: TURNS / 2 }, (_, i) => cloned(loop, `l${i}-`)).flat()
await store.append('long', { expectedVersion: 0, messages: long, definition: ref })
const fillSeconds = (performance.now() - filling) / 1000
const filled = await db.dumpDataDir('none')
await store.close()
await db.close()

/** A new store connection on the filled database (opened and migrated: that is not a request's cost). */
async function reconnected(): Promise<{ store: ConversationStore; db: PGlite }> {
  const fresh = await PGlite.create({ loadDataDir: filled })
  const opened = pgliteStore({ db: fresh, schema: 'public', clock })
  await opened.open?.()
  return { store: opened, db: fresh }
}

const TARGET_MS = 200
const get = (handler: typeof cold) => async (path: string): Promise<Response> => {
  const response = await handler(new Request(`http://localhost/devtools/api${path}`))
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`)
  return response
}
const once = async (handler: typeof cold, path: string): Promise<number> => {
  const at = performance.now()
  await (await get(handler)(path)).text()
  return performance.now() - at
}

// an explanation in the long conversation on a connection and a handler that never read it: the
// state before the message comes from the store's loadDecisions (one row), folded up to the message.
// For comparison first the same on a store without loadDecisions (one written before it), which
// loads the whole log and walks it; measured first, so the explanation code's first run is its
// cost, not the one measured after it
const lastUser = long.findLast((message) => message.role === 'user')?.id ?? ''
const before = await reconnected()
const { loadDecisions: _loadDecisions, ...withoutDecisions } = before.store
const wholeWalk = createDevtoolsHandler({ store: withoutDecisions, definitions: [definition], authenticate: 'none', clock, warmUp: false })
const coldExplainWhole = await once(wholeWalk, `/conversations/long/messages/${lastUser}/explain`)
await before.store.close()
await before.db.close()
const first = await reconnected()
const unread = createDevtoolsHandler({ store: first.store, definitions: [definition], authenticate: 'none', clock, warmUp: false })
const coldExplain = await once(unread, `/conversations/long/messages/${lastUser}/explain`)
await first.store.close()
await first.db.close()

// cold: a handler made without its warm-up on a new connection, so every first request below is its
// first of a kind (nothing listed, no facts, no walk kept); the store's pages and ranged loads are all it has
const second = await reconnected()
const cold = createDevtoolsHandler({ store: second.store, definitions: [definition], authenticate: 'none', clock, warmUp: false })
const coldList = await once(cold, '/conversations?limit=50')
const coldFiltered = await once(cold, '/conversations?limit=50&state=identify&lastKind=refused')
const coldDetail = await once(cold, '/conversations/long')
const partial = (await (await get(cold)('/conversations/long')).json()) as ConversationDetail
// the whole walk the first open started, beside the requests: waited for here
let waited = 0
const walking = performance.now()
while (!((await (await get(cold)('/conversations/long')).json()) as ConversationDetail).page.complete && waited++ < 2000) await new Promise((resolve) => setTimeout(resolve, 5))
const walkMs = performance.now() - walking

const devtools = cold
async function timed(path: () => string): Promise<{ cold: number; warm: number }> {
  const first = await once(devtools, path())
  const runs: number[] = []
  for (let i = 0; i < 15; i++) runs.push(await once(devtools, path()))
  return { cold: first, warm: median(runs) }
}

const firstPage = await timed(() => '/conversations?limit=50')
const page = (await (await get(devtools)('/conversations?limit=50')).json()) as ConversationListPage
const secondPage = await timed(() => `/conversations?limit=50&cursor=${encodeURIComponent(page.nextCursor ?? '')}`)
const filtered = await timed(() => '/conversations?limit=50&state=identify&lastKind=refused')
const detail = await timed(() => '/conversations/long')
const exact = (await (await get(devtools)('/conversations/long')).json()) as ConversationDetail
const earlier = await timed(() => `/conversations/long?before=${exact.page.earlier ?? ''}`)
const bytes = (await (await get(devtools)('/conversations/long')).text()).length
const explain = await timed(() => `/conversations/long/messages/${lastUser}/explain`)

const ms = (value: number): string => `${value.toFixed(1)} ms`
const ratio = (value: number): string => `${(value / TARGET_MS).toFixed(2)}× target`
const row = (name: string, t: { cold: number; warm: number }): string => `    ${name.padEnd(58)} ${ms(t.warm).padStart(9)} (${ratio(t.warm)})`
console.log([
  `devtools API on PGlite: ${CONVERSATIONS.toLocaleString('en')} conversations + one of ${TURNS.toLocaleString('en')} turns (filled in ${fillSeconds.toFixed(1)} s); wall time per request (target < ${TARGET_MS} ms):`,
  `  cold: a handler (warmUp: false) and a store connection new to the data, each its first request of a kind:`,
  `    first list page ${ms(coldList)} (${ratio(coldList)}), first filtered page ${ms(coldFiltered)} (${ratio(coldFiltered)})`,
  `    first open of the 5,000-turn conversation ${ms(coldDetail)} (${ratio(coldDetail)}): its newest ${partial.turns.length} turns from a ranged load, complete: ${String(partial.page.complete)}`,
  `    its whole walk, beside the requests: done ${ms(walkMs)} later`,
  `    explain in the 5,000-turn conversation, on a connection that never read it ${ms(coldExplain)} (${ratio(coldExplain)}): its decisions alone (loadDecisions)`,
  `      (a store without loadDecisions, the whole log loaded and walked: ${ms(coldExplainWhole)}, ${ratio(coldExplainWhole)})`,
  `  then, median of 15:`,
  row('GET /conversations?limit=50 (newest page)', firstPage),
  row('GET /conversations?limit=50&cursor=… (second page)', secondPage),
  row('GET /conversations?state=identify&lastKind=refused', filtered),
  row(`GET /conversations/long (newest 200 of ${TURNS.toLocaleString('en')} turns, ${(bytes / 1e3).toFixed(0)} kB JSON)`, detail),
  row('GET /conversations/long?before=… (the 200 before)', earlier),
  row('GET /conversations/long/messages/<last>/explain', explain),
].join('\n'))
await second.store.close()
await second.db.close()

describe('devtools API (PGlite, 10,000 conversations, a 5,000-turn conversation)', () => {
  bench(`cold: list page ${ratio(coldList)}, filtered ${ratio(coldFiltered)}, 5,000-turn conversation ${ratio(coldDetail)}, explain in it ${ratio(coldExplain)}; warm: list ${ratio(firstPage.warm)}, 5,000-turn page ${ratio(detail.warm)}, explain ${ratio(explain.warm)}`, () => undefined, { iterations: 1 })
})
