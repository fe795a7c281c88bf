import type { Client, Notification } from 'pg'

/**
 * One `LISTEN` connection that stays up: a `pg` Client of its own (never one of the pool's, so
 * a pool of any size keeps all its connections for queries), reconnected after an error or an end
 * with a capped exponential backoff. `onListening` runs after every successful `LISTEN`, the first
 * included: a notification sent while no connection listened is lost, so the caller wakes every
 * reader to read once. While it is down, readers fall back to polling.
 */
export interface PostgresListenerOptions {
  /** A new, unconnected client (called for every attempt). */
  readonly newClient: () => Promise<Client>
  readonly channel: string
  readonly onNotify: (payload: string) => void
  readonly onListening: () => void
  /** The first retry's delay; each failed attempt doubles it, up to `maxDelayMs`. Defaults 100 ms and 5 s. */
  readonly minDelayMs?: number
  readonly maxDelayMs?: number
}

export interface PostgresListener {
  /** Ends the connection and any retry; resolves once it is closed. */
  stop: () => Promise<void>
}

export function postgresListener(options: PostgresListenerOptions): PostgresListener {
  const minDelayMs = options.minDelayMs ?? 100
  const maxDelayMs = options.maxDelayMs ?? 5000
  let stopped = false
  let failures = 0
  let current: Client | undefined
  let retry: ReturnType<typeof setTimeout> | undefined

  const schedule = (): void => {
    if (stopped || retry !== undefined) return
    const delay = Math.min(maxDelayMs, minDelayMs * 2 ** failures)
    failures += 1
    retry = setTimeout(() => {
      retry = undefined
      void attempt()
    }, delay)
    // a retry alone does not keep the process alive (the app's server or its close() does)
    retry.unref?.()
  }

  const attempt = async (): Promise<void> => {
    if (stopped) return
    let client: Client
    try {
      client = await options.newClient()
    } catch {
      schedule()
      return
    }
    if (stopped) return
    current = client
    let dropped = false
    const drop = (): void => {
      if (dropped) return
      dropped = true
      if (current === client) current = undefined
      void client.end().catch(() => undefined)
      schedule()
    }
    // an error event without a listener would end the process; here it only means "reconnect"
    client.on('error', drop)
    client.on('end', drop)
    client.on('notification', (message: Notification) => {
      if (message.channel === options.channel && typeof message.payload === 'string') options.onNotify(message.payload)
    })
    try {
      await client.connect()
      await client.query(`LISTEN "${options.channel}"`)
    } catch {
      drop()
      return
    }
    if (dropped || stopped) return
    failures = 0
    options.onListening()
  }

  void attempt()
  return {
    async stop() {
      stopped = true
      clearTimeout(retry)
      retry = undefined
      const client = current
      current = undefined
      await client?.end().catch(() => undefined)
    },
  }
}
