import type { Message } from './message.js'
import type { StreamSource } from './stream.js'
import type { ToolDefinition } from './tool.js'

/**
 * Adapter shapes, structurally identical to AgentsKit's `types/adapter.ts`.
 * Invariants A1–A10 (ADR-0001) are checked by `runAdapterContract` in `chatrail/testing`.
 */

export interface AdapterContext {
  systemPrompt?: string
  temperature?: number
  maxTokens?: number
  tools?: ToolDefinition[]
  metadata?: Record<string, unknown>
}

export interface AdapterRequest { messages: Message[]; context?: AdapterContext }

export interface AdapterCapabilities {
  streaming?: boolean
  tools?: boolean
  reasoning?: boolean
  multiModal?: boolean
  structuredOutput?: boolean
  usage?: boolean
  extensions?: Record<string, unknown>
}

export type AdapterFactory = {
  createSource: (request: AdapterRequest) => StreamSource
  capabilities?: AdapterCapabilities
}
