import { componentOfChunk } from '../contract/component-chunk.js'
import { sourceOfChunk } from '../contract/message-source.js'
import type { StreamChunk } from '../contract/stream.js'
import type { ChatrailPartData, FinishReason, UiPart } from './ui-parts.js'

/**
 * chatrail stream chunks → UI message stream parts, for one assistant message. Stateful only in
 * which text or reasoning part is open: a text run opens a part (`text-start`) that stays open
 * while text keeps coming and closes (`text-end`) when reasoning, an error or the end arrives, so
 * the client shows the pieces in the order they streamed. Parts' ids are `<messageId>:<n>`.
 *
 * A `text` chunk carrying a component becomes a `data-component` part (the text part before it
 * closes); one carrying a source (`sourceChunk`) a `source-url` part. `tool_call`, `tool_result` and `usage` chunks are not part of the wire yet (they produce no parts).
 */
export interface UiPartEncoder {
  /** The `start` part carrying the assistant message's id. */
  start: () => UiPart[]
  /** The parts for one chunk (an `error` chunk's text comes from `describeError`). */
  encode: (chunk: StreamChunk) => UiPart[]
  /** Closes what is open, then the `data-chatrail` part (when given) and `finish`. */
  finish: (data?: ChatrailPartData, finishReason?: FinishReason) => UiPart[]
}

export interface UiPartEncoderOptions {
  readonly messageId: string
  /** What an `error` part says. Default: the chunk's content. A server passes a code, never internal text. */
  readonly describeError?: (chunk: StreamChunk) => string
}

type OpenKind = 'text' | 'reasoning'

export function createUiPartEncoder(options: UiPartEncoderOptions): UiPartEncoder {
  const { messageId } = options
  const describeError = options.describeError ?? ((chunk: StreamChunk) => chunk.content ?? 'error')
  let open: { kind: OpenKind; id: string } | undefined
  let counter = 0

  const close = (): UiPart[] => {
    if (!open) return []
    const part: UiPart = open.kind === 'text' ? { type: 'text-end', id: open.id } : { type: 'reasoning-end', id: open.id }
    open = undefined
    return [part]
  }

  const delta = (kind: OpenKind, text: string): UiPart[] => {
    const parts: UiPart[] = []
    if (open?.kind !== kind) {
      parts.push(...close())
      open = { kind, id: `${messageId}:${counter++}` }
      parts.push(kind === 'text' ? { type: 'text-start', id: open.id } : { type: 'reasoning-start', id: open.id })
    }
    parts.push(kind === 'text' ? { type: 'text-delta', id: open.id, delta: text } : { type: 'reasoning-delta', id: open.id, delta: text })
    return parts
  }

  return {
    start: () => [{ type: 'start', messageId }],
    encode(chunk) {
      switch (chunk.type) {
        case 'text': {
          const component = chunk.metadata === undefined ? undefined : componentOfChunk(chunk)
          if (component) return [...close(), { type: 'data-component', id: component.instanceId, data: component }]
          const source = chunk.metadata === undefined ? undefined : sourceOfChunk(chunk)
          if (source) return [{ type: 'source-url', sourceId: `${messageId}:source${counter++}`, url: source.url, ...(source.title === undefined ? {} : { title: source.title }) }]
          return typeof chunk.content === 'string' && chunk.content !== '' ? delta('text', chunk.content) : []
        }
        case 'reasoning':
          return typeof chunk.content === 'string' && chunk.content !== '' ? delta(chunk.type, chunk.content) : []
        case 'error':
          return [...close(), { type: 'error', errorText: describeError(chunk) }]
        case 'done':
          return close()
        default:
          return []
      }
    },
    finish(data, finishReason = 'stop') {
      return [...close(), ...(data ? [{ type: 'data-chatrail', data } as const] : []), { type: 'finish', finishReason }]
    },
  }
}
