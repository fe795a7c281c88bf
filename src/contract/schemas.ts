import { _isoDateTime } from 'zod/v4/core'
import * as z from 'zod/mini'
import type { MemoryRecord, Message } from './message.js'
import type { StreamChunk } from './stream.js'

/**
 * zod schemas for what arrives untrusted: chunks parsed from child processes, messages and
 * memory records read from storage. Each schema's output type equals the contract type
 * (pinned in test/contract/schemas.test-d.ts). They are `zod/mini` schemas, so a browser bundle
 * carries only the validators used here instead of all of classic zod and its locales. Pass
 * `inEnglish` (./english-issues.js) to `safeParse` where an issue's message reaches a person.
 *
 * A set of words is a literal union (`z.literal([...])`), not `z.enum([...])`: for strings the two
 * accept the same values and report the same issue ("Invalid option: expected one of …"), and the
 * literal's code is in the bundle anyway (the version, the part types) where the enum's would be
 * extra (0.2 kB gzip of what an app importing the schemas pays, issue 32). The property in
 * test/contract/schemas-equivalence.property.test.ts holds every schema here to what the plain
 * spelling (`z.enum`, `z.iso.datetime`) says: the same verdict, issues and output.
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
  type: z.literal(['text', 'tool_call', 'tool_result', 'reasoning', 'usage', 'error', 'done']),
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
    detail: z.optional(z.literal(['low', 'high', 'auto'])),
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
    provenance: z.literal(['route', 'agent', 'host']),
  }),
])

export const toolCallSchema = z.object({
  id: z.string(),
  name: z.string(),
  args: z.record(z.string(), z.unknown()),
  result: z.optional(z.string()),
  error: z.optional(z.string()),
  status: z.literal(['pending', 'running', 'complete', 'error', 'requires_confirmation']),
})

const messageFields = {
  id: z.string().check(z.minLength(1)),
  role: z.literal(['user', 'assistant', 'system', 'tool']),
  content: z.string(),
  parts: z.optional(z.array(contentPartSchema)),
  status: z.literal(['pending', 'streaming', 'complete', 'error']),
  toolCalls: z.optional(z.array(toolCallSchema)),
  toolCallId: z.optional(z.string()),
  metadata: z.optional(z.record(z.string(), z.unknown())),
}

/** A live message: `createdAt` must already be a Date. */
export const messageSchema: z.ZodMiniType<Message> = z.object({ ...messageFields, createdAt: z.date() })

/**
 * A stored message: `createdAt` is an ISO string, as `serializeMessages` writes it. The field is
 * what `z.iso.datetime({ offset: true })` returns, made by the same call that spelling makes:
 * reaching it through the `z.iso` namespace object would keep that whole object, and with it the
 * ISO date, time and duration schemas, in every bundle that imports this module (0.3 kB gzip, and
 * esbuild's namespace helper as a chunk of its own; issue 32).
 */
export const storedMessageSchema = z.object({ ...messageFields, createdAt: _isoDateTime(z.ZodMiniISODateTime, { offset: true }) })

export const memoryRecordSchema: z.ZodMiniType<MemoryRecord> = z.object({
  version: z.literal(1),
  messages: z.array(storedMessageSchema),
})
