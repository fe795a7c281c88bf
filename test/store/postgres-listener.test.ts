import { EventEmitter } from 'node:events'
import type { Client } from 'pg'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { postgresListener } from '../../src/store/sql/postgres-listener.js'

// The LISTEN connection's lifecycle, with fake pg clients and fake timers: the backoff between
// attempts (100 ms doubling to 5 s, back to 100 ms after a success), a notification on another
// channel ignored, a dropped connection replaced, and stop() ending it all. The real thing against
// Postgres (pg_terminate_backend): postgres-wakes.test.ts.

class FakeClient extends EventEmitter {
  readonly queries: string[] = []
  ended = false
  constructor(private readonly refuse: boolean) {
    super()
  }
  async connect(): Promise<void> {
    if (this.refuse) throw new Error('ECONNREFUSED')
  }
  async query(text: string): Promise<void> {
    this.queries.push(text)
  }
  async end(): Promise<void> {
    if (this.ended) return
    this.ended = true
    this.emit('end')
  }
}

describe('postgresListener', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('retries a refused connection after 100 ms, doubling up to 5 s; stop() ends the retries', async () => {
    const attempts: number[] = []
    const listener = postgresListener({
      newClient: async () => {
        attempts.push(Date.now())
        return new FakeClient(true) as unknown as Client
      },
      channel: 'chatrail',
      onNotify: () => undefined,
      onListening: () => {
        throw new Error('never listening')
      },
    })
    await vi.advanceTimersByTimeAsync(20_000)
    const gaps = attempts.slice(1).map((at, n) => at - (attempts[n] as number))
    expect(gaps.slice(0, 8)).toEqual([100, 200, 400, 800, 1600, 3200, 5000, 5000])
    await listener.stop()
    const count = attempts.length
    await vi.advanceTimersByTimeAsync(60_000)
    expect(attempts).toHaveLength(count)
  })

  it('listens on the channel, passes its payloads on, and after a dropped connection listens again 100 ms later', async () => {
    const clients: FakeClient[] = []
    const payloads: string[] = []
    let listening = 0
    const listener = postgresListener({
      newClient: async () => {
        const client = new FakeClient(false)
        clients.push(client)
        return client as unknown as Client
      },
      channel: 'chatrail',
      onNotify: (payload) => payloads.push(payload),
      onListening: () => {
        listening += 1
      },
    })
    await vi.advanceTimersByTimeAsync(0)
    expect(clients).toHaveLength(1)
    expect(clients[0]?.queries).toEqual(['LISTEN "chatrail"'])
    expect(listening).toBe(1)
    clients[0]?.emit('notification', { channel: 'chatrail', payload: 'public:signal:c1', processId: 1 })
    clients[0]?.emit('notification', { channel: 'other', payload: 'public:signal:c2', processId: 1 })
    expect(payloads).toEqual(['public:signal:c1'])
    // the server went away: an error, then the end (handled once)
    clients[0]?.emit('error', new Error('terminating connection due to administrator command'))
    clients[0]?.emit('end')
    await vi.advanceTimersByTimeAsync(99)
    expect(clients).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(clients).toHaveLength(2)
    expect(clients[0]?.ended).toBe(true)
    expect(listening).toBe(2)
    await listener.stop()
    expect(clients[1]?.ended).toBe(true)
    await vi.advanceTimersByTimeAsync(10_000)
    expect(clients).toHaveLength(2)
  })

  it('stop() while a client is being made: that client is never connected', async () => {
    let made: FakeClient | undefined
    let release: (() => void) | undefined
    const connect = vi.fn()
    const listener = postgresListener({
      newClient: () => new Promise<Client>((resolve) => {
        release = () => {
          made = new FakeClient(false)
          made.connect = async () => connect()
          resolve(made as unknown as Client)
        }
      }),
      channel: 'chatrail',
      onNotify: () => undefined,
      onListening: () => undefined,
    })
    const stopped = listener.stop()
    release?.()
    await stopped
    await vi.advanceTimersByTimeAsync(1000)
    expect(made).toBeDefined()
    expect(connect).not.toHaveBeenCalled()
  })
})
