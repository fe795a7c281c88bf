import { describe, expect, it } from 'vitest'
import type { StreamChunk } from '../../src/contract/stream.js'
import { defineChat } from '../../src/index.js'
import { createChatHandler } from '../../src/server/index.js'
import { everyStore } from './support/every-store.js'
import { eventually } from './support/harness.js'

// Resume latency, per store (issue 29): a turn runs on instance A (its agent holds mid-answer);
// instance B gets `GET <api>/<id>/stream` and the time to its first replayed part (the `start`,
// with the parts so far) is measured, and then the live lag: from the agent's next chunk on A to
// its arrival on B's follower (a batch flush, limits.partFlushMs, 50 ms by default, plus the
// store's wake: every store here has `subscribe`, so the resumePollMs poll is only the fallback;
// signal-latency.test.ts compares with the poll alone). Handlers run in process (a Request in, a Response out), so the figures are
// the handler and the store, not a network. Printed, not asserted: a loaded machine changes them;
// what is asserted is that every reconnect got the parts so far.

const stores = everyStore('latency', 'resume latency', { memory: 'memory', pglite: 'pglite', postgres: 'postgres' })

const RECONNECTS = 40
const API = 'http://latency.test/api/chat'
const quantile = (values: number[], q: number): number => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))] ?? Number.NaN

describe.each(stores)('resume latency: %s', (name, makeStore) => {
  it(`${RECONNECTS} reconnects to another instance mid-answer: time to the first replayed part, and the live lag`, async () => {
    const store = await makeStore()
    const gate: { open?: () => void } = {}
    let producedAt = 0
    const adapter = {
      createSource: () => ({
        abort: () => undefined,
        async *stream(): AsyncIterableIterator<StreamChunk> {
          yield { type: 'text', content: 'the parts so far' }
          await new Promise<void>((resolve) => (gate.open = resolve))
          producedAt = performance.now()
          yield { type: 'text', content: ' and the live one' }
          yield { type: 'done' }
        },
      }),
    }
    const definition = defineChat({ id: 'latency', chat: { adapter }, conversation: { initial: 'open', context: {}, states: { open: {} }, routes: [] } })
    const a = createChatHandler({ definition, store, authenticate: 'none' })
    const b = createChatHandler({ definition, store, authenticate: 'none' })
    const reconnect: number[] = []
    const lag: number[] = []
    try {
      for (let n = 0; n < RECONNECTS; n++) {
        const id = `c${n}`
        const turn = await a(new Request(API, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id, trigger: 'submit-message', messages: [{ id: `u${n}`, role: 'user', parts: [{ type: 'text', text: 'go' }] }] }) }))
        const draining = turn.text()
        await eventually(async () => ((await store.readTurnParts?.(id))?.turn?.parts.length ?? 0) >= 3, 20_000)
        const started = performance.now()
        const response = await b(new Request(`${API}/${id}/stream`))
        const reader = (response.body as ReadableStream<Uint8Array>).getReader()
        const first = new TextDecoder().decode((await reader.read()).value)
        reconnect.push(performance.now() - started)
        expect(first).toContain('"type":"start"')
        expect(first).toContain('the parts so far')
        gate.open?.()
        let rest = ''
        for (let step = await reader.read(); !step.done; step = await reader.read()) {
          const text = new TextDecoder().decode(step.value)
          if (rest === '' && text.includes('the live one')) lag.push(performance.now() - producedAt)
          rest += text
        }
        expect(rest).toContain('"type":"finish"')
        await draining
      }
    } finally {
      await store.close()
    }
    const ms = (value: number): string => `${value.toFixed(1)} ms`
    console.log(`resume latency ${name.padEnd(8)} reconnect → first replayed part: p50 ${ms(quantile(reconnect, 0.5))}, p90 ${ms(quantile(reconnect, 0.9))}, max ${ms(Math.max(...reconnect))}; live lag (partFlushMs 50 + wake): p50 ${ms(quantile(lag, 0.5))}, p90 ${ms(quantile(lag, 0.9))} (${RECONNECTS} reconnects)`)
    expect(reconnect).toHaveLength(RECONNECTS)
    expect(lag).toHaveLength(RECONNECTS)
  }, 120_000)
})
