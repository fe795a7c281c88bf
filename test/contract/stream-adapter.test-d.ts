import { describe, expectTypeOf, it } from 'vitest'
import type {
  AdapterCapabilities,
  AdapterContext,
  AdapterFactory,
  AdapterRequest,
  Message,
  StreamChunk,
  StreamSource,
  StreamStatus,
  StreamToolCallPayload,
  TokenUsage,
  ToolDefinition,
} from '../../src/index.js'

describe('stream and adapter shapes (agentskit-contract §1.5–1.6)', () => {
  it('pins StreamChunk as one flat interface with seven type literals', () => {
    expectTypeOf<StreamChunk>().toEqualTypeOf<{
      type: 'text' | 'tool_call' | 'tool_result' | 'reasoning' | 'usage' | 'error' | 'done'
      content?: string
      toolCall?: StreamToolCallPayload
      usage?: TokenUsage
      metadata?: Record<string, unknown>
    }>()
    expectTypeOf<StreamToolCallPayload>().toEqualTypeOf<{ id: string; name: string; args: string; result?: string }>()
    expectTypeOf<TokenUsage>().toEqualTypeOf<{ promptTokens: number; completionTokens: number; totalTokens: number }>()
    expectTypeOf<StreamStatus>().toEqualTypeOf<'idle' | 'streaming' | 'complete' | 'error'>()
  })

  it('pins StreamSource and AdapterFactory as function-typed properties', () => {
    expectTypeOf<StreamSource>().toEqualTypeOf<{ stream: () => AsyncIterableIterator<StreamChunk>; abort: () => void }>()
    expectTypeOf<AdapterFactory>().toEqualTypeOf<{ createSource: (request: AdapterRequest) => StreamSource; capabilities?: AdapterCapabilities }>()
    // A property (not a method) is checked contravariantly: a narrower parameter is rejected.
    const narrow = { createSource: (request: AdapterRequest & { extra: true }): StreamSource => ({ stream: () => { throw new Error(String(request)) }, abort: () => undefined }) }
    // @ts-expect-error createSource must accept every AdapterRequest
    const factory: AdapterFactory = narrow
    expectTypeOf(factory).toEqualTypeOf<AdapterFactory>()
  })

  it('pins AdapterRequest, AdapterContext and AdapterCapabilities', () => {
    expectTypeOf<AdapterRequest>().toEqualTypeOf<{ messages: Message[]; context?: AdapterContext }>()
    expectTypeOf<AdapterContext>().toEqualTypeOf<{
      systemPrompt?: string
      temperature?: number
      maxTokens?: number
      tools?: ToolDefinition[]
      metadata?: Record<string, unknown>
    }>()
    expectTypeOf<AdapterCapabilities>().toEqualTypeOf<{
      streaming?: boolean
      tools?: boolean
      reasoning?: boolean
      multiModal?: boolean
      structuredOutput?: boolean
      usage?: boolean
      extensions?: Record<string, unknown>
    }>()
  })
})
