import { z } from 'zod'
import type { MemoryRecord, Message } from './message.js'
import type { StreamChunk } from './stream.js'

/**
 * zod schemas for what arrives untrusted: chunks parsed from child processes, messages and
 * memory records read from storage. Each schema's output type equals the contract type
 * (pinned in test/contract/schemas.test-d.ts).
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
  result: z.string().optional(),
})

export const streamChunkSchema: z.ZodType<StreamChunk> = z.object({
  type: z.enum(['text', 'tool_call', 'tool_result', 'reasoning', 'usage', 'error', 'done']),
  content: z.string().optional(),
  toolCall: streamToolCallPayloadSchema.optional(),
  usage: tokenUsageSchema.optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
})

export const contentPartSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({
    type: z.literal('image'),
    source: z.string(),
    mimeType: z.string().optional(),
    detail: z.enum(['low', 'high', 'auto']).optional(),
  }),
  z.object({ type: z.literal('audio'), source: z.string(), mimeType: z.string().optional(), durationSec: z.number().optional() }),
  z.object({ type: z.literal('video'), source: z.string(), mimeType: z.string().optional(), durationSec: z.number().optional() }),
  z.object({ type: z.literal('file'), source: z.string(), mimeType: z.string().optional(), filename: z.string().optional() }),
])

export const toolCallSchema = z.object({
  id: z.string(),
  name: z.string(),
  args: z.record(z.string(), z.unknown()),
  result: z.string().optional(),
  error: z.string().optional(),
  status: z.enum(['pending', 'running', 'complete', 'error', 'requires_confirmation']),
})

const messageFields = {
  id: z.string().min(1),
  role: z.enum(['user', 'assistant', 'system', 'tool']),
  content: z.string(),
  parts: z.array(contentPartSchema).optional(),
  status: z.enum(['pending', 'streaming', 'complete', 'error']),
  toolCalls: z.array(toolCallSchema).optional(),
  toolCallId: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
}

/** A live message: `createdAt` must already be a Date. */
export const messageSchema: z.ZodType<Message> = z.object({ ...messageFields, createdAt: z.date() })

/** A stored message: `createdAt` is an ISO string, as `serializeMessages` writes it. */
export const storedMessageSchema = z.object({ ...messageFields, createdAt: z.iso.datetime({ offset: true }) })

export const memoryRecordSchema: z.ZodType<MemoryRecord> = z.object({
  version: z.literal(1),
  messages: z.array(storedMessageSchema),
})
