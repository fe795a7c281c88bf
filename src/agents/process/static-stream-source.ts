import type { StreamChunk, StreamSource } from '../../contract/stream.js'

/**
 * A source that yields fixed chunks without starting anything (a turn an adapter can answer
 * without its CLI). Same promises as a process source: iterated once, `abort()` never throws and
 * ends it.
 */
export function staticStreamSource(chunks: readonly StreamChunk[]): StreamSource {
  let aborted = false
  let iterated = false
  return {
    async *stream() {
      if (iterated) return
      iterated = true
      for (const chunk of chunks) {
        if (aborted) return
        yield chunk
      }
    },
    abort() {
      aborted = true
    },
  }
}
