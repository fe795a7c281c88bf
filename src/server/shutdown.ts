import type { ConversationStore, Lease } from '../store/conversation-store.js'
import { HttpError } from './http-responses.js'

/**
 * Graceful shutdown (`handler.close()`): the handler stops taking turns (`503 shutting_down` with
 * `Retry-After`, so a load balancer's retry lands on another instance), lets the turns already
 * running finish until a deadline, then halts those still running: each ends as a failed answer
 * (`SERVER_SHUTDOWN`), stored with its user message and releasing its lease in that one write, so
 * a retry runs it again at once instead of waiting out the lease. A turn whose store write does not
 * come back within `HALT_GRACE_MS` after that has its lease released directly. Requests other than
 * turns (GET, DELETE, stop, dialog answers) are served until `close()` resolves, then `503` too.
 */
export interface TurnDrain {
  /** `close()` was called: no new turns. */
  readonly closing: boolean
  /** `close()` resolved: no requests at all. */
  readonly closed: boolean
  /** Admits a turn request (503 once closing); `end` it when the request is done with the turn, whatever happened. */
  admit: () => DrainTicket
  close: (deadlineMs: number) => Promise<void>
}

export interface DrainTicket {
  /** The turn runs: `halt` ends it early at the deadline; `lease` is released if it never ends. */
  running: (turn: { readonly halt: AbortController; readonly lease: Lease }) => void
  end: () => void
}

/** How long halted turns get to store their answer before their leases are released directly. */
export const HALT_GRACE_MS = 2000
/** What a refused turn is told to wait: another instance can take it at once. */
const SHUTDOWN_RETRY_AFTER_SECONDS = '2'

export const shuttingDown = (): HttpError => new HttpError(503, 'shutting_down', 'This server is shutting down; retry (another instance will answer).', { headers: { 'retry-after': SHUTDOWN_RETRY_AFTER_SECONDS } })

interface Entry {
  turn?: { readonly halt: AbortController; readonly lease: Lease }
  resolve: () => void
  readonly done: Promise<void>
}

export function createTurnDrain(store: ConversationStore, onError: (error: unknown) => void): TurnDrain {
  const entries = new Set<Entry>()
  let closing = false
  let closed = false
  let closingPromise: Promise<void> | undefined

  const settled = (within: number): Promise<void> => {
    if (entries.size === 0) return Promise.resolve()
    let timer: ReturnType<typeof setTimeout> | undefined
    const all = Promise.all([...entries].map((entry) => entry.done)).then(() => undefined)
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, within)
    })
    return Promise.race([all, deadline]).finally(() => clearTimeout(timer))
  }

  const drain = async (deadlineMs: number): Promise<void> => {
    await settled(deadlineMs)
    if (entries.size > 0) {
      for (const entry of entries) entry.turn?.halt.abort()
      await settled(HALT_GRACE_MS)
    }
    // turns that could not even store a failed answer (the store is down): let go of their conversations
    await Promise.all([...entries].map((entry) => entry.turn ? store.release(entry.turn.lease, 'failed').catch(onError) : undefined))
    closed = true
  }

  return {
    get closing() {
      return closing
    },
    get closed() {
      return closed
    },
    admit() {
      if (closing) throw shuttingDown()
      let resolve!: () => void
      const done = new Promise<void>((r) => (resolve = r))
      const entry: Entry = { resolve, done }
      entries.add(entry)
      return {
        running: (turn) => {
          entry.turn = turn
          if (closed) turn.halt.abort()
        },
        end: () => {
          if (!entries.delete(entry)) return
          entry.resolve()
        },
      }
    },
    close(deadlineMs) {
      closing = true
      closingPromise ??= drain(deadlineMs)
      return closingPromise
    },
  }
}
