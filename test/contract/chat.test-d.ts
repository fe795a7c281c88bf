import { describe, expectTypeOf, it } from 'vitest'
import type {
  AdapterFactory,
  AgentEvent,
  ArgsValidationResult,
  ArgsValidator,
  ChatConfig,
  ChatController,
  ChatMemory,
  ChatReturn,
  ChatState,
  EditOptions,
  JSONSchema7,
  MaybePromise,
  MemoryOperationOptions,
  Message,
  Observer,
  RetrievedDocument,
  Retriever,
  SkillDefinition,
  StreamStatus,
  TokenUsage,
  ToolAuthorizationContext,
  ToolAuthorizationDecision,
  ToolAuthorizer,
  ToolCall,
  ToolCallHandlerContext,
  ToolDefinition,
  ToolExecutionContext,
} from '../../src/index.js'
import { createChatController } from '../../src/controller/index.js'
import type { ChatrailController } from '../../src/controller/index.js'

describe('chat shapes (agentskit-contract §1.7–1.12)', () => {
  it('pins ChatConfig: 16 fields, only adapter required', () => {
    expectTypeOf<ChatConfig>().toEqualTypeOf<{
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
    }>()
  })

  it('pins ChatState and EditOptions', () => {
    expectTypeOf<ChatState>().toEqualTypeOf<{ messages: Message[]; status: StreamStatus; input: string; error: Error | null; usage: TokenUsage }>()
    expectTypeOf<EditOptions>().toEqualTypeOf<{ regenerate?: boolean }>()
  })

  it('pins ChatController: exactly 14 function-typed properties', () => {
    expectTypeOf<ChatController>().toEqualTypeOf<{
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
    }>()
    const controller = createChatController({ adapter: { createSource: () => ({ stream: () => { throw new Error('unused') }, abort: () => undefined }) } })
    // Property (not method) syntax: a send narrower than (text: string) is not a ChatController.
    // @ts-expect-error send must accept any string
    const narrowed: ChatController = { ...controller, send: (text: 'hi') => Promise.resolve(void text) }
    expectTypeOf(narrowed).toEqualTypeOf<ChatController>()
  })

  it('pins ChatReturn as ChatState plus ten actions', () => {
    type Actions = Omit<ChatReturn, keyof ChatState>
    expectTypeOf<keyof Actions>().toEqualTypeOf<
      'send' | 'stop' | 'retry' | 'edit' | 'regenerate' | 'setInput' | 'clear' | 'proposeToolCall' | 'approve' | 'deny'
    >()
    expectTypeOf<ChatReturn>().toMatchTypeOf<ChatState>()
  })

  it('ChatrailController is a ChatController whose send also takes metadata', () => {
    expectTypeOf<ChatrailController>().toMatchTypeOf<ChatController>()
    expectTypeOf<ChatrailController['send']>().toEqualTypeOf<(text: string, options?: { metadata?: Record<string, unknown> }) => Promise<void>>()
    expectTypeOf(createChatController).returns.toEqualTypeOf<ChatrailController>()
    expectTypeOf(createChatController).parameter(1).toEqualTypeOf<{ ids?: () => string; clock?: () => Date; branches?: boolean } | undefined>()
    // versions of a place in history (issue #31 item 9)
    expectTypeOf<ChatrailController['branchesOf']>().toEqualTypeOf<(messageId: string) => { index: number; count: number }>()
    expectTypeOf<ChatrailController['switchBranch']>().toEqualTypeOf<(messageId: string, index: number) => boolean>()
  })

  it('pins memory, retrieval and skill shapes', () => {
    expectTypeOf<ChatMemory>().toEqualTypeOf<{
      region?: 'eu' | 'us' | 'apac'
      load: (options?: MemoryOperationOptions) => MaybePromise<Message[]>
      save: (messages: Message[], options?: MemoryOperationOptions) => MaybePromise<void>
      clear?: (options?: MemoryOperationOptions) => MaybePromise<void>
    }>()
    expectTypeOf<MemoryOperationOptions>().toEqualTypeOf<{ signal?: AbortSignal }>()
    expectTypeOf<RetrievedDocument>().toEqualTypeOf<{ id: string; content: string; source?: string; score?: number; metadata?: Record<string, unknown> }>()
    expectTypeOf<Retriever>().toEqualTypeOf<{ retrieve: (request: { query: string; messages: Message[] }) => MaybePromise<RetrievedDocument[]> }>()
    expectTypeOf<SkillDefinition>().toEqualTypeOf<{
      name: string
      description: string
      systemPrompt: string
      examples?: Array<{ input: string; output: string }>
      tools?: string[]
      delegates?: string[]
      temperature?: number
      metadata?: Record<string, unknown>
      onActivate?: () => MaybePromise<{ tools?: ToolDefinition[] }>
    }>()
  })

  it('pins tool definition and authorization shapes', () => {
    expectTypeOf<ToolDefinition>().toEqualTypeOf<{
      name: string
      description?: string
      schema?: JSONSchema7
      requiresConfirmation?: boolean
      execute?: (args: Record<string, unknown>, context: ToolExecutionContext) => MaybePromise<unknown> | AsyncIterable<unknown>
      init?: () => MaybePromise<void>
      dispose?: () => MaybePromise<void>
      tags?: string[]
      category?: string
    }>()
    expectTypeOf<ToolDefinition<{ n: number }>['execute']>().parameter(0).toEqualTypeOf<{ n: number }>()
    // AgentsKit's two fields plus chatrail's optional `idempotencyKey` (action confirmation) and `abortSignal` (the server's tool loop): an
    // AgentsKit tool, which reads only the two, runs unchanged
    expectTypeOf<ToolExecutionContext>().toEqualTypeOf<{ messages: Message[]; call: ToolCall; idempotencyKey?: string; abortSignal?: AbortSignal }>()
    expectTypeOf<ToolCallHandlerContext>().toEqualTypeOf<{ messages: Message[]; tool?: ToolDefinition }>()
    expectTypeOf<ToolAuthorizationContext>().toEqualTypeOf<{ messages: Message[]; tool?: ToolDefinition; phase: 'propose' | 'execute' }>()
    expectTypeOf<ToolAuthorizationDecision>().toEqualTypeOf<{ allowed: boolean; reason?: string }>()
    expectTypeOf<ToolAuthorizer>().toEqualTypeOf<(toolCall: ToolCall, context: ToolAuthorizationContext) => MaybePromise<ToolAuthorizationDecision>>()
    expectTypeOf<ArgsValidator>().toEqualTypeOf<(schema: JSONSchema7, args: Record<string, unknown>) => ArgsValidationResult>()
    expectTypeOf<ArgsValidationResult>().toEqualTypeOf<{ valid: boolean; errors?: Array<{ path: string; message: string }>; message?: string }>()
  })

  it('pins Observer and the 13 AgentEvent variants', () => {
    expectTypeOf<Observer>().toEqualTypeOf<{ name: string; on: (event: AgentEvent) => void | Promise<void> }>()
    expectTypeOf<AgentEvent['type']>().toEqualTypeOf<
      | 'llm:start' | 'llm:first-token' | 'llm:end' | 'tool:start' | 'tool:end' | 'memory:load' | 'memory:save'
      | 'agent:step' | 'agent:delegate:start' | 'agent:delegate:end' | 'progress' | 'run-aborted' | 'error'
    >()
    expectTypeOf<Extract<AgentEvent, { type: 'llm:end' }>>().toEqualTypeOf<{
      type: 'llm:end'
      content: string
      usage?: { promptTokens: number; completionTokens: number }
      durationMs: number
    }>()
    expectTypeOf<Extract<AgentEvent, { type: 'progress' }>['status']>().toEqualTypeOf<'start' | 'ok' | 'skip' | 'error'>()
    expectTypeOf<Extract<AgentEvent, { type: 'error' }>>().toEqualTypeOf<{ type: 'error'; error: Error }>()
  })
})
