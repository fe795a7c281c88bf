import { describe, expectTypeOf, it } from 'vitest'
import type { z } from 'zod'
import type { ZodMiniType } from 'zod/mini'
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

  it('are zod/mini schemas, not classic ones (compose them with zod/mini functions)', () => {
    expectTypeOf<typeof streamChunkSchema>().toExtend<ZodMiniType<StreamChunk>>()
    expectTypeOf<typeof messageSchema>().toExtend<ZodMiniType<Message>>()
    expectTypeOf<typeof memoryRecordSchema>().toExtend<ZodMiniType<MemoryRecord>>()
    // A classic schema would also pass the checks above (it is a superset); it has `.optional()`.
    expectTypeOf<typeof streamChunkSchema>().not.toExtend<z.ZodType>()
    expectTypeOf<typeof contentPartSchema>().not.toExtend<z.ZodType>()
    expectTypeOf<typeof toolCallSchema>().not.toExtend<z.ZodType>()
    expectTypeOf<typeof storedMessageSchema>().not.toExtend<z.ZodType>()
  })
})
