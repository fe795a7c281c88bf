import { describe, expect, it } from 'vitest'
import { memoryStore, type ConversationStore, type TurnSignals } from '../../src/store/index.js'
import { encodeDialogSignal, watchSignals } from '../../src/server/turn-signals.js'
import { wakeableWait } from '../../src/server/wakeable-wait.js'

// The holder's watch over its turn's signals: woken by the store (`subscribe`), it takes a stop at
// once instead of at its next poll; without `subscribe` it polls as before. The poll here is a
// minute, so anything that arrives within the test's bounds arrived by a wake.

const MINUTE = 60_000

async function heldLease(store: ConversationStore, conversationId = 'c1') {
  const claim = await store.claim(conversationId, 't1', { leaseMs: MINUTE })
  if (claim.status !== 'claimed') throw new Error('not claimed')
  return claim.lease
}

const within = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what} not within ${ms} ms`)), ms))])

describe('watchSignals', () => {
  it('a stop stored for the lease ends the turn at the store’s wake, long before the poll', async () => {
    const store = memoryStore()
    const lease = await heldLease(store)
    let stops = 0
    const stopped = new Promise<void>((resolve) => {
      const watch = watchSignals({ store, lease: () => lease, pollMs: MINUTE, onDialogAnswer: () => undefined, onStop: () => {
        stops += 1
        watch.end()
        resolve()
      }, onError: (error) => { throw error } })
    })
    expect(await store.signal('c1', { type: 'stop' })).toBe(true)
    await within(stopped, 2000, 'the stop')
    expect(stops).toBe(1)
    await store.close()
  })

  it('a dialog answer is handed over at the wake, once; the watch goes on', async () => {
    const store = memoryStore()
    const lease = await heldLease(store)
    const answers: string[] = []
    let stopped = false
    const answered = new Promise<void>((resolve) => {
      const watch = watchSignals({ store, lease: () => lease, pollMs: MINUTE, onDialogAnswer: (toolId) => {
        answers.push(toolId)
        if (answers.length === 2) {
          watch.end()
          resolve()
        }
      }, onStop: () => {
        stopped = true
      }, onError: (error) => { throw error } })
    })
    await store.signal('c1', { type: 'dialog-answer', payload: encodeDialogSignal('ask-1', { kind: 'plan', approved: true }) })
    await new Promise((resolve) => setTimeout(resolve, 20))
    await store.signal('c1', { type: 'dialog-answer', payload: encodeDialogSignal('ask-2', { kind: 'plan', approved: false }) })
    await within(answered, 2000, 'both answers')
    expect(answers).toEqual(['ask-1', 'ask-2'])
    expect(stopped).toBe(false)
    await store.close()
  })

  it('a wake that arrives while a read is under way reads again after it: a stop stored just after a read is not left for the poll', async () => {
    const inner = memoryStore()
    const lease = await heldLease(inner)
    // the first read is held until the stop is stored and its wake has fired
    let releaseFirstRead: (() => void) | undefined
    let reads = 0
    const store: ConversationStore = {
      ...inner,
      async takeSignals(held): Promise<TurnSignals> {
        reads += 1
        const signals = await inner.takeSignals(held)
        if (reads === 1) await new Promise<void>((resolve) => (releaseFirstRead = resolve))
        return signals
      },
    }
    const stopped = new Promise<void>((resolve) => {
      const watch = watchSignals({ store, lease: () => lease, pollMs: MINUTE, onDialogAnswer: () => undefined, onStop: () => {
        watch.end()
        resolve()
      }, onError: (error) => { throw error } })
    })
    // a first wake starts a read (it sees no stop yet, and is held)
    await inner.signal('c1', { type: 'dialog-answer', payload: encodeDialogSignal('x', { kind: 'plan', approved: true }) })
    await within((async () => {
      while (releaseFirstRead === undefined) await new Promise((resolve) => setTimeout(resolve, 5))
    })(), 2000, 'the first read')
    await inner.signal('c1', { type: 'stop' })
    await new Promise((resolve) => setTimeout(resolve, 20))
    releaseFirstRead?.()
    await within(stopped, 2000, 'the stop')
    expect(reads).toBe(2)
    await inner.close()
  })

  it('the turn’s own stream parts, stored for its resumed streams, do not make it read its signals', async () => {
    const inner = memoryStore()
    const lease = await heldLease(inner)
    let reads = 0
    const store: ConversationStore = { ...inner, takeSignals: async (held) => ((reads += 1), inner.takeSignals(held)) }
    const watch = watchSignals({ store, lease: () => lease, pollMs: MINUTE, onDialogAnswer: () => undefined, onStop: () => undefined, onError: (error) => { throw error } })
    const append = inner.appendTurnParts as NonNullable<ConversationStore['appendTurnParts']>
    expect((await append('c1', { lease, seq: 0, parts: ['{"type":"start"}'] })).status).toBe('appended')
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(reads).toBe(0)
    watch.end()
    await inner.close()
  })

  it('a store without subscribe is polled every pollMs, as before', async () => {
    const inner = memoryStore()
    const lease = await heldLease(inner)
    const { subscribe: _subscribe, ...store } = inner
    const started = performance.now()
    const stopped = new Promise<number>((resolve) => {
      const watch = watchSignals({ store, lease: () => lease, pollMs: 200, onDialogAnswer: () => undefined, onStop: () => {
        watch.end()
        resolve(performance.now() - started)
      }, onError: (error) => { throw error } })
    })
    await inner.signal('c1', { type: 'stop' })
    // taken at the first poll, not before it
    expect(await within(stopped, 5000, 'the polled stop')).toBeGreaterThanOrEqual(190)
    await inner.close()
  })

  it('after end() a signal is not read (the wake is unsubscribed)', async () => {
    const inner = memoryStore()
    const lease = await heldLease(inner)
    let reads = 0
    const store: ConversationStore = { ...inner, takeSignals: async (held) => ((reads += 1), inner.takeSignals(held)) }
    const watch = watchSignals({ store, lease: () => lease, pollMs: MINUTE, onDialogAnswer: () => undefined, onStop: () => undefined, onError: (error) => { throw error } })
    watch.end()
    await inner.signal('c1', { type: 'stop' })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(reads).toBe(0)
    await inner.close()
  })
})

describe('wakeableWait', () => {
  it('a wake ends the wait at once; one that came between waits ends the next wait at once; close ends a pending one', async () => {
    const store = memoryStore()
    const lease = await heldLease(store)
    const waiting = wakeableWait(store, 'c1', 'signal')
    expect(waiting.subscribed).toBe(true)
    const first = waiting.wait(MINUTE)
    await store.signal('c1', { type: 'stop' })
    await within(first, 2000, 'the woken wait')
    // woken while not waiting: the next wait returns at once, the one after waits again
    await store.takeSignals(lease)
    await store.signal('c1', { type: 'stop' })
    await new Promise((resolve) => setTimeout(resolve, 10))
    await within(waiting.wait(MINUTE), 100, 'the wait after a wake')
    let ended = false
    const third = waiting.wait(MINUTE).then(() => (ended = true))
    await new Promise((resolve) => setTimeout(resolve, 30))
    expect(ended).toBe(false)
    waiting.close()
    await within(third, 100, 'the closed wait')
    await store.close()
  })

  it('without subscribe it is a plain timer', async () => {
    const { subscribe: _subscribe, ...store } = memoryStore()
    const waiting = wakeableWait(store, 'c1', 'signal')
    expect(waiting.subscribed).toBe(false)
    const started = performance.now()
    await waiting.wait(50)
    expect(performance.now() - started).toBeGreaterThanOrEqual(45)
    waiting.close()
  })
})
