import type { TextStreamPart, ToolSet } from 'ai'
import { asMessageSource, sourceChunk } from '../contract/message-source.js'
import type { StreamChunk, TokenUsage } from '../contract/stream.js'

/**
 * One `streamText` full-stream part → what the adapter does with it. Pure and stateless:
 * deltas become `text` / `reasoning` chunks, a complete `tool-call` a `tool_call` chunk (args as
 * a JSON string; provider-executed calls are left out, their answer follows as text), a url
 * `source` the controller's source chunk (`sourceChunk`, gathered into the reply's
 * `metadata.sources`), `finish` the `usage` chunk (when the provider counted) and the end, `error`
 * and `abort` the end with a failure. Framing (`*-start`, `*-end`, tool input deltas, steps,
 * document sources, raw) carries nothing a chatrail chunk holds.
 */
export type PartReading =
  | { readonly kind: 'chunks'; readonly chunks: StreamChunk[] }
  | { readonly kind: 'finish'; readonly chunks: StreamChunk[]; readonly finishReason: string }
  | { readonly kind: 'error'; readonly error: unknown }
  | { readonly kind: 'abort' }

const NOTHING: PartReading = { kind: 'chunks', chunks: [] }

export function readStreamPart(part: TextStreamPart<ToolSet>): PartReading {
  switch (part.type) {
    case 'text-delta':
      return part.text === '' ? NOTHING : { kind: 'chunks', chunks: [{ type: 'text', content: part.text }] }
    case 'reasoning-delta':
      return part.text === '' ? NOTHING : { kind: 'chunks', chunks: [{ type: 'reasoning', content: part.text }] }
    case 'tool-call':
      // a provider-executed tool (web search and the like) already ran: the controller must not run it
      if (part.providerExecuted) return NOTHING
      return { kind: 'chunks', chunks: [{ type: 'tool_call', toolCall: { id: part.toolCallId, name: part.toolName, args: JSON.stringify(isPlainObject(part.input) ? part.input : {}) } }] }
    case 'source': {
      // a document source has no url to link to; a malformed url or title is dropped (untrusted provider output)
      const source = part.sourceType === 'url' ? asMessageSource({ url: part.url, ...(part.title === undefined ? {} : { title: part.title }) }) : undefined
      return source ? { kind: 'chunks', chunks: [sourceChunk(source)] } : NOTHING
    }
    case 'finish': {
      const usage = usageOf(part.totalUsage)
      return { kind: 'finish', chunks: usage ? [{ type: 'usage', usage }] : [], finishReason: part.finishReason }
    }
    case 'error':
      return { kind: 'error', error: part.error }
    case 'abort':
      return { kind: 'abort' }
    default:
      return NOTHING
  }
}

function usageOf(usage: { inputTokens: number | undefined; outputTokens: number | undefined; totalTokens: number | undefined }): TokenUsage | undefined {
  const { inputTokens, outputTokens } = usage
  if (inputTokens === undefined && outputTokens === undefined) return undefined
  const promptTokens = inputTokens ?? 0
  const completionTokens = outputTokens ?? 0
  return { promptTokens, completionTokens, totalTokens: usage.totalTokens ?? promptTokens + completionTokens }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
