import { fileURLToPath } from 'node:url'
import { bench, describe } from 'vitest'
import type { Message } from '../src/contract/message.js'
import type * as Chatrail from '../src/index.js'
import type { ChatSession } from '../src/index.js'
import { loadBundled } from './support/bundled.js'
import { scripted } from './support/scripted-adapter.js'
import { compare, ratioText } from './support/compare.js'

// Issue 32 (1): what a state change costs against the number of routes. Every row of
// conversation.bench.ts transitions back to the state it left, so the snapshot it builds never
// changes and a per-state step that walks the route table (the restart event did, 85–91× at
// 10,000 routes) went unseen. Here every turn changes state, and a second session of an already
// compiled definition builds its first snapshot; each against the same at 10 routes, in one run.
// `npm run bench -- bench/state-change.bench.ts`; docs/performance.md § State changes has the figures.

// The `chatrail` entry alone, bundled as apps run it (support/bundled.ts).
const { commandRoute, createChatSession, defineChat } = await loadBundled<typeof Chatrail>(fileURLToPath(new URL('../src/index.ts', import.meta.url)))

/** A ring of two states, `a ⇄ b` on `go`, and `routes` command routes that fire it. */
function ring(routes: number) {
  return defineChat({
    id: `ring-${routes}`,
    chat: { adapter: scripted },
    conversation: {
      initial: 'a',
      states: { a: { on: { go: 'b' } }, b: { on: { go: 'a' } } },
      routes: Array.from({ length: routes }, (_, i) => commandRoute({ id: `r${i}`, command: `/cmd${i}`, event: 'go', response: `resp${i}` })),
    },
  })
}

let ids = 0
const msg = (content: string): Message => ({ id: `m${++ids}`, role: 'user', content, status: 'complete', createdAt: new Date(0) })

async function dispatch(session: ChatSession, messages: Message[]): Promise<string> {
  let text = ''
  for await (const chunk of session.chat.adapter.createSource({ messages }).stream()) if (chunk.type === 'text') text += chunk.content
  return text
}

// (h) a state change on every turn: a one-message history with a new id, so the session starts
// over from `a` (a snapshot) and the turn moves it to `b` (another).
const turnOver = (session: ChatSession) => async (): Promise<void> => {
  if ((await dispatch(session, [msg('/cmd0')])) !== 'resp0' || session.getSnapshot().state !== 'b') throw new Error('the turn did not move a → b')
}
const turns = await compare(turnOver(createChatSession(ring(10), { lint: false })), turnOver(createChatSession(ring(10_000), { lint: false })))

// (i) a second session of a compiled definition: the first one compiled (and linted) it. Batches of
// ~100 ms: a session is garbage the collector takes in uneven bites (per-batch times wandered 4–50 µs
// at 30 ms batches, pairs 0.14–4.7×).
const small = ring(10)
const large = ring(10_000)
createChatSession(small)
createChatSession(large)
const secondSession = (definition: typeof small) => (): void => {
  if (createChatSession(definition).getSnapshot().state !== 'a') throw new Error('wrong start state')
}
const sessions = await compare(secondSession(small), secondSession(large), { batchMs: 100 })

const us = (value: number): string => `${value.toFixed(2)} µs`
console.log(
  [
    'state changes (CPU µs, medians; ratios: median of 41 interleaved ABBA pairs (min–max)):',
    `  (h) a turn a → b, 10 routes ${us(turns.base)} · 10,000 routes ${us(turns.subject)} → ${ratioText(turns)} (target ≤ 1.5×; AgentsKit 1.0×)`,
    `  (i) second session of a compiled definition, 10 routes ${us(sessions.base)} · 10,000 routes ${us(sessions.subject)} → ${ratioText(sessions)} (target ≤ 1.5×)`,
  ].join('\n'),
)

describe('state changes (issue 32)', () => {
  bench(`(h) a turn that changes state, 10,000 routes [${ratioText(turns)} of 10 routes]`, turnOver(createChatSession(large, { lint: false })), { time: 200 })
  bench(`(i) second session of a compiled 10,000-route definition [${ratioText(sessions)} of 10 routes]`, secondSession(large), { time: 200 })
})
