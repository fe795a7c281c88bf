import type { StreamChunk } from '../contract/stream.js'
import { streamChunkSchema } from '../contract/schemas.js'
import type { JsonObject } from './json.js'
import type { RouteResult } from './routes.js'

/**
 * Turns what a route (or the fallback) returned into stream chunks. Pure. The text becomes one
 * `text` chunk, extra chunks follow it; `done` and `error` are the session's to emit, so a route
 * cannot end or fail a stream by returning them.
 */
export interface NormalizedOutput<Ctx extends JsonObject> {
  readonly chunks: readonly StreamChunk[]
  readonly assign: Partial<Ctx> | undefined
}

// Constant answers are common: their (frozen, immutable) chunk lists are shared, not rebuilt per turn.
const textOutputs = new Map<string, NormalizedOutput<JsonObject>>()
const MAX_SHARED = 512

function textOutput(text: string): NormalizedOutput<JsonObject> {
  let output = textOutputs.get(text)
  if (!output) {
    if (textOutputs.size >= MAX_SHARED) textOutputs.clear()
    output = Object.freeze({ chunks: Object.freeze(text === '' ? [] : [Object.freeze({ type: 'text' as const, content: text })]), assign: undefined })
    if (text.length <= 4096) textOutputs.set(text, output)
  }
  return output
}

export function normalizeOutput<Ctx extends JsonObject>(result: unknown): NormalizedOutput<Ctx> | undefined {
  if (typeof result === 'string') return textOutput(result) as NormalizedOutput<Ctx>
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return undefined
  const { text, chunks, assign, ...rest } = result as Exclude<RouteResult<Ctx>, string> & Record<string, unknown>
  if (Object.keys(rest).length > 0) return undefined
  if (text !== undefined && typeof text !== 'string') return undefined
  if (assign !== undefined && (typeof assign !== 'object' || assign === null || Array.isArray(assign))) return undefined
  const out: StreamChunk[] = []
  if (text) out.push(Object.freeze({ type: 'text', content: text }))
  if (chunks !== undefined) {
    if (!Array.isArray(chunks)) return undefined
    for (const chunk of chunks) {
      const parsed = streamChunkSchema.safeParse(chunk)
      if (!parsed.success || parsed.data.type === 'done' || parsed.data.type === 'error') return undefined
      out.push(Object.freeze(structuredClone(chunk as StreamChunk)))
    }
  }
  return { chunks: Object.freeze(out), assign: assign as Partial<Ctx> | undefined }
}
