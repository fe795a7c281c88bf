import { SSE_DONE } from '../protocol/sse.js'
import type { WirePart } from './tool-parts.js'

/**
 * The response body of a turn: parts written as SSE events. The turn writes into it and never
 * waits for the reader; when the client goes away (the body is cancelled) writes become no-ops
 * and the turn carries on to its end and is stored, so a disconnect corrupts nothing.
 */
export interface PartSink {
  write: (parts: readonly WirePart[]) => void
  /** Writes `data: [DONE]` and ends the body. */
  close: () => void
  /** True once the client stopped reading. */
  readonly disconnected: boolean
}

const encoder = new TextEncoder()
const later: (run: () => void) => void = typeof setImmediate === 'function' ? (run) => void setImmediate(run) : queueMicrotask

export function createPartStream(): { readonly body: ReadableStream<Uint8Array>; readonly sink: PartSink } {
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined
  let gone = false
  let closed = false
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c
    },
    cancel() {
      gone = true
    },
  })
  // Writes made before the event loop turns (a deterministic turn's whole answer, which settles in
  // microtasks on an in-memory store) go out as one chunk: fewer encodes, enqueues and reads on the
  // way to the socket; flushed by a `setImmediate` (after pending I/O, before any timer; a microtask
  // where the runtime has none, as in workers), or at close.
  let pending = ''
  const flush = (): void => {
    const text = pending
    pending = ''
    if (text === '' || gone || closed || !controller) return
    try {
      controller.enqueue(encoder.encode(text))
    } catch {
      gone = true // the stream was torn down under us: same as a client that left
    }
  }
  const enqueue = (text: string): void => {
    if (gone || closed) return
    if (pending === '') later(flush)
    pending += text
  }
  return {
    body,
    sink: {
      write(parts) {
        // the AI SDK's framing: one `data: <json>` event per part (JSON never holds a raw newline)
        for (const part of parts) enqueue(`data: ${JSON.stringify(part)}\n\n`)
      },
      close() {
        enqueue(SSE_DONE)
        flush()
        if (closed) return
        closed = true
        if (!gone) {
          try {
            controller?.close()
          } catch {
            // already closed by a cancel
          }
        }
      },
      get disconnected() {
        return gone
      },
    },
  }
}
