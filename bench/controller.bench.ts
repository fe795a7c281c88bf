import { bench, describe } from 'vitest'
import type { AdapterFactory, AdapterRequest } from '../src/contract/adapter.js'
import type { Message } from '../src/contract/message.js'
import type { StreamChunk } from '../src/contract/stream.js'
import { createChatController } from '../src/controller/index.js'
import { commandRoute, createChatSession, defineChat } from '../src/index.js'
import { compare, ratioText, type Comparison } from './support/compare.js'

// The controller's per-turn overhead as a ratio to iterating the same scripted stream directly
// (same adapter, same chunks). Three shapes: a short reply (10 chunks), a long one (1,000 chunks),
// and a short reply at a history of 1,000 messages (the history is shared between states; the
// model request's array is built only if the adapter reads it).
//
// Issue 20 adds two scaling rows, each a ratio of two rows measured in the same run: the cost of a
// streamed chunk at a history of 1,000 messages vs 10 (a 200-chunk reply; target ≤ 1.5×: the
// history is structurally shared, see docs/performance.md; and 10,000 vs 10), and a soak row, the cost of a turn at
// 100,000 turns of history vs at 1,000. The long history is restored with `setMessages` from
// stored messages before each timed turn (O(1)), so the run stays bounded and every turn sees
// the same history. The soak runs with the bare adapter, with the same adapter behind a session
// (which reads the newest messages through the request's history view, never its array), behind a
// session with a recordKey (which verifies only the records it has not seen), and with a systemPrompt.
//
// Every ratio is measured by support/compare.ts (warm-up, batches sized by time per repetition,
// ABBA pairs, CPU time, the median of the per-pair ratios with their spread); absolute times are
// machine-dependent, only the ratios mean anything.

const reply = (chunks: number): StreamChunk[] => [
  ...Array.from({ length: chunks }, (_, index): StreamChunk => ({ type: 'text', content: `w${index} ` })),
  { type: 'done' },
]
const at = new Date(0)
const history = (size: number): Message[] =>
  Array.from({ length: size }, (_, index): Message => ({ id: `h${index}`, role: index % 2 ? 'assistant' : 'user', content: `message ${index}`, status: 'complete', createdAt: at }))

/** A bare scripted adapter that keeps no requests (a recorder would retain every history copy over thousands of batched turns). */
const bare = (chunks: StreamChunk[]): AdapterFactory => ({
  createSource: () => ({
    stream: async function* () {
      yield* chunks
    },
    abort: () => undefined,
  }),
})

interface Shape {
  name: string
  direct: () => Promise<void>
  controller: () => Promise<void>
}

function shape(name: string, chunks: number, historySize: number): Shape {
  const adapter = bare(reply(chunks))
  const past = history(historySize)
  const request: AdapterRequest = { messages: past }
  let id = 0
  const controller = createChatController({ adapter }, { ids: () => `m${++id}`, clock: () => at })
  return {
    name,
    direct: async () => {
      let text = ''
      for await (const chunk of adapter.createSource(request).stream()) if (chunk.type === 'text') text += chunk.content ?? ''
      if (!text) throw new Error('the scripted stream produced no text')
    },
    controller: async () => {
      controller.setMessages(past)
      await controller.send('q')
      if (controller.getState().status !== 'idle') throw new Error('the controller turn did not settle')
    },
  }
}

const shapes = [shape('short reply (10 chunks)', 10, 0), shape('long reply (1,000 chunks)', 1000, 0), shape('short reply at history 1,000', 10, 1000)]

const results = new Map<string, Comparison>()
for (const { name, direct, controller } of shapes) results.set(name, await compare(direct, controller))

console.log(
  [
    'controller per-turn overhead (CPU µs, medians; ratios: median of 41 interleaved ABBA pairs (min–max)):',
    ...[...results].map(([name, r]) => `  ${name}: direct ${r.base.toFixed(1)} µs, controller ${r.subject.toFixed(1)} µs → ${ratioText(r)} the direct iteration`),
  ].join('\n'),
)

// ── Issue 20: per-chunk cost and turn cost against history length ────────────────────────────

/** A session over the bare adapter: every turn passes its routes (none matches) and reaches the adapter. */
const sessionOver = (adapter: AdapterFactory, options: { recordKey?: string } = {}): AdapterFactory =>
  createChatSession(
    defineChat({
      id: 'soak',
      chat: { adapter },
      conversation: { initial: 's', states: { s: { on: { go: 's' } } }, routes: [commandRoute({ id: 'go', command: '/go', event: 'go', response: 'Gone.' })] },
    }),
    { lint: false, ...options },
  ).chat.adapter
/** The same with a `recordKey`: every turn verifies the records of its history it has not seen. */
const signedOver = (adapter: AdapterFactory): AdapterFactory => sessionOver(adapter, { recordKey: 'k'.repeat(32) })

/** One timed turn: history restored to `past` (O(1)), then a `send` streamed to its end. */
function turnAt(past: Message[], chunks: number, wrap: (adapter: AdapterFactory) => AdapterFactory = (adapter) => adapter, systemPrompt?: string): () => Promise<void> {
  let id = 0
  const controller = createChatController({ adapter: wrap(bare(reply(chunks))), systemPrompt }, { ids: () => `t${++id}`, clock: () => at })
  return async () => {
    controller.setMessages(past)
    await controller.send('q')
    // Not `messages.length`: reading the array would build it, a second history-sized copy per turn.
    if (controller.getState().status !== 'idle') throw new Error('the controller turn did not settle')
  }
}

const CHUNKS = 200
const perChunk = await compare(turnAt(history(10), CHUNKS), turnAt(history(1000), CHUNKS))
const perChunkLong = await compare(turnAt(history(10), CHUNKS), turnAt(history(10_000), CHUNKS))
const soak = await compare(turnAt(history(2 * 1000), 10), turnAt(history(2 * 100_000), 10))
const sessionSoak = await compare(turnAt(history(2 * 1000), 10, sessionOver), turnAt(history(2 * 100_000), 10, sessionOver))
const signedSoak = await compare(turnAt(history(2 * 1000), 10, signedOver), turnAt(history(2 * 100_000), 10, signedOver))
const promptSoak = await compare(turnAt(history(2 * 1000), 10, undefined, 'Be brief.'), turnAt(history(2 * 100_000), 10, undefined, 'Be brief.'))
console.log(
  [
    'controller scaling (CPU µs, medians; ratios: median of 41 interleaved ABBA pairs (min–max)):',
    `  per chunk: history 10 ${(perChunk.base / CHUNKS).toFixed(2)} µs · history 1,000 ${(perChunk.subject / CHUNKS).toFixed(2)} µs → ${ratioText(perChunk)} (target ≤ 1.5×)`,
    `  per chunk: history 10 ${(perChunkLong.base / CHUNKS).toFixed(2)} µs · history 10,000 ${(perChunkLong.subject / CHUNKS).toFixed(2)} µs → ${ratioText(perChunkLong)}`,
    `  soak, a 10-chunk turn: at 1,000 turns ${soak.base.toFixed(1)} µs · at 100,000 turns ${soak.subject.toFixed(1)} µs → ${ratioText(soak)} (target: flat; the request's array is built only if the adapter reads it)`,
    `  soak through a session (routes tried, the turn falls through): at 1,000 turns ${sessionSoak.base.toFixed(1)} µs · at 100,000 turns ${sessionSoak.subject.toFixed(1)} µs → ${ratioText(sessionSoak)} (the session reads the newest messages through the request's history view)`,
    `  soak through a session with a recordKey: at 1,000 turns ${signedSoak.base.toFixed(1)} µs · at 100,000 turns ${signedSoak.subject.toFixed(1)} µs → ${ratioText(signedSoak)} (records are verified from the newest message verified before)`,
    `  soak with a systemPrompt: at 1,000 turns ${promptSoak.base.toFixed(1)} µs · at 100,000 turns ${promptSoak.subject.toFixed(1)} µs → ${ratioText(promptSoak)} (whether history holds the prompt comes from an index, not a scan)`,
  ].join('\n'),
)

describe('controller turn vs iterating the scripted stream directly', () => {
  for (const { name, direct, controller } of shapes) {
    const result = results.get(name)
    bench(`${name}: direct iteration (baseline)`, direct)
    bench(`${name}: controller turn [${result ? ratioText(result) : '?'} the baseline]`, controller)
  }
})

describe('controller scaling with history (issue 20)', () => {
  bench(`a streamed chunk at history 1,000 [${ratioText(perChunk)} of history 10, per chunk]`, turnAt(history(1000), CHUNKS), { time: 200 })
  bench(`a turn at 100,000 turns [${ratioText(soak)} of a turn at 1,000 turns]`, turnAt(history(2 * 100_000), 10), { time: 200 })
  bench(`a session turn at 100,000 turns [${ratioText(sessionSoak)} of one at 1,000 turns]`, turnAt(history(2 * 100_000), 10, sessionOver), { time: 200 })
})
