import * as z from 'zod/mini'
import type { UiPart } from './ui-parts.js'

/**
 * zod schema for parts read off the wire (untrusted: they come from a server over HTTP). Extra
 * fields are allowed (the AI SDK adds `providerMetadata` and the like); `data-chatrail` data is
 * checked for what a renderer relies on (state, events, actions) and otherwise passed through.
 */

const id = z.string()
const chatrailData = z.looseObject({
  state: z.string(),
  events: z.array(z.string()),
  actions: z.array(z.string()),
})

const partSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('start'), messageId: z.optional(z.string()) }),
  z.looseObject({ type: z.literal('text-start'), id }),
  z.looseObject({ type: z.literal('text-delta'), id, delta: z.string() }),
  z.looseObject({ type: z.literal('text-end'), id }),
  z.looseObject({ type: z.literal('reasoning-start'), id }),
  z.looseObject({ type: z.literal('reasoning-delta'), id, delta: z.string() }),
  z.looseObject({ type: z.literal('reasoning-end'), id }),
  // url and title are checked where the part becomes a chunk (asMessageSource)
  z.looseObject({ type: z.literal('source-url'), sourceId: z.string(), url: z.string(), title: z.optional(z.string()) }),
  z.looseObject({ type: z.literal('error'), errorText: z.string() }),
  z.looseObject({ type: z.literal('data-chatrail'), data: chatrailData }),
  // the part's own fields are checked where it becomes a chunk (isComponentPart); props by the registry
  z.looseObject({ type: z.literal('data-component'), id, data: z.looseObject({ type: z.literal('component') }) }),
  z.looseObject({ type: z.literal('finish'), finishReason: z.optional(z.enum(['stop', 'length', 'content-filter', 'tool-calls', 'error', 'other'])) }),
])

const KNOWN = new Set(['start', 'text-start', 'text-delta', 'text-end', 'reasoning-start', 'reasoning-delta', 'reasoning-end', 'source-url', 'error', 'data-chatrail', 'data-component', 'finish'])

export type PartReading = { readonly kind: 'part'; readonly part: UiPart } | { readonly kind: 'ignored' } | { readonly kind: 'invalid'; readonly reason: string }

/** One event's `data`, read: a known part, a part type this codec does not read (ignored), or invalid. */
export function readPart(data: string): PartReading {
  let value: unknown
  try {
    value = JSON.parse(data)
  } catch {
    return { kind: 'invalid', reason: 'an event is not JSON' }
  }
  const type = typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : undefined
  if (typeof type !== 'string') return { kind: 'invalid', reason: 'an event has no "type"' }
  if (!KNOWN.has(type)) return { kind: 'ignored' }
  const parsed = partSchema.safeParse(value)
  if (!parsed.success) return { kind: 'invalid', reason: `a "${type}" part is malformed at ${parsed.error.issues[0]?.path.join('.') || '(root)'}` }
  return { kind: 'part', part: parsed.data as UiPart }
}
