import { randomUUID } from 'node:crypto'
import { PGlite } from '@electric-sql/pglite'
import { bench, describe } from 'vitest'
import type { Message } from '../src/contract/message.js'
import { commandRoute, createChatSession, defineChat } from '../src/index.js'
import { createChatHandler, type ChatHandler } from '../src/server/index.js'
import { memoryStore, pgliteStore, postgresStore, type ConversationStore } from '../src/store/index.js'

// chatrail/server (issue 17 § Speed), one process, ratios in one run: the handler's cost per
// deterministic turn (an in-process Request → a drained Response: body parsing, the store's load,
// claim and fenced append, the session turn, SSE encoding) against the bare session turn (the same
// turn drained from session.chat.adapter), on memory (target ≤ 3×), PGlite and Postgres.
// A second baseline is the floor of any Web-standard handler on this runtime: a Request whose JSON
// body is read, answered by a streamed Response carrying the same SSE parts (no session, no store).
// Each call is a new conversation's first turn, so history length never changes the cost. Medians
// of interleaved ABBA pairs: CPU time on the memory store (in-process, pure CPU, robust to a busy
// machine), wall time on PGlite and Postgres (they wait on a database). Postgres needs
// CHATRAIL_TEST_POSTGRES_URL (.ci/postgres.sh).

const URL_ENV = process.env.CHATRAIL_TEST_POSTGRES_URL
const RUN = randomUUID().replaceAll('-', '').slice(0, 12)
const definition = defineChat({
  id: 'bench',
  chat: {},
  conversation: { initial: 's', states: { s: { on: { go: 's' } } }, routes: [commandRoute({ id: 'go', command: '/go', event: 'go', response: 'ok' })], fallback: { response: 'no' } },
})
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN
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
 * `cpu` measures this process's CPU time (user + system), not wall time: on a machine shared with
 * other work the wall clock mostly measures the scheduler, while an in-process turn on the memory
 * store is pure CPU. Turns that wait on a database (PGlite, Postgres) are measured in wall time.
 */
async function compare(base: () => Promise<unknown>, subject: () => Promise<unknown>, reps = 15, batch = 20, clock: 'wall' | 'cpu' = 'wall'): Promise<{ base: number; subject: number; ratio: number }> {
  const now = clock === 'wall' ? () => performance.now() : () => {
    const { user, system } = process.cpuUsage()
    return (user + system) / 1000
  }
  const run = async (fn: () => Promise<unknown>): Promise<number> => {
    const start = now()
    for (let i = 0; i < batch; i++) await fn()
    return (now() - start) / batch
  }
  for (let i = 0; i < 5; i++) {
    await base()
    await subject()
  }
  const bases: number[] = []
  const subjects: number[] = []
  const ratios: number[] = []
  for (let rep = 0; rep < reps; rep++) {
    let b: number
    let s: number
    if (rep % 2 === 0) {
      b = await run(base)
      s = await run(subject)
    } else {
      s = await run(subject)
      b = await run(base)
    }
    bases.push(b)
    subjects.push(s)
    ratios.push(s / b)
  }
  return { base: median(bases), subject: median(subjects), ratio: median(ratios) }
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

const results: Record<string, { base: number; subject: number; ratio: number }> = {}
for (const { name, store } of stores) results[name] = await compare(sessionTurn, handlerTurn(createChatHandler({ definition, store, authenticate: 'none' })), 15, 20, name === 'memory' ? 'cpu' : 'wall')
const overFloor = await compare(webFloor, handlerTurn(createChatHandler({ definition, store: memoryStore(), authenticate: 'none' })), 15, 20, 'cpu')
// The floor against the bare session turn: how much of the 3× budget the Request/Response alone takes.
const floorOverSession = await compare(sessionTurn, webFloor, 15, 20, 'cpu')
const memoryResult = results.memory
const overhead = memoryResult ? (memoryResult.subject - floorOverSession.subject) / memoryResult.base : Number.NaN

const ms = (value: number): string => (value < 0.1 ? `${(value * 1000).toFixed(1)} µs` : `${value.toFixed(2)} ms`)
console.log([
  'chatrail/server (per deterministic turn, medians; ratios are medians of 15 interleaved ABBA pairs of 20 turns; memory rows in CPU time, database rows in wall time):',
  ...stores.map(({ name }) => `  handler on ${name.padEnd(8)} ${ms(results[name]!.subject)} vs bare session turn ${ms(results[name]!.base)} → ${results[name]!.ratio.toFixed(2)}×${name === 'memory' ? ' (target ≤ 3×)' : ''}`),
  `  handler on memory   ${ms(overFloor.subject)} vs the Web-standard floor (Request JSON in, streamed Response out, nothing else) ${ms(overFloor.base)} → ${overFloor.ratio.toFixed(2)}×`,
  `  the floor alone     ${ms(floorOverSession.subject)} vs bare session turn ${ms(floorOverSession.base)} → ${floorOverSession.ratio.toFixed(2)}× (so ≤ 3× is out of reach whenever this is over 3×)`,
  `  handler minus floor on memory: ${overhead.toFixed(2)}× the bare session turn`,
  ...(URL_ENV ? [] : ['  Postgres: skipped (CHATRAIL_TEST_POSTGRES_URL not set; see .ci/postgres.sh)']),
].join('\n'))
for (const { close } of stores) await close()

describe('chatrail/server', () => {
  const quick = createChatHandler({ definition, store: memoryStore(), authenticate: 'none' })
  const turn = handlerTurn(quick)
  bench(`handler turn on memory [${Object.entries(results).map(([name, r]) => `${name} ${r.ratio.toFixed(2)}×`).join(', ')} of the bare session turn]`, async () => {
    await turn()
  }, { time: 200 })
})
