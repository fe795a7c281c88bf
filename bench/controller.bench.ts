import { bench, describe } from 'vitest'
import type { AdapterFactory, AdapterRequest } from '../src/contract/adapter.js'
import type { Message } from '../src/contract/message.js'
import type { StreamChunk } from '../src/contract/stream.js'
import { createChatController } from '../src/controller/index.js'
import { commandRoute, createChatSession, defineChat } from '../src/index.js'
import { scriptedAdapter } from '../src/testing/scripted-adapter.js'

// The controller's per-turn overhead as a ratio to iterating the same scripted stream directly
// (same adapter, same chunks). Three shapes: a short reply (10 chunks), a long one (1,000 chunks),
// and a short reply at a history of 1,000 messages (the history is shared between states; the
// model request's array is built only if the adapter reads it).
// Rows are interleaved batch by batch and the median of 7 batches is reported, on stdout and in
// the bench names; absolute times are machine-dependent, only the ratios mean anything.
//
// Issue 20 adds two scaling rows, each a ratio of two rows measured in the same run: the cost of a
// streamed chunk at a history of 1,000 messages vs 10 (a 200-chunk reply; target ≤ 1.5×: the
// history is structurally shared, see docs/performance.md; and 10,000 vs 10), and a soak row, the cost of a turn at
// 100,000 turns of history vs at 1,000. The long history is restored with `setMessages` from
// stored messages before each timed turn (O(1)), so the run stays bounded and every turn sees
// the same history. The soak runs with the bare adapter, with the same adapter behind a session
// (which reads the newest messages through the request's history view, never its array), behind a
// session with a recordKey (which verifies only the records it has not seen), and with a systemPrompt.

const reply = (chunks: number): StreamChunk[] => [
  ...Array.from({ length: chunks }, (_, index): StreamChunk => ({ type: 'text', content: `w${index} ` })),
  { type: 'done' },
]
const at = new Date(0)
const history = (size: number): Message[] =>
  Array.from({ length: size }, (_, index): Message => ({ id: `h${index}`, role: index % 2 ? 'assistant' : 'user', content: `message ${index}`, status: 'complete', createdAt: at }))

interface Shape {
  name: string
  direct: () => Promise<void>
  controller: () => Promise<void>
}

function shape(name: string, chunks: number, historySize: number): Shape {
  const adapter = scriptedAdapter([reply(chunks)])
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

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN
async function perOp(fn: () => Promise<void>, repeat: number): Promise<number> {
  const started = performance.now()
  for (let index = 0; index < repeat; index += 1) await fn()
  return ((performance.now() - started) * 1000) / repeat
}

const results = new Map<string, { direct: number; controller: number; ratio: number }>()
for (const { name, direct, controller } of shapes) {
  const repeat = name.startsWith('long') ? 20 : 300
  await perOp(direct, repeat) // warm up both paths before measuring
  await perOp(controller, repeat)
  const ratios: number[] = []
  const directs: number[] = []
  const controllers: number[] = []
  for (let batch = 0; batch < 7; batch += 1) {
    const d = await perOp(direct, repeat)
    const c = await perOp(controller, repeat)
    directs.push(d)
    controllers.push(c)
    ratios.push(c / d)
  }
  results.set(name, { direct: median(directs), controller: median(controllers), ratio: median(ratios) })
}

console.log(
  [
    'controller per-turn overhead (median of 7 interleaved batches):',
    ...[...results].map(([name, r]) => `  ${name}: direct ${r.direct.toFixed(1)} µs, controller ${r.controller.toFixed(1)} µs → ${r.ratio.toFixed(2)}× the direct iteration`),
  ].join('\n'),
)

// ── Issue 20: per-chunk cost and turn cost against history length ────────────────────────────

/** A bare scripted adapter that keeps no requests (the recorder would retain every history copy). */
const bare = (chunks: StreamChunk[]): AdapterFactory => ({
  createSource: () => ({
    stream: async function* () {
      yield* chunks
    },
    abort: () => undefined,
  }),
})

interface Comparison {
  /** CPU µs per call, medians over the repetitions. */
  base: number
  subject: number
  /** Median of the per-repetition ratios subject/base: robust to load that drifts between batches. */
  ratio: number
}

/**
 * Compares two rows by this process's CPU time (the machine is shared: other processes' load must
 * not land in one row only). Each row is warmed up, batches are sized to ~20 ms, then 21
 * repetitions run interleaved in ABBA order; the median of the per-repetition ratios is reported.
 */
async function compare(base: () => Promise<unknown>, subject: () => Promise<unknown>): Promise<Comparison> {
  const run = async (fn: () => Promise<unknown>, n: number): Promise<number> => {
    const start = process.cpuUsage()
    for (let i = 0; i < n; i++) await fn()
    const used = process.cpuUsage(start)
    return (used.user + used.system) / n
  }
  const size = async (fn: () => Promise<unknown>): Promise<number> => {
    for (let warm = performance.now(); performance.now() - warm < 200; ) await fn()
    return Math.max(2, Math.round(20_000 / Math.max(await run(fn, 8), 1)))
  }
  const nBase = await size(base)
  const nSubject = await size(subject)
  const bases: number[] = []
  const subjects: number[] = []
  const ratios: number[] = []
  for (let rep = 0; rep < 21; rep++) {
    const baseFirst = rep % 2 === 0
    const first = await run(baseFirst ? base : subject, baseFirst ? nBase : nSubject)
    const second = await run(baseFirst ? subject : base, baseFirst ? nSubject : nBase)
    const [b, t] = baseFirst ? [first, second] : [second, first]
    bases.push(b)
    subjects.push(t)
    ratios.push(t / b)
  }
  return { base: median(bases), subject: median(subjects), ratio: median(ratios) }
}

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
    'controller scaling (CPU time, medians of 21 interleaved ABBA pairs):',
    `  per chunk: history 10 ${(perChunk.base / CHUNKS).toFixed(2)} µs · history 1,000 ${(perChunk.subject / CHUNKS).toFixed(2)} µs → ${perChunk.ratio.toFixed(2)}× (target ≤ 1.5×)`,
    `  per chunk: history 10 ${(perChunkLong.base / CHUNKS).toFixed(2)} µs · history 10,000 ${(perChunkLong.subject / CHUNKS).toFixed(2)} µs → ${perChunkLong.ratio.toFixed(2)}×`,
    `  soak, a 10-chunk turn: at 1,000 turns ${soak.base.toFixed(1)} µs · at 100,000 turns ${soak.subject.toFixed(1)} µs → ${soak.ratio.toFixed(2)}× (target: flat; the request's array is built only if the adapter reads it)`,
    `  soak through a session (routes tried, the turn falls through): at 1,000 turns ${sessionSoak.base.toFixed(1)} µs · at 100,000 turns ${sessionSoak.subject.toFixed(1)} µs → ${sessionSoak.ratio.toFixed(2)}× (the session reads the newest messages through the request's history view)`,
    `  soak through a session with a recordKey: at 1,000 turns ${signedSoak.base.toFixed(1)} µs · at 100,000 turns ${signedSoak.subject.toFixed(1)} µs → ${signedSoak.ratio.toFixed(2)}× (records are verified from the newest message verified before)`,
    `  soak with a systemPrompt: at 1,000 turns ${promptSoak.base.toFixed(1)} µs · at 100,000 turns ${promptSoak.subject.toFixed(1)} µs → ${promptSoak.ratio.toFixed(2)}× (whether history holds the prompt comes from an index, not a scan)`,
  ].join('\n'),
)

describe('controller turn vs iterating the scripted stream directly', () => {
  for (const { name, direct, controller } of shapes) {
    const ratio = results.get(name)?.ratio.toFixed(2) ?? '?'
    bench(`${name}: direct iteration (baseline)`, direct)
    bench(`${name}: controller turn [${ratio}× the baseline]`, controller)
  }
})

describe('controller scaling with history (issue 20)', () => {
  bench(`a streamed chunk at history 1,000 [${perChunk.ratio.toFixed(2)}× of history 10, per chunk]`, turnAt(history(1000), CHUNKS), { time: 200 })
  bench(`a turn at 100,000 turns [${soak.ratio.toFixed(2)}× of a turn at 1,000 turns]`, turnAt(history(2 * 100_000), 10), { time: 200 })
  bench(`a session turn at 100,000 turns [${sessionSoak.ratio.toFixed(2)}× of one at 1,000 turns]`, turnAt(history(2 * 100_000), 10, sessionOver), { time: 200 })
})
