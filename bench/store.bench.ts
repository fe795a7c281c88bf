import { randomUUID } from 'node:crypto'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { bench, describe } from 'vitest'
import type { Message } from '../src/contract/message.js'
import { createChatController } from '../src/controller/index.js'
import { commandRoute, defineChat } from '../src/index.js'
import { memoryStore, openStoredChat, pgliteStore, postgresStore, type ConversationStore } from '../src/store/index.js'
import { compare as compareRows, ratioText, type Comparison } from './support/compare.js'

// chatrail/store (issue 16 § Speed), one process, ratios in one run:
//  (a) append one turn at history 10,000 vs at history 10, on every store (target ≤ 1.5×);
//  (b) round trips to Postgres per deterministic turn, counted at the pool (target ≤ 2);
//  (c) a turn's store work (claim + append-and-release) on PGlite and Postgres as a ratio to memory.
// Every ratio by support/compare.ts: 3 warm-up calls a row, batches sized by time per repetition,
// 15 ABBA pairs, the median of the per-pair ratios with their spread. CPU time for memory and PGlite
// (in this process), wall time for Postgres (a Postgres turn is mostly the server's and the socket's
// time, which CPU time of this process would miss). Postgres rows need CHATRAIL_TEST_POSTGRES_URL
// (.ci/postgres.sh); without it they are reported as skipped.

const URL_ENV = process.env.CHATRAIL_TEST_POSTGRES_URL
// A schema of this run's own: the Postgres database outlives the run.
const RUN = randomUUID().replaceAll('-', '').slice(0, 12)
const DEF = { id: 'bench', revision: 1 }
let ids = 0
const msg = (role: 'user' | 'assistant', content: string): Message => ({ id: `m${++ids}`, role, content, status: 'complete', createdAt: new Date(0) })
const turnMessages = (): Message[] => [msg('user', '/cmd1'), msg('assistant', 'resp1')]

/**
 * ms per call for both rows (see above); `postgres` rows are timed by the wall clock. `maxBatch`: the
 * append rows grow the conversation they measure, so their batches stay at 10 calls (150 appends a
 * row in all), as the history-10 row must stay near 10 turns.
 */
async function compare(base: () => Promise<unknown>, subject: () => Promise<unknown>, postgres: boolean, maxBatch?: number): Promise<Comparison> {
  for (let i = 0; i < 3; i++) {
    await base()
    await subject()
  }
  const c = await compareRows(base, subject, { repetitions: 15, warmUpMs: 0, clock: postgres ? 'wall' : 'cpu', ...(maxBatch === undefined ? {} : { minBatch: maxBatch, maxBatch }) })
  return { ...c, base: c.base / 1000, subject: c.subject / 1000 }
}

/** A conversation of `turns` turns written in one append, and an appender that keeps its version. */
async function conversation(store: ConversationStore, id: string, turns: number): Promise<() => Promise<unknown>> {
  const messages = Array.from({ length: turns }, () => turnMessages()).flat()
  let version = (await store.append(id, { expectedVersion: 0, messages, definition: DEF })).version
  return async () => {
    version = (await store.append(id, { expectedVersion: version, messages: turnMessages(), definition: DEF })).version
  }
}

/** The store work of one fenced turn: claim, then append the turn and release in one write. */
function leasedTurn(store: ConversationStore, id: string): () => Promise<unknown> {
  let version = 0
  let turn = 0
  return async () => {
    const claimed = await store.claim(id, `t${++turn}`, { leaseMs: 30_000 })
    if (claimed.status !== 'claimed') throw new Error('claim failed')
    version = (await store.append(id, { expectedVersion: version, messages: turnMessages(), definition: DEF, lease: claimed.lease, release: 'completed' })).version
  }
}

const stores: { name: string; store: ConversationStore; close: () => Promise<void> }[] = []
const memory = memoryStore()
stores.push({ name: 'memory', store: memory, close: () => memory.close() })
const pgliteDb = await PGlite.create()
const pglite = pgliteStore({ db: pgliteDb, schema: `bench_${RUN}` })
stores.push({ name: 'PGlite', store: pglite, close: async () => { await pglite.close(); await pgliteDb.close() } })

// Postgres through a pool whose queries are counted: the round trips.
let roundTrips = 0
let pool: pg.Pool | undefined
if (URL_ENV) {
  pool = new pg.Pool({ connectionString: URL_ENV, max: 4 })
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>
  ;(pool as unknown as { query: (...args: unknown[]) => Promise<unknown> }).query = (...args: unknown[]) => {
    roundTrips += 1
    return query(...args)
  }
  const postgres = postgresStore({ pool, schema: `bench_${RUN}` })
  stores.push({ name: 'Postgres', store: postgres, close: () => postgres.close() })
}

// (a) append at history 10,000 vs 10, per store.
const scaling: Record<string, Comparison> = {}
for (const { name, store } of stores) {
  const small = await conversation(store, `small-${RUN}`, 10)
  const large = await conversation(store, `large-${RUN}`, 10_000)
  scaling[name] = await compare(small, large, name === 'Postgres', 10)
}

// (b) round trips per deterministic turn: the fenced protocol, and the one-call helper's turn.
let fencedTrips: number | undefined
let helperTrips: number | undefined
const postgres = stores.find((s) => s.name === 'Postgres')?.store
if (postgres) {
  const turn = leasedTurn(postgres, `trips-${RUN}`)
  await turn()
  roundTrips = 0
  for (let i = 0; i < 20; i++) await turn()
  fencedTrips = roundTrips / 20
  const definition = defineChat({
    id: 'bench',
    chat: {},
    conversation: { initial: 's', states: { s: { on: { go: 's' } } }, routes: [commandRoute({ id: 'go', command: '/go', event: 'go', response: 'ok' })], fallback: { response: 'no' } },
  })
  const chat = await openStoredChat({ store: postgres, definition, conversationId: `helper-${RUN}`, session: { lint: false }, createController: (config) => createChatController(config) })
  await chat.controller.send('/go')
  await chat.flushed()
  roundTrips = 0
  for (let i = 0; i < 20; i++) {
    await chat.controller.send('/go')
    await chat.flushed()
  }
  helperTrips = roundTrips / 20
  chat.close()
}

// (c) a fenced turn's store work on each SQL store vs memory.
const turnCost: Record<string, Comparison> = {}
for (const { name, store } of stores.slice(1)) turnCost[name] = await compare(leasedTurn(memory, `cost-${name}`), leasedTurn(store, `cost-${RUN}`), name === 'Postgres')

const ms = (value: number): string => `${value < 0.1 ? (value * 1000).toFixed(1) + ' µs' : value.toFixed(2) + ' ms'}`
const x = (c: Comparison | undefined): string => (c ? ratioText(c) : 'skipped')
const lines = [
  'chatrail/store (time per call, medians: CPU time on memory and PGlite, wall time on Postgres; ratios are medians of 15 interleaved ABBA pairs, (min–max) beside them):',
  ...stores.map(({ name }) => `  (a) ${name.padEnd(8)} append one turn at history 10 ${ms(scaling[name]!.base)} · at 10,000 ${ms(scaling[name]!.subject)} → ${x(scaling[name])} (target ≤ 1.5×)`),
  URL_ENV
    ? `  (b) Postgres round trips per deterministic turn: ${fencedTrips} with a turn lease (claim, append+release), ${helperTrips} through openStoredChat (append) (target ≤ 2)`
    : '  (b) Postgres round trips: skipped (CHATRAIL_TEST_POSTGRES_URL not set; see .ci/postgres.sh)',
  ...stores.slice(1).map(({ name }) => `  (c) ${name.padEnd(8)} fenced turn (claim + append-and-release) ${ms(turnCost[name]!.subject)} vs memory ${ms(turnCost[name]!.base)} → ${x(turnCost[name])} of memory`),
  ...(URL_ENV ? [] : ['  (a)/(c) Postgres: skipped (CHATRAIL_TEST_POSTGRES_URL not set)']),
]
console.log(lines.join('\n'))
for (const { close } of stores) await close()
await pool?.end()

describe('chatrail/store', () => {
  const quick = memoryStore()
  const turn = leasedTurn(quick, 'bench-row')
  bench(`memory fenced turn [PGlite ${x(turnCost.PGlite)}, Postgres ${x(turnCost.Postgres)} of memory; append at 10,000 vs 10: memory ${x(scaling.memory)}, PGlite ${x(scaling.PGlite)}, Postgres ${x(scaling.Postgres)}; Postgres round trips per turn ${fencedTrips ?? 'skipped'}]`, async () => {
    await turn()
  }, { time: 200 })
})
