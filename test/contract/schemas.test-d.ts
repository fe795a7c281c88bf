import { describe, expectTypeOf, it } from 'vitest'
import type { z } from 'zod'
import type { ContentPart, MemoryRecord, Message, StreamChunk, StreamToolCallPayload, TokenUsage, ToolCall } from '../../src/index.js'
import type {
  contentPartSchema,
  memoryRecordSchema,
  messageSchema,
  storedMessageSchema,
  streamChunkSchema,
  streamToolCallPayloadSchema,
  tokenUsageSchema,
  toolCallSchema,
} from '../../src/index.js'

describe('zod schema outputs equal the contract types', () => {
  it('stream schemas', () => {
    expectTypeOf<z.output<typeof streamChunkSchema>>().toEqualTypeOf<StreamChunk>()
    expectTypeOf<z.output<typeof streamToolCallPayloadSchema>>().toEqualTypeOf<StreamToolCallPayload>()
    expectTypeOf<z.output<typeof tokenUsageSchema>>().toEqualTypeOf<TokenUsage>()
  })

  it('message schemas', () => {
    expectTypeOf<z.output<typeof messageSchema>>().toEqualTypeOf<Message>()
    expectTypeOf<z.output<typeof toolCallSchema>>().toEqualTypeOf<ToolCall>()
    expectTypeOf<z.output<typeof contentPartSchema>>().toEqualTypeOf<ContentPart>()
    // The contract spells a stored message as an intersection; compare its flattened form.
    type Flat<T> = { [K in keyof T]: T[K] }
    expectTypeOf<z.output<typeof storedMessageSchema>>().toEqualTypeOf<Flat<MemoryRecord['messages'][number]>>()
    expectTypeOf<z.output<typeof memoryRecordSchema>>().toEqualTypeOf<MemoryRecord>()
  })
})
