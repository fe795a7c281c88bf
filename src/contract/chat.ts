import type { AdapterFactory } from './adapter.js'
import type { ChatMemory, Retriever } from './memory.js'
import type { MaybePromise, Message, ToolCall } from './message.js'
import type { Observer } from './observer.js'
import type { StreamStatus, TokenUsage } from './stream.js'
import type { ArgsValidator, ToolAuthorizer, ToolCallHandlerContext, ToolDefinition } from './tool.js'

/** Chat shapes, structurally identical to AgentsKit's `types/chat.ts` and `types/skill.ts`. */

export interface SkillDefinition {
  name: string
  description: string
  systemPrompt: string
  examples?: Array<{ input: string; output: string }>
  tools?: string[]
  delegates?: string[]
  temperature?: number
  metadata?: Record<string, unknown>
  onActivate?: () => MaybePromise<{ tools?: ToolDefinition[] }>
}

export interface ChatConfig {
  adapter: AdapterFactory
  systemPrompt?: string
  temperature?: number
  maxTokens?: number
  tools?: ToolDefinition[]
  skills?: SkillDefinition[]
  memory?: ChatMemory
  retriever?: Retriever
  initialMessages?: Message[]
  maxToolIterations?: number
  onMessage?: (message: Message) => void
  onError?: (error: Error) => void
  onToolCall?: (toolCall: ToolCall, context: ToolCallHandlerContext) => MaybePromise<void>
  authorizeToolCall?: ToolAuthorizer
  observers?: Observer[]
  validateArgs?: ArgsValidator
}

export interface ChatState {
  messages: Message[]
  status: StreamStatus
  input: string
  error: Error | null
  usage: TokenUsage
}

export interface EditOptions { regenerate?: boolean }

/** Every member is a function-typed property (not a method) so it is safe to call detached. */
export interface ChatController {
  getState: () => ChatState
  subscribe: (listener: () => void) => () => void
  send: (text: string) => Promise<void>
  stop: () => void
  retry: () => Promise<void>
  edit: (messageId: string, newContent: string, opts?: EditOptions) => Promise<void>
  regenerate: (messageId?: string) => Promise<void>
  setInput: (value: string) => void
  setMessages: (messages: Message[]) => void
  clear: () => Promise<void>
  updateConfig: (config: Partial<ChatConfig>) => void
  proposeToolCall: (proposal: Pick<ToolCall, 'id' | 'name' | 'args'>) => Promise<ToolCall>
  approve: (toolCallId: string) => Promise<void>
  deny: (toolCallId: string, reason?: string) => Promise<void>
}

export interface ChatReturn extends ChatState {
  send: (text: string) => Promise<void>
  stop: () => void
  retry: () => Promise<void>
  edit: (messageId: string, newContent: string, opts?: EditOptions) => Promise<void>
  regenerate: (messageId?: string) => Promise<void>
  setInput: (value: string) => void
  clear: () => Promise<void>
  proposeToolCall: (proposal: Pick<ToolCall, 'id' | 'name' | 'args'>) => Promise<ToolCall>
  approve: (toolCallId: string) => Promise<void>
  deny: (toolCallId: string, reason?: string) => Promise<void>
}
