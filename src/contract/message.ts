/**
 * Message shapes, structurally identical to AgentsKit's `types/message.ts` and `types/content.ts`.
 * No logic lives here beyond the pure content-part helpers upstream also exports.
 */

import type { ComponentPart } from './component-part.js'

export type MaybePromise<T> = T | Promise<T>
export type DataRegion = 'eu' | 'us' | 'apac'

export type MessageRole = 'user' | 'assistant' | 'system' | 'tool'
export type MessageStatus = 'pending' | 'streaming' | 'complete' | 'error'

export interface TextPart { type: 'text'; text: string }
export interface ImagePart { type: 'image'; source: string; mimeType?: string; detail?: 'low' | 'high' | 'auto' }
export interface AudioPart { type: 'audio'; source: string; mimeType?: string; durationSec?: number }
export interface VideoPart { type: 'video'; source: string; mimeType?: string; durationSec?: number }
export interface FilePart { type: 'file'; source: string; mimeType?: string; filename?: string }
/** `component` is chatrail's addition to upstream's five kinds (see component-part.ts). */
export type ContentPart = TextPart | ImagePart | AudioPart | VideoPart | FilePart | ComponentPart
export type PartKind = ContentPart['type']

export type ToolCallStatus = 'pending' | 'running' | 'complete' | 'error' | 'requires_confirmation'

export interface ToolCall {
  id: string
  name: string
  args: Record<string, unknown>
  result?: string
  error?: string
  status: ToolCallStatus
}

export interface Message {
  id: string
  role: MessageRole
  content: string
  parts?: ContentPart[]
  status: MessageStatus
  toolCalls?: ToolCall[]
  toolCallId?: string
  metadata?: Record<string, unknown>
  createdAt: Date
}

export interface MemoryRecord {
  version: 1
  messages: Array<Omit<Message, 'createdAt'> & { createdAt: string }>
}
