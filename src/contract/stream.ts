/** Stream shapes, structurally identical to AgentsKit's `types/stream.ts`. */

export type StreamStatus = 'idle' | 'streaming' | 'complete' | 'error'

/** In a `tool_call` chunk `args` is a JSON string; in a `ToolCall` it is the parsed object. */
export interface StreamToolCallPayload { id: string; name: string; args: string; result?: string }

export interface TokenUsage { promptTokens: number; completionTokens: number; totalTokens: number }

/** One flat interface, not a discriminated union, exactly as upstream. */
export interface StreamChunk {
  type: 'text' | 'tool_call' | 'tool_result' | 'reasoning' | 'usage' | 'error' | 'done'
  content?: string
  toolCall?: StreamToolCallPayload
  usage?: TokenUsage
  metadata?: Record<string, unknown>
}

export type StreamChunkType = StreamChunk['type']

export interface StreamSource {
  stream: () => AsyncIterableIterator<StreamChunk>
  abort: () => void
}
