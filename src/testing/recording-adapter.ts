import type { AdapterFactory, AdapterRequest } from '../contract/adapter.js'
import type { StreamChunk, StreamSource } from '../contract/stream.js'
import { cassetteRequest } from './cassette.js'
import type { Cassette, CassetteRequest } from './cassette.js'

/** One `createSource` call seen by a recording adapter, filled in as its stream runs. */
export interface AdapterCall {
  /** The request exactly as the adapter received it (same object). */
  request: AdapterRequest
  chunks: StreamChunk[]
  /** `stream()` was called: the adapter actually did work. */
  streamed: boolean
  aborted: boolean
  /** The stream ran to its end (it may still have ended in an error chunk). */
  finished: boolean
  /** A throw from the wrapped adapter, which the recording adapter passes on unchanged. */
  thrown?: unknown
}

export interface RecordingAdapter extends AdapterFactory {
  /** Every call so far, in order. The array is live: it grows as calls happen. */
  readonly calls: readonly AdapterCall[]
  /** The calls so far as a cassette for `replayAdapter` / `writeCassette`. */
  cassette: () => Cassette
}

/**
 * Wraps an adapter and records each request with the chunks it streamed, passing both through
 * unchanged (same request object, same chunks, same timing, abort forwarded). Records only what
 * the consumer pulled: an aborted stream's cassette entry holds the chunks before the abort.
 */
export function recordingAdapter(adapter: AdapterFactory): RecordingAdapter {
  const calls: AdapterCall[] = []
  // The transcript as it was when the call was made, should the caller mutate the request later.
  const keys = new Map<AdapterCall, CassetteRequest>()
  const createSource = (request: AdapterRequest): StreamSource => {
    const call: AdapterCall = { request, chunks: [], streamed: false, aborted: false, finished: false }
    calls.push(call)
    keys.set(call, cassetteRequest(request))
    let inner: StreamSource
    try {
      inner = adapter.createSource(request)
    } catch (thrown) {
      call.thrown = thrown
      throw thrown
    }
    return {
      stream: () => {
        call.streamed = true
        return recordChunks(inner.stream(), call)
      },
      abort: () => {
        call.aborted = true
        inner.abort()
      },
    }
  }
  const cassette = (): Cassette => ({
    version: 1,
    interactions: calls
      .filter((call) => call.streamed)
      .map((call) => ({ request: keys.get(call) ?? cassetteRequest(call.request), chunks: call.chunks.map((chunk) => ({ ...chunk })), ...(call.aborted ? { aborted: true } : {}) })),
  })
  // Other own members (capabilities, a live agent's `agentRunState`) stay visible through the wrapper.
  return { ...adapter, createSource, calls, cassette }
}

async function* recordChunks(iterator: AsyncIterableIterator<StreamChunk>, call: AdapterCall): AsyncIterableIterator<StreamChunk> {
  try {
    for await (const chunk of iterator) {
      call.chunks.push(chunk)
      yield chunk
    }
    call.finished = true
  } catch (thrown) {
    call.thrown = thrown
    throw thrown
  }
}
