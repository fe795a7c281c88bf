import type { ConversationStore } from '../store/conversation-store.js'
import { jsonResponse } from './http-responses.js'

/**
 * Liveness and readiness for an orchestrator or a load balancer, mounted beside the chat handler:
 * - `health` (`GET /health`): the process answers. Always `200 { status: 'ok' }`; it touches
 *   nothing, so a slow store never gets a live process restarted.
 * - `ready` (`GET /ready`): this instance can serve turns now: the store answers a read through the
 *   same statements a turn uses (so it is reachable and migrated), within `timeoutMs`, and the chat
 *   handler is not shutting down. `200 { status: 'ready', store }`, else
 *   `503 { status: 'unavailable', reason: 'store_unavailable' | 'shutting_down' }` with
 *   `Retry-After`, so traffic goes elsewhere while it drains. The store's error goes to `onError`.
 * Neither reads a conversation or needs authentication: they say nothing about anyone's data.
 */
export interface HealthOptions {
  readonly store: ConversationStore
  /** The chat handler whose `close()` makes `ready` answer 503 (`shutting_down`). */
  readonly handler?: { readonly closing: boolean }
  /** How long the store's read may take before `ready` answers 503. Default 2000 ms. */
  readonly timeoutMs?: number
  readonly onError?: (error: unknown) => void
}

export interface HealthHandlers {
  /** `GET /health`: 200 while the process runs. */
  readonly health: (request?: Request) => Response
  /** `GET /ready`: 200 when the store answers and the handler takes turns, else 503. */
  readonly ready: (request?: Request) => Promise<Response>
}

/** The id the readiness read asks for: a valid conversation id nobody uses (the read finds nothing). */
export const READY_PROBE_ID = 'chatrail-ready-probe'

export function createHealthHandlers(options: HealthOptions): HealthHandlers {
  const { store } = options
  const timeoutMs = options.timeoutMs ?? 2000
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs <= 0) throw new TypeError(`createHealthHandlers: timeoutMs must be a positive integer (got ${String(options.timeoutMs)}).`)
  const unavailable = (reason: string): Response => jsonResponse(503, { status: 'unavailable', reason }, { 'retry-after': '5' })
  return {
    health: () => jsonResponse(200, { status: 'ok' }),
    async ready() {
      if (options.handler?.closing) return unavailable('shutting_down')
      let timer: ReturnType<typeof setTimeout> | undefined
      try {
        const timedOut = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`createHealthHandlers: the store did not answer within ${timeoutMs} ms`)), timeoutMs)
        })
        await Promise.race([store.load(READY_PROBE_ID), timedOut])
      } catch (error) {
        try {
          options.onError?.(error)
        } catch {
          // an observer that throws must not change the answer
        }
        return unavailable('store_unavailable')
      } finally {
        clearTimeout(timer)
      }
      return jsonResponse(200, { status: 'ready', store: store.kind })
    },
  }
}
