import type { StreamChunk } from '../contract/stream.js'
import type { TurnControl } from './session-core.js'

const END: Promise<IteratorResult<StreamChunk>> = Promise.resolve({ value: undefined, done: true })

/**
 * A stream of chunks known up front, then one final chunk computed when the consumer reaches it
 * (`done` commits the transition at that moment; an `error` is recorded then). Hand-written
 * rather than an async generator: this is every deterministic turn's hot path, and a plain
 * iterator costs a fraction of a generator's resumption. Honours abort between any two chunks.
 */
export class ChunkStream implements AsyncIterableIterator<StreamChunk> {
  #index = 0
  #ended = false
  readonly #chunks: readonly StreamChunk[]
  readonly #control: TurnControl
  readonly #terminal: () => StreamChunk
  readonly #onStop: () => void

  /**
   * @param terminal The terminal chunk, computed (and its effects applied) as the consumer asks for it.
   * @param onStop Called once if the consumer or an abort ends the stream before the terminal chunk.
   */
  constructor(chunks: readonly StreamChunk[], control: TurnControl, terminal: () => StreamChunk, onStop: () => void) {
    this.#chunks = chunks
    this.#control = control
    this.#terminal = terminal
    this.#onStop = onStop
  }

  next(): Promise<IteratorResult<StreamChunk>> {
    if (this.#ended) return END
    if (this.#control.aborted) return this.#stop()
    const chunk = this.#chunks[this.#index]
    if (chunk !== undefined) {
      this.#index++
      return Promise.resolve({ value: chunk, done: false })
    }
    this.#ended = true
    return Promise.resolve({ value: this.#terminal(), done: false })
  }

  return(): Promise<IteratorResult<StreamChunk>> {
    return this.#stop()
  }

  throw(): Promise<IteratorResult<StreamChunk>> {
    return this.#stop()
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<StreamChunk> {
    return this
  }

  #stop(): Promise<IteratorResult<StreamChunk>> {
    if (!this.#ended) {
      this.#ended = true
      this.#onStop()
    }
    return END
  }
}
