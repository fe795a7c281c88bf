import { bench, describe } from 'vitest'
import type { Message } from '../src/contract/message.js'
import type { ChatDefinition } from '../src/conversation/definition.js'
import type { JsonObject } from '../src/conversation/json.js'
import { createDevtoolsHandler, type ConversationListPage } from '../src/devtools/index.js'
import { createChatHandler } from '../src/server/index.js'
import { pgliteStore, type ConversationStore } from '../src/store/index.js'
import { lostCard } from '../examples/lost-card/definition.js'
import { pgliteFromTemplate } from '../test/support/pglite-template.js'
import { median } from './support/compare.js'

// Issue 33 § Large stores: the devtools API on a PGlite store of 10,000 conversations and one of
// 5,000 turns, each request < 200 ms. Wall time per request (PGlite runs in this process), the
// median of 15 requests after one cold request, which is reported apart: the first listing scans
// the whole store into the index and computes the facts of the page it shows.

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

// made twice: cold (the first listing scans the whole store), and warmed up (the default: the
// handler builds its index and the newest page's facts as soon as it is made)
const cold = createDevtoolsHandler({ store, definitions: [definition], authenticate: 'none', clock, warmUp: false })
let at = performance.now()
await (await cold(new Request('http://localhost/devtools/api/conversations?limit=50'))).text()
const coldList = performance.now() - at
at = performance.now()
await (await cold(new Request('http://localhost/devtools/api/conversations/long'))).text()
const coldDetail = performance.now() - at
const devtools = createDevtoolsHandler({ store, definitions: [definition], authenticate: 'none', clock })
// what the warm-up does in the background, waited for here: the index and the newest page's facts
at = performance.now()
await (await devtools(new Request('http://localhost/devtools/api/conversations?limit=1'))).text()
const warmUpMs = performance.now() - at
const get = async (path: string): Promise<Response> => {
  const response = await devtools(new Request(`http://localhost/devtools/api${path}`))
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`)
  return response
}
async function timed(path: () => string): Promise<{ cold: number; warm: number }> {
  const at = performance.now()
  await (await get(path())).text()
  const cold = performance.now() - at
  const runs: number[] = []
  for (let i = 0; i < 15; i++) {
    const start = performance.now()
    await (await get(path())).text()
    runs.push(performance.now() - start)
  }
  return { cold, warm: median(runs) }
}

const firstPage = await timed(() => '/conversations?limit=50')
const page = (await (await get('/conversations?limit=50')).json()) as ConversationListPage
const secondPage = await timed(() => `/conversations?limit=50&cursor=${encodeURIComponent(page.nextCursor ?? '')}`)
const filtered = await timed(() => '/conversations?limit=50&state=identify&lastKind=refused')
const detail = await timed(() => '/conversations/long')
const bytes = (await (await get('/conversations/long')).text()).length
const lastUser = long.findLast((message) => message.role === 'user')?.id ?? ''
const explain = await timed(() => `/conversations/long/messages/${lastUser}/explain`)

const ms = (value: number): string => `${value.toFixed(1)} ms`
const row = (name: string, t: { cold: number; warm: number }): string => `    ${name.padEnd(52)} ${ms(t.warm).padStart(9)} (its first request ${ms(t.cold)})`
console.log([
  `devtools API on PGlite: ${CONVERSATIONS.toLocaleString('en')} conversations + one of ${TURNS.toLocaleString('en')} turns (filled in ${fillSeconds.toFixed(1)} s); wall time per request, median of 15 (target < 200 ms):`,
  `  cold handler (warmUp: false): first list page ${ms(coldList)} (scans the whole store), first 5,000-turn page ${ms(coldDetail)} (store.load of 10,000 messages, then the walk)`,
  `  warmed-up handler: its index and newest page ready ${ms(warmUpMs)} after it was made; then:`,
  row('GET /conversations?limit=50 (newest page)', firstPage),
  row('GET /conversations?limit=50&cursor=… (second page)', secondPage),
  row('GET /conversations?state=identify&lastKind=refused', filtered),
  row(`GET /conversations/long (${TURNS.toLocaleString('en')} turns, ${(bytes / 1e6).toFixed(1)} MB JSON)`, detail),
  row('GET /conversations/long/messages/<last>/explain', explain),
].join('\n'))
await store.close()
await db.close()

describe('devtools API (PGlite, 10,000 conversations, a 5,000-turn conversation)', () => {
  bench(`list page ${ms(firstPage.warm)} (cold handler ${ms(coldList)}), 5,000-turn conversation ${ms(detail.warm)} (first ${ms(detail.cold)}), filtered list ${ms(filtered.warm)}, explain ${ms(explain.warm)}; target < 200 ms`, () => undefined, { iterations: 1 })
})
