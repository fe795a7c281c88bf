import type { DataRegion, MaybePromise, Message } from './message.js'

/** Memory shapes, structurally identical to AgentsKit's `types/memory.ts` (chat part only). */

export interface MemoryOperationOptions { signal?: AbortSignal }

export interface ChatMemory {
  region?: DataRegion
  load: (options?: MemoryOperationOptions) => MaybePromise<Message[]>
  save: (messages: Message[], options?: MemoryOperationOptions) => MaybePromise<void>
  clear?: (options?: MemoryOperationOptions) => MaybePromise<void>
}

export interface RetrievedDocument {
  id: string
  content: string
  source?: string
  score?: number
  metadata?: Record<string, unknown>
}
export interface RetrieverRequest { query: string; messages: Message[] }
export interface Retriever { retrieve: (request: RetrieverRequest) => MaybePromise<RetrievedDocument[]> }
