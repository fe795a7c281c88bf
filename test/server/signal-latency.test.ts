import { afterAll, describe, expect, it } from 'vitest'
import type { StreamChunk } from '../../src/contract/stream.js'
import { defineChat, type ChatDefinition } from '../../src/index.js'
import { createChatHandler, type ChatHandler, type ChatHandlerLimits } from '../../src/server/index.js'
import { postgresStore, type ConversationStore } from '../../src/store/index.js'
import { freshSchema, POSTGRES_SKIP_REASON, POSTGRES_URL, requirePostgresInCi } from '../store/postgres-env.js'
import { endlessAgent } from './support/agents.js'
import { eventually, readUntil } from './support/harness.js'

// Signals between instances on Postgres (issue 29), measured: 1 and 3 instances, each a handler
// over a store of its own (its own pool and LISTEN connection) on one schema, as separate
// processes would be; handlers run in this process (a Request in, a Response out), so the figures
// are the handlers and Postgres, not a network.
// - stop: a turn runs on one instance, the stop is POSTed to the next one (the same one when there
//   is one); the time from sending the stop to the turn's `finish` arriving on the holder's stream.
//   The signal poll is set to 5 s, so a stop that ends the turn within the bound asserted (1 s) was
//   delivered by the store's wake (LISTEN/NOTIFY), not found by the poll.
// - resume: a turn holds mid-answer on the first instance, the reconnect goes to the last; the
//   time to the first replayed part, then the live lag (the agent's next chunk on the holder to its
//   arrival on the follower: a part flush, at most 50 ms, plus the wake). The resume poll is set to
//   2 s (its fallback when woken), so a median lag under 500 ms is the wake's doing.
// The same measurements with the store's `subscribe` hidden (the poll alone, at the defaults: 500 ms
// for signals, 50 ms for resumed streams, as before issue 29) are printed beside them, and the
// woken stop median asserted to be below the polled one.
// Figures printed; bounds generous (a loaded 2-core CI).

requirePostgresInCi()

const STOPS = 60
// The polled stops are there to be compared with the woken ones (median against median) and
// printed: each waits out most of the 500 ms poll (p50 ≈ 500 ms measured; a stop sent just after a
// poll waits for the next), against ~5 ms for a woken stop. 10 of them (5 s a row less than 20)
// leave the comparison as clear: the polled median is below the woken one only if 5 of the 10 stops
// landed right before a poll, which they do not (they are sent at the first text, just after one).
const POLLED_STOPS = 10
const RECONNECTS = 30
const POLLED_RESUMES = 15
const API = 'http://signals.test/api/chat'
const json = { 'content-type': 'application/json' }
const quantile = (values: readonly number[], q: number): number => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(values.length * q) - 1)] ?? Number.NaN
const ms = (value: number): string => `${value.toFixed(1)} ms`
const figures = (values: readonly number[]): string => `p50 ${ms(quantile(values, 0.5))}, p99 ${ms(quantile(values, 0.99))}, max ${ms(Math.max(...values))}`

const chatOf = (adapter: ChatDefinition['chat']['adapter']): ChatDefinition =>
  defineChat({ id: 'signals', chat: { adapter }, conversation: { initial: 'open', context: {}, states: { open: {} }, routes: [] } })

const submit = (handler: ChatHandler, id: string): Promise<Response> =>
  handler(new Request(API, { method: 'POST', headers: json, body: JSON.stringify({ id, trigger: 'submit-message', messages: [{ id: `u-${id}`, role: 'user', parts: [{ type: 'text', text: 'go' }] }] }) }))

/** Reads SSE text until `until` matches what has arrived; returns it all. */
/**
 * `count` stops, each of a turn running on instance k % n, sent to instance (k + 1) % n: ms from
 * sending the stop to the holder's `finish`. Each instance's first turn opens its store's LISTEN
 * connection, so its stop may wait for it: one stop per instance comes first, reported apart.
 */
async function measureStops(handlers: readonly ChatHandler[], count: number, prefix: string): Promise<{ first: number[]; latencies: number[] }> {
  const first: number[] = []
  const latencies: number[] = []
  for (let k = -handlers.length; k < count; k++) {
    const id = `${prefix}-${k}`
    const at = k + handlers.length
    const holder = handlers[at % handlers.length] as ChatHandler
    const stopper = handlers[(at + 1) % handlers.length] as ChatHandler
    const reader = ((await submit(holder, id)).body as ReadableStream<Uint8Array>).getReader()
    await readUntil(reader, (seen) => seen.includes('"text-delta"'))
    const sent = performance.now()
    const stop = await stopper(new Request(API, { method: 'POST', headers: json, body: JSON.stringify({ id, action: 'stop' }) }))
    expect(await stop.json()).toEqual({ stopped: true })
    const rest = await readUntil(reader, (seen) => seen.includes('"finishReason":"stop"'))
    ;(k < 0 ? first : latencies).push(performance.now() - sent)
    expect(rest).toContain('"type":"finish","finishReason":"stop"')
    await readUntil(reader, () => false) // to [DONE]: the turn is stored and its lease released
  }
  return { first, latencies }
}

/** `count` reconnects to the last instance while a turn holds mid-answer on the first: time to the first replayed part, and the live lag. */
async function measureResumes(handlers: readonly ChatHandler[], store: ConversationStore, gate: { open?: () => void; producedAt: number }, count: number, prefix: string): Promise<{ reconnect: number[]; lag: number[] }> {
  const reconnect: number[] = []
  const lag: number[] = []
  const follower = handlers.at(-1) as ChatHandler
  for (let k = 0; k < count; k++) {
    const id = `${prefix}-${k}`
    const draining = (await submit(handlers[0] as ChatHandler, id)).text()
    await eventually(async () => ((await store.readTurnParts?.(id))?.turn?.parts.length ?? 0) >= 3, 20_000)
    const started = performance.now()
    const response = await follower(new Request(`${API}/${id}/stream`))
    const reader = (response.body as ReadableStream<Uint8Array>).getReader()
    const first = new TextDecoder().decode((await reader.read()).value)
    reconnect.push(performance.now() - started)
    expect(first).toContain('the parts so far')
    gate.open?.()
    const rest = await readUntil(reader, (seen) => seen.includes('the live one'))
    lag.push(performance.now() - gate.producedAt)
    expect(rest + (await readUntil(reader, () => false))).toContain('"type":"finish"')
    await draining
  }
  return { reconnect, lag }
}

if (!POSTGRES_URL) {
  describe('signals between instances on Postgres', () => it.skip(`skipped: ${POSTGRES_SKIP_REASON}`, () => undefined))
} else {
  const connectionString = POSTGRES_URL
  const opened: ConversationStore[] = []
  const instances = (n: number, limits: ChatHandlerLimits, adapter: ChatDefinition['chat']['adapter'], polledOnly = false): { handlers: ChatHandler[]; stores: ConversationStore[] } => {
    const schema = freshSchema('signals')
    const stores = Array.from({ length: n }, () => postgresStore({ connectionString, schema, max: 4 }))
    opened.push(...stores)
    // the poll alone: the same store with its subscribe hidden, as a store without it is
    const seen = polledOnly ? stores.map(({ subscribe: _subscribe, ...rest }): ConversationStore => rest) : stores
    const handlers = seen.map((store) => createChatHandler({ definition: chatOf(adapter), store, authenticate: 'none', limits }))
    return { handlers, stores }
  }
  afterAll(async () => {
    await Promise.all(opened.map((store) => store.close()))
  })

  describe.each([1, 3])('signals between instances on Postgres: %i instance(s)', (n) => {
    it(`${STOPS} stops sent to another instance end the holder's turn within 1 s (the poll is 5 s); printed beside the poll alone`, async () => {
      const { first, latencies: woken } = await measureStops(instances(n, { signalPollMs: 5000 }, endlessAgent(10).adapter).handlers, STOPS, 'stop')
      const { latencies: polled } = await measureStops(instances(n, {}, endlessAgent(10).adapter, true).handlers, POLLED_STOPS, 'polled')
      console.log(`stop latency, ${n} instance(s), Postgres: woken (LISTEN/NOTIFY; poll 5 s) ${figures(woken)} over ${STOPS} (each instance's first: ${first.map(ms).join(', ')}); poll alone (500 ms) ${figures(polled)} over ${POLLED_STOPS}`)
      expect(woken).toHaveLength(STOPS)
      expect(quantile(woken, 0.99)).toBeLessThan(1000)
      expect(quantile(woken, 0.5)).toBeLessThan(quantile(polled, 0.5))
    }, 180_000)

    it(`${RECONNECTS} reconnects mid-answer: the first replayed part, and the live lag`, async () => {
      const gate: { open?: () => void; producedAt: number } = { producedAt: 0 }
      const adapter = {
        createSource: () => ({
          abort: () => undefined,
          async *stream(): AsyncIterableIterator<StreamChunk> {
            yield { type: 'text', content: 'the parts so far' }
            await new Promise<void>((resolve) => (gate.open = resolve))
            gate.producedAt = performance.now()
            yield { type: 'text', content: ' and the live one' }
            yield { type: 'done' }
          },
        }),
      }
      const woken = instances(n, { resumePollMs: 2000 }, adapter)
      const { reconnect, lag } = await measureResumes(woken.handlers, woken.stores[0] as ConversationStore, gate, RECONNECTS, 'resume')
      const polled = instances(n, {}, adapter, true)
      const before = await measureResumes(polled.handlers, polled.stores[0] as ConversationStore, gate, POLLED_RESUMES, 'polled')
      console.log(`resume latency, ${n} instance(s), Postgres, woken (poll fallback 2 s): reconnect → first replayed part ${figures(reconnect)}; live lag (partFlushMs 50 + wake) ${figures(lag)} (${RECONNECTS} reconnects)`)
      console.log(`resume latency, ${n} instance(s), Postgres, poll alone (50 ms): reconnect → first replayed part ${figures(before.reconnect)}; live lag (partFlushMs 50 + poll) ${figures(before.lag)} (${POLLED_RESUMES} reconnects)`)
      expect(reconnect).toHaveLength(RECONNECTS)
      // the next part arrives by the wake: the 2 s poll would put the median near 1 s
      expect(quantile(lag, 0.5)).toBeLessThan(500)
    }, 180_000)
  })
}
