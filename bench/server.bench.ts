import { randomUUID } from 'node:crypto'
import { PGlite } from '@electric-sql/pglite'
import { bench, describe } from 'vitest'
import type { Message } from '../src/contract/message.js'
import { commandRoute, createChatSession, defineChat } from '../src/index.js'
import { createChatHandler, type ChatHandler } from '../src/server/index.js'
import { memoryStore, pgliteStore, postgresStore, type ConversationStore } from '../src/store/index.js'
import { compare, interleave, ratioText, spreadOf, spreadText, type Comparison, type Spread } from './support/compare.js'

// chatrail/server (issue 17 § Speed), one process, ratios in one run: the handler's cost per
// deterministic turn (an in-process Request → a drained Response: body parsing, the store's load,
// claim and fenced append, the session turn, SSE encoding) against the bare session turn (the same
// turn drained from session.chat.adapter), on memory (target ≤ 3×), PGlite and Postgres.
// A second baseline is the floor of any Web-standard handler on this runtime: a Request whose JSON
// body is read, answered by a streamed Response carrying the same SSE parts (no session, no store).
// Each call is a new conversation's first turn, so history length never changes the cost (the last
// rows measure the same handler on a conversation kept at 100 stored messages). The
// handler's own overhead is what it costs above the floor: (handler − floor) / bare session turn.
// Every ratio by support/compare.ts (batches sized by time per repetition, ABBA order, the median of
// the per-repetition ratios with their spread). Memory and PGlite: CPU time (in-process: PGlite runs
// in this process, so its work is this process's CPU time), the three memory rows interleaved S F H /
// H F S; Postgres: wall time (its work is another process's). Postgres needs
// CHATRAIL_TEST_POSTGRES_URL (.ci/postgres.sh).

const URL_ENV = process.env.CHATRAIL_TEST_POSTGRES_URL
const RUN = randomUUID().replaceAll('-', '').slice(0, 12)
const definition = defineChat({
  id: 'bench',
  chat: {},
  conversation: { initial: 's', states: { s: { on: { go: 's' } } }, routes: [commandRoute({ id: 'go', command: '/go', event: 'go', response: 'ok' })], fallback: { response: 'no' } },
})
// Warm-up turns per row before measuring. A server runs warm, and the handler's path is long: with
// a few turns of warm-up most measured turns ran before V8 had optimized it (measured on the same
// code: ≈ 0.4 ms of CPU a handler turn after 10 warm-up turns, ≈ 0.1 ms after 3,000), so the ratios
// said more about the JIT than about the handler. The database rows wait on I/O, where it matters less.
const WARM_MEMORY = 3000
const WARM_DATABASE = 100
// Milliseconds per measured batch, and repetitions of the memory rows.
const BATCH_MS = 40
const REPS_MEMORY = 41
let n = 0

/** The bare session turn: a fresh session answers '/go', drained to `done`. */
async function sessionTurn(): Promise<void> {
  const session = createChatSession(definition, { lint: false, sessionId: `s${++n}` })
  const user: Message = { id: `u${n}`, role: 'user', content: '/go', status: 'complete', createdAt: new Date(0) }
  const iterator = session.chat.adapter.createSource({ messages: [user] }).stream()
  for (let step = await iterator.next(); !step.done; step = await iterator.next()) void step.value
  session.dispose()
}

/** The same turn through the handler: a Request in, the Response body drained. */
function handlerTurn(handler: ChatHandler): () => Promise<void> {
  return async () => {
    const id = `c${++n}-${RUN}`
    const response = await handler(new Request('http://localhost/api/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id, messages: [{ id: `u${n}`, role: 'user', parts: [{ type: 'text', text: '/go' }] }], trigger: 'submit-message' }),
    }))
    await response.arrayBuffer()
  }
}

/** A turn POSTed to a conversation through `handler`: a Request in, the Response body drained. */
async function post(handler: ChatHandler, id: string, userId: string, text: string): Promise<void> {
  const response = await handler(new Request('http://localhost/api/chat', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id, messages: [{ id: userId, role: 'user', parts: [{ type: 'text', text }] }], trigger: 'submit-message' }),
  }))
  await response.arrayBuffer()
}

/** Stored messages of the long-conversation rows: a POST loads and decodes them (twice before the claim reported the version). */
const HISTORY = 100

/**
 * A deterministic turn on a conversation of `HISTORY` stored messages. The conversation is written
 * by the handler itself (`HISTORY / 2` turns); every measured turn then edits its last user message
 * (same id, the text alternating between '/go' and '/go ', which the trimmed command route answers
 * alike), so the store drops the last exchange and appends the new one: the history the turn loads
 * stays at `HISTORY` messages however many turns run.
 */
async function longConversationTurn(handler: ChatHandler): Promise<() => Promise<void>> {
  const id = `long${++n}-${RUN}`
  for (let i = 0; i < HISTORY / 2; i++) await post(handler, id, `${id}-u${i}`, '/go')
  const last = `${id}-u${HISTORY / 2 - 1}`
  let turns = 0
  return () => post(handler, id, last, ++turns % 2 === 1 ? '/go ' : '/go')
}

/** The floor: read the JSON body, stream the same SSE parts, drain. */
const floorParts = ['start', 'text-start', 'text-delta', 'text-end', 'data-chatrail', 'finish'].map((type) => `data: {"type":"${type}"}\n\n`)
async function webFloor(): Promise<void> {
  const request = new Request('http://localhost/api/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: `f${++n}`, messages: [{ id: `u${n}`, role: 'user', parts: [{ type: 'text', text: '/go' }] }], trigger: 'submit-message' }) })
  void (await request.json())
  const encoder = new TextEncoder()
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const part of floorParts) controller.enqueue(encoder.encode(part))
      controller.enqueue(encoder.encode('data: [DONE]\n\n'))
      controller.close()
    },
  })
  await new Response(body).arrayBuffer()
}

/**
 * The database rows: the handler on PGlite or Postgres against the bare session turn, after
 * `WARM_DATABASE` warm-up turns each; CPU time for PGlite (in this process), wall time for Postgres.
 */
async function compareDatabase(base: () => Promise<unknown>, subject: () => Promise<unknown>, clock: 'cpu' | 'wall'): Promise<Comparison> {
  for (let i = 0; i < WARM_DATABASE; i++) {
    await base()
    await subject()
  }
  return compare(base, subject, { repetitions: 15, batchMs: BATCH_MS, warmUpMs: 0, clock })
}

const stores: { name: string; store: ConversationStore; close: () => Promise<void> }[] = []
const memory = memoryStore()
stores.push({ name: 'memory', store: memory, close: () => memory.close() })
const pgliteDb = await PGlite.create()
const pglite = pgliteStore({ db: pgliteDb, schema: `serverbench_${RUN}` })
stores.push({ name: 'PGlite', store: pglite, close: async () => { await pglite.close(); await pgliteDb.close() } })
if (URL_ENV) {
  const postgres = postgresStore({ connectionString: URL_ENV, schema: `serverbench_${RUN}`, max: 4 })
  stores.push({ name: 'Postgres', store: postgres, close: () => postgres.close() })
}

/**
 * The memory rows, three-way: the bare session turn (S), the Web floor (F) and the handler (H) in one
 * interleave (S F H, then H F S, …), so each repetition gives H/S, F/S and (H − F)/S from batches run
 * back to back; each figure is the median of its per-repetition values, with their spread. CPU time
 * (on a machine shared with other work the wall clock mostly measures the scheduler, while an
 * in-process turn on the memory store is pure CPU). Each row's batch is sized to ~`BATCH_MS` of CPU,
 * re-sized after every batch: a batch then spans many young-generation collections, so every row
 * pays its own garbage's share (with batches of a few turns, a cheap row's batches mostly fell
 * between collections and the handler's paid for them: S read 6 µs in the interleave and 20 µs run alone).
 */
async function compareMemory(handler: () => Promise<unknown>): Promise<{ session: number; floor: number; handler: number; handlerRatio: Spread; floorRatio: Spread; overheadRatio: Spread }> {
  for (let i = 0; i < WARM_MEMORY; i++) {
    await sessionTurn()
    await webFloor()
    await handler()
  }
  const [s = [], f = [], h = []] = await interleave([sessionTurn, webFloor, handler], { repetitions: REPS_MEMORY, batchMs: BATCH_MS, warmUpMs: 0 })
  const per = (value: (rep: number) => number): number[] => s.map((_, rep) => value(rep))
  return {
    session: spreadOf(s).median / 1000,
    floor: spreadOf(f).median / 1000,
    handler: spreadOf(h).median / 1000,
    handlerRatio: spreadOf(per((rep) => (h[rep] as number) / (s[rep] as number))),
    floorRatio: spreadOf(per((rep) => (f[rep] as number) / (s[rep] as number))),
    overheadRatio: spreadOf(per((rep) => ((h[rep] as number) - (f[rep] as number)) / (s[rep] as number))),
  }
}

const memoryRow = await compareMemory(handlerTurn(createChatHandler({ definition, store: memory, authenticate: 'none' })))
// Per-call times below are in ms (compare reports µs).
const inMs = (c: Comparison): Comparison => ({ ...c, base: c.base / 1000, subject: c.subject / 1000 })
const results: Record<string, Comparison> = { memory: { base: memoryRow.session, subject: memoryRow.handler, ratio: memoryRow.handlerRatio.median, min: memoryRow.handlerRatio.min, max: memoryRow.handlerRatio.max } }
const clockOf = (name: string): 'cpu' | 'wall' => (name === 'Postgres' ? 'wall' : 'cpu')
for (const { name, store } of stores) if (name !== 'memory') results[name] = inMs(await compareDatabase(sessionTurn, handlerTurn(createChatHandler({ definition, store, authenticate: 'none' })), clockOf(name)))
// The same rows on a conversation of HISTORY stored messages.
const long: Record<string, Comparison> = {}
for (const { name, store } of stores) {
  const turn = await longConversationTurn(createChatHandler({ definition, store, authenticate: 'none' }))
  long[name] = inMs(await compareDatabase(sessionTurn, turn, clockOf(name)))
}

const ms = (value: number): string => (value < 0.1 ? `${(value * 1000).toFixed(1)} µs` : `${value.toFixed(2)} ms`)
console.log([
  `chatrail/server (per deterministic turn, after ${WARM_MEMORY} warm-up turns a row on memory, ${WARM_DATABASE} on databases; memory: CPU time, medians of ${REPS_MEMORY} interleaved S F H / H F S repetitions of ~${BATCH_MS} ms batches; PGlite: CPU time, Postgres: wall time, medians of 15 ABBA pairs of ~${BATCH_MS} ms batches; (min–max) beside each ratio):`,
  `  bare session turn (S)                          ${ms(memoryRow.session)}`,
  `  Web floor (F: Request JSON in, SSE Response out) ${ms(memoryRow.floor)} → F/S ${spreadText(memoryRow.floorRatio)}`,
  `  handler on memory (H)                          ${ms(memoryRow.handler)} → H/S ${spreadText(memoryRow.handlerRatio)} (issue target ≤ 3×: out of reach while F/S alone is over 3)`,
  `  the handler's own overhead                     (H − F)/S ${spreadText(memoryRow.overheadRatio)} (what the handler adds above the floor)`,
  ...stores.filter(({ name }) => name !== 'memory').map(({ name }) => `  handler on ${name.padEnd(8)} ${ms(results[name]!.subject)} vs bare session turn ${ms(results[name]!.base)} → ${ratioText(results[name]!)}`),
  `  on a conversation of ${HISTORY} stored messages (each turn edits the last user message; memory and PGlite: CPU time, Postgres: wall time; medians of 15 ABBA pairs):`,
  ...stores.map(({ name }) => `  handler on ${name.padEnd(8)} ${ms(long[name]!.subject)} vs bare session turn ${ms(long[name]!.base)} → ${ratioText(long[name]!)}`),
  ...(URL_ENV ? [] : ['  Postgres: skipped (CHATRAIL_TEST_POSTGRES_URL not set; see .ci/postgres.sh)']),
].join('\n'))
for (const { close } of stores) await close()

describe('chatrail/server', () => {
  const quick = createChatHandler({ definition, store: memoryStore(), authenticate: 'none' })
  const turn = handlerTurn(quick)
  bench(`handler turn on memory [${Object.entries(results).map(([name, r]) => `${name} ${ratioText(r)}`).join(', ')} of the bare session turn]`, async () => {
    await turn()
  }, { time: 200 })
})
