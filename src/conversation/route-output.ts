import { componentChunk, isComponentPart } from '../contract/component-chunk.js'
import type { ComponentPart } from '../contract/component-part.js'
import type { StreamChunk } from '../contract/stream.js'
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

// `streamChunkSchema` (src/contract/schemas.ts: loose objects, finite numbers) as a plain predicate:
// a route's chunks are checked on the turn path, which carries neither zod (issue 32) nor the
// definition's shape check (shape-check.ts, loaded with validation). test/conversation/stream-chunk-shape.test.ts
// holds the two to the same verdicts.
const CHUNK_TYPES: ReadonlySet<unknown> = new Set(['text', 'tool_call', 'tool_result', 'reasoning', 'usage', 'error', 'done'])

type Fields = Record<string, unknown>
const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value)
const isString = (value: unknown): boolean => typeof value === 'string'
const isNumber = (value: unknown): boolean => typeof value === 'number' && Number.isFinite(value)
/** Absent (or `undefined`), or passing `test`. */
const optional = (value: unknown, test: (value: unknown) => boolean): boolean => value === undefined || test(value)

const isToolCall = (value: unknown): boolean => isObject(value) && isString(value.id) && isString(value.name) && isString(value.args) && optional(value.result, isString)
const isUsage = (value: unknown): boolean => isObject(value) && isNumber(value.promptTokens) && isNumber(value.completionTokens) && isNumber(value.totalTokens)

/** `z.record(z.string(), z.unknown())`: a plain object (zod's `isPlainObject`) without enumerable symbol keys. */
function isRecord(value: unknown): boolean {
  if (!isObject(value)) return false
  const ctor: unknown = value.constructor
  if (typeof ctor === 'function') {
    const prototype: unknown = ctor.prototype
    if (!isObject(prototype) || !Object.hasOwn(prototype, 'isPrototypeOf')) return false
  }
  return Object.getOwnPropertySymbols(value).every((key) => !Object.prototype.propertyIsEnumerable.call(value, key))
}

/** True when `value` is a chunk `streamChunkSchema` accepts. */
export function isStreamChunk(value: unknown): value is StreamChunk {
  return isObject(value) && CHUNK_TYPES.has(value.type) && optional(value.content, isString) && optional(value.toolCall, isToolCall) && optional(value.usage, isUsage) && optional(value.metadata, isRecord)
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
  if (Array.isArray(result)) return normalizeOutput({ content: result })
  if (typeof result !== 'object' || result === null) return undefined
  const { text, content, chunks, assign, ...rest } = result as Exclude<RouteResult<Ctx>, string | readonly unknown[]> & Record<string, unknown>
  if (Object.keys(rest).length > 0) return undefined
  if (text !== undefined && typeof text !== 'string') return undefined
  if (assign !== undefined && (typeof assign !== 'object' || assign === null || Array.isArray(assign))) return undefined
  const out: StreamChunk[] = []
  if (text) out.push(Object.freeze({ type: 'text', content: text }))
  if (content !== undefined) {
    if (!Array.isArray(content)) return undefined
    for (const piece of content as readonly unknown[]) {
      if (typeof piece === 'string') {
        if (piece !== '') out.push(Object.freeze({ type: 'text', content: piece }))
        continue
      }
      const part = routeComponent(piece)
      if (!part) return undefined
      out.push(componentChunk(part))
    }
  }
  if (chunks !== undefined) {
    if (!Array.isArray(chunks)) return undefined
    for (const chunk of chunks) {
      // Copy first, then check the copy: the chunk is read once (a getter cannot answer the check
      // one way and the copy another).
      const copy = cloneData(chunk)
      if (copy === undefined) return undefined
      if (!isStreamChunk(copy) || copy.type === 'done' || copy.type === 'error') return undefined
      if (copy.metadata !== undefined && 'component' in copy.metadata) {
        const part = routeComponent(copy.metadata.component)
        if (!part) return undefined
        out.push(componentChunk(part))
        continue
      }
      out.push(Object.freeze(copy as StreamChunk))
    }
  }
  return { chunks: Object.freeze(out), assign: assign as Partial<Ctx> | undefined }
}

/**
 * A component in a route's answer, copied (read once). A route speaks for itself (`route`) or for
 * the app (`host`); `agent` is the agent tool path's alone, so a route cannot claim it.
 */
function routeComponent(value: unknown): ComponentPart | undefined {
  const copy = cloneData(value)
  if (!isComponentPart(copy) || copy.provenance === 'agent') return undefined
  return Object.freeze(copy)
}

/** A structured clone of plain data; `undefined` for what cannot be cloned (functions, symbols). */
function cloneData(value: unknown): unknown {
  try {
    return structuredClone(value)
  } catch (error) {
    if (error instanceof DOMException && error.name === 'DataCloneError') return undefined
    throw error
  }
}
