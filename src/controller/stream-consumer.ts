import { componentOfChunk } from '../contract/component-chunk.js'
import type { MessageSource } from '../contract/message-source.js'
import type { ComponentPart } from '../contract/component-part.js'
import type { StreamChunk, StreamSource, StreamToolCallPayload, TokenUsage } from '../contract/stream.js'
import { ChatrailError } from '../contract/errors.js'
import { AdapterError, describeThrown, ErrorCodes } from './errors.js'
import { ignoreRejection } from './event-emitter.js'
import { isPlainObject } from './safe-parse-args.js'
import { SUPERSEDED } from './superseded.js'
import type { Turn } from './turn-tracker.js'

export type StreamOutcome = { kind: 'done' } | { kind: 'error'; error: Error } | { kind: 'superseded' }

/** Keyed by chunk type where the chunk's payload is its non-empty `content`. */
export interface ChunkHandlers {
  text: (delta: string) => void
  /**
   * chatrail addition: a `text` chunk carrying a component (`metadata.component`, see
   * src/contract/component-chunk.ts). The message gets the part; its content, the part's summary.
   */
  component: (part: ComponentPart) => void
  /** chatrail addition: a `text` chunk carrying a cited source (`metadata.source`, see src/contract/message-source.ts). */
  source: (source: MessageSource) => void
  /** Reads that source off a text chunk (`sourceOfChunk`, handed in: controller-kit.ts says why). */
  sourceOf: (chunk: StreamChunk) => MessageSource | undefined
  reasoning: (delta: string) => void
  tool_result: (content: string) => void
  /** Awaited before the next chunk is pulled; a throw ends the turn with that error. */
  toolCall: (payload: StreamToolCallPayload, metadata: Record<string, unknown> | undefined) => Promise<void>
  /**
   * chatrail addition: a `tool_result` chunk that names its call (`toolCall`), empty content
   * included. Upstream links a result to no call; an agent that runs its own tools reports the
   * result of a call it started earlier this way (docs/agents.md § Tools the agent runs).
   */
  toolResultOf: (payload: StreamToolCallPayload, content: string | undefined, metadata: Record<string, unknown> | undefined) => void
  usage: (usage: TokenUsage) => void
  /**
   * The `metadata.chatrail` record of a `done` chunk. chatrail's own session puts its decision record
   * there so that state can be rebuilt from stored history alone; other chunk metadata stays ignored,
   * as upstream.
   */
  doneRecord: (record: Record<string, unknown>) => void
}

/** The turn's error for a failed stream (`AK_ADAPTER_STREAM_FAILED`). */
const streamFailure = (message: string, cause: unknown): AdapterError =>
  new AdapterError({ code: ErrorCodes.AK_ADAPTER_STREAM_FAILED, message, cause })

/** An error chunk as an `Error`: a `ChatrailError` in `metadata.error` surfaces as is, else an `AdapterError`. */
export function errorFromChunk(chunk: StreamChunk): Error {
  const carried = chunk.metadata?.error
  if (ChatrailError.isInstance(carried)) return carried
  const cause = carried instanceof Error ? carried : undefined
  return streamFailure(typeof chunk.content === 'string' && chunk.content ? chunk.content : (cause?.message ?? 'Stream error'), cause)
}

/** A thrown value as the turn's error: chatrail errors pass through, anything else is wrapped. */
export function errorFromThrown(thrown: unknown, prefix = 'Stream failed'): Error {
  return ChatrailError.isInstance(thrown) ? thrown : streamFailure(`${prefix}: ${describeThrown(thrown)}`, thrown)
}

function closeQuietly(iterator: AsyncIterator<StreamChunk>): void {
  try {
    ignoreRejection(iterator.return?.())
  } catch {
    // an iterator that cannot close is no reason to fail a turn that has ended
  }
}

const hasText = (value: unknown): value is string => typeof value === 'string' && value.length > 0

const DONE: StreamOutcome = { kind: 'done' }
const SUPERSEDED_OUTCOME: StreamOutcome = { kind: 'superseded' }

/**
 * Pulls one source to its end and never throws (agentskit-contract §2.5). Handlers run only while
 * the turn is current; a superseded turn stops pulling at once, even if the adapter ignores abort.
 * A missing `done` counts as success; unknown chunk types (untrusted input) are ignored. Every
 * exit before the source's own end (`done` or `error` chunk, supersede, throw) closes the iterator.
 */
export async function consumeStream(source: StreamSource, turn: Turn, handlers: ChunkHandlers): Promise<StreamOutcome> {
  let iterator: AsyncIterator<StreamChunk>
  try {
    iterator = source.stream()
  } catch (thrown) {
    return { kind: 'error', error: errorFromThrown(thrown) }
  }
  let outcome: StreamOutcome = SUPERSEDED_OUTCOME
  try {
    pulling: for (;;) {
      const step = await turn.race(iterator.next())
      if (step === SUPERSEDED || !turn.isCurrent()) break
      if (step.done) return DONE
      const chunk: StreamChunk = step.value
      const { content } = chunk ?? {}
      switch (chunk?.type) {
        case 'text': {
          const component = chunk.metadata === undefined ? undefined : componentOfChunk(chunk)
          const source = component !== undefined || chunk.metadata === undefined ? undefined : handlers.sourceOf(chunk)
          if (component) handlers.component(component)
          else {
            // A source rides an empty text chunk; should one carry text too, the text is kept.
            if (source) handlers.source(source)
            if (hasText(content)) handlers.text(content)
          }
          break
        }
        case 'reasoning':
          if (hasText(content)) handlers.reasoning(content)
          break
        case 'tool_result':
          if (hasText(content)) handlers.tool_result(content)
          if (chunk.toolCall) handlers.toolResultOf(chunk.toolCall, content, chunk.metadata)
          break
        case 'usage':
          if (chunk.usage) handlers.usage(chunk.usage)
          break
        case 'tool_call':
          if (chunk.toolCall) await handlers.toolCall(chunk.toolCall, chunk.metadata)
          if (!turn.isCurrent()) break pulling
          break
        case 'error':
          outcome = { kind: 'error', error: errorFromChunk(chunk) }
          break pulling
        case 'done': {
          const record = chunk.metadata?.chatrail
          if (isPlainObject(record)) handlers.doneRecord(record)
          outcome = DONE
          break pulling
        }
        default:
          break
      }
    }
  } catch (thrown) {
    outcome = { kind: 'error', error: errorFromThrown(thrown) }
  }
  closeQuietly(iterator)
  return outcome
}
