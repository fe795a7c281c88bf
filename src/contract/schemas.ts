import * as z from 'zod/mini'
import type { MemoryRecord, Message } from './message.js'
import type { StreamChunk } from './stream.js'

/**
 * zod schemas for what arrives untrusted: chunks parsed from child processes, messages and
 * memory records read from storage. Each schema's output type equals the contract type
 * (pinned in test/contract/schemas.test-d.ts). They are `zod/mini` schemas, so a browser bundle
 * carries only the validators used here instead of all of classic zod and its locales. Pass
 * `inEnglish` (./english-issues.js) to `safeParse` where an issue's message reaches a person.
 */

export const tokenUsageSchema = z.object({
  promptTokens: z.number(),
  completionTokens: z.number(),
  totalTokens: z.number(),
})

export const streamToolCallPayloadSchema = z.object({
  id: z.string(),
  name: z.string(),
  args: z.string(),
  result: z.optional(z.string()),
})

export const streamChunkSchema: z.ZodMiniType<StreamChunk> = z.object({
  type: z.enum(['text', 'tool_call', 'tool_result', 'reasoning', 'usage', 'error', 'done']),
  content: z.optional(z.string()),
  toolCall: z.optional(streamToolCallPayloadSchema),
  usage: z.optional(tokenUsageSchema),
  metadata: z.optional(z.record(z.string(), z.unknown())),
})

export const contentPartSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({
    type: z.literal('image'),
    source: z.string(),
    mimeType: z.optional(z.string()),
    detail: z.optional(z.enum(['low', 'high', 'auto'])),
  }),
  z.object({ type: z.literal('audio'), source: z.string(), mimeType: z.optional(z.string()), durationSec: z.optional(z.number()) }),
  z.object({ type: z.literal('video'), source: z.string(), mimeType: z.optional(z.string()), durationSec: z.optional(z.number()) }),
  z.object({ type: z.literal('file'), source: z.string(), mimeType: z.optional(z.string()), filename: z.optional(z.string()) }),
  z.object({
    type: z.literal('component'),
    componentKey: z.string().check(z.regex(/^[a-z][a-z0-9-]{0,63}$/)),
    instanceId: z.string().check(z.regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/)),
    props: z.unknown(),
    fallback: z.object({ kind: z.string().check(z.minLength(1), z.maxLength(64)), summary: z.string().check(z.minLength(1), z.maxLength(4096)) }),
    provenance: z.enum(['route', 'agent', 'host']),
  }),
])

export const toolCallSchema = z.object({
  id: z.string(),
  name: z.string(),
  args: z.record(z.string(), z.unknown()),
  result: z.optional(z.string()),
  error: z.optional(z.string()),
  status: z.enum(['pending', 'running', 'complete', 'error', 'requires_confirmation']),
})

const messageFields = {
  id: z.string().check(z.minLength(1)),
  role: z.enum(['user', 'assistant', 'system', 'tool']),
  content: z.string(),
  parts: z.optional(z.array(contentPartSchema)),
  status: z.enum(['pending', 'streaming', 'complete', 'error']),
  toolCalls: z.optional(z.array(toolCallSchema)),
  toolCallId: z.optional(z.string()),
  metadata: z.optional(z.record(z.string(), z.unknown())),
}

/** A live message: `createdAt` must already be a Date. */
export const messageSchema: z.ZodMiniType<Message> = z.object({ ...messageFields, createdAt: z.date() })

/** A stored message: `createdAt` is an ISO string, as `serializeMessages` writes it. */
export const storedMessageSchema = z.object({ ...messageFields, createdAt: z.iso.datetime({ offset: true }) })

export const memoryRecordSchema: z.ZodMiniType<MemoryRecord> = z.object({
  version: z.literal(1),
  messages: z.array(storedMessageSchema),
})
