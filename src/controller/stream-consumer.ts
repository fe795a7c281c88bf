import type { StreamChunk, StreamSource, StreamToolCallPayload, TokenUsage } from '../contract/stream.js'
import { ChatrailError } from '../contract/errors.js'
import { AdapterError, describeThrown, ErrorCodes } from './errors.js'
import { SUPERSEDED } from './turn-tracker.js'
import type { Turn } from './turn-tracker.js'

export type StreamOutcome = { kind: 'done' } | { kind: 'error'; error: Error } | { kind: 'superseded' }

export interface ChunkHandlers {
  text: (delta: string) => void
  reasoning: (delta: string) => void
  /** Awaited before the next chunk is pulled; a throw ends the turn with that error. */
  toolCall: (payload: StreamToolCallPayload) => Promise<void>
  toolResult: (content: string) => void
  usage: (usage: TokenUsage) => void
  /**
   * The `metadata.chatrail` record of a `done` chunk. chatrail's own session puts its decision record
   * there so that state can be rebuilt from stored history alone; other chunk metadata stays ignored,
   * as upstream.
   */
  doneRecord: (record: Record<string, unknown>) => void
}

/** An error chunk as an `Error`: a `ChatrailError` in `metadata.error` surfaces as is, else an `AdapterError`. */
export function errorFromChunk(chunk: StreamChunk): Error {
  const carried = chunk.metadata?.error
  if (ChatrailError.isInstance(carried)) return carried
  return new AdapterError({
    code: ErrorCodes.AK_ADAPTER_STREAM_FAILED,
    message: typeof chunk.content === 'string' && chunk.content ? chunk.content : carried instanceof Error ? carried.message : 'Stream error',
    cause: carried instanceof Error ? carried : undefined,
  })
}

/** A thrown value as the turn's error: chatrail errors pass through, anything else is wrapped. */
export function errorFromThrown(thrown: unknown, prefix = 'Stream failed'): Error {
  if (ChatrailError.isInstance(thrown)) return thrown
  return new AdapterError({ code: ErrorCodes.AK_ADAPTER_STREAM_FAILED, message: `${prefix}: ${describeThrown(thrown)}`, cause: thrown })
}

function closeQuietly(iterator: AsyncIterator<StreamChunk>): void {
  try {
    const closing = iterator.return?.()
    if (closing && typeof closing.then === 'function') closing.then(undefined, () => undefined)
  } catch {
    // an iterator that cannot close is no reason to fail a turn that has ended
  }
}

const hasText = (value: unknown): value is string => typeof value === 'string' && value.length > 0

/**
 * Pulls one source to its end and never throws (agentskit-contract §2.5). Handlers run only while
 * the turn is current; a superseded turn stops pulling at once, even if the adapter ignores abort.
 * A missing `done` counts as success; unknown chunk types (untrusted input) are ignored.
 */
export async function consumeStream(source: StreamSource, turn: Turn, handlers: ChunkHandlers): Promise<StreamOutcome> {
  let iterator: AsyncIterator<StreamChunk>
  try {
    iterator = source.stream()
  } catch (thrown) {
    return { kind: 'error', error: errorFromThrown(thrown) }
  }
  try {
    for (;;) {
      const step = await turn.race(iterator.next())
      if (step === SUPERSEDED || !turn.isCurrent()) {
        closeQuietly(iterator)
        return { kind: 'superseded' }
      }
      if (step.done) return { kind: 'done' }
      const chunk: StreamChunk = step.value
      switch (chunk?.type) {
        case 'text':
          if (hasText(chunk.content)) handlers.text(chunk.content)
          break
        case 'reasoning':
          if (hasText(chunk.content)) handlers.reasoning(chunk.content)
          break
        case 'tool_result':
          if (hasText(chunk.content)) handlers.toolResult(chunk.content)
          break
        case 'usage':
          if (chunk.usage) handlers.usage(chunk.usage)
          break
        case 'tool_call':
          if (chunk.toolCall) await handlers.toolCall(chunk.toolCall)
          if (!turn.isCurrent()) {
            closeQuietly(iterator)
            return { kind: 'superseded' }
          }
          break
        case 'error':
          closeQuietly(iterator)
          return { kind: 'error', error: errorFromChunk(chunk) }
        case 'done': {
          const record = chunk.metadata?.chatrail
          if (typeof record === 'object' && record !== null && !Array.isArray(record)) {
            handlers.doneRecord(record as Record<string, unknown>)
          }
          closeQuietly(iterator)
          return { kind: 'done' }
        }
        default:
          break
      }
    }
  } catch (thrown) {
    closeQuietly(iterator)
    return { kind: 'error', error: errorFromThrown(thrown) }
  }
}
