import type { AdapterFactory } from '../contract/adapter.js'
import type { ChatConfig } from '../contract/chat.js'
import type { Message } from '../contract/message.js'
import type { StreamChunk } from '../contract/stream.js'
import type { JsonObject } from './json.js'
import type { Route } from './routes.js'
import type { TurnTrace } from './trace.js'

/**
 * A chat definition: an AgentsKit `ChatConfig` (its adapter is the agentic fallback) plus a finite
 * conversation machine and an ordered route table. Definitions are immutable and hold no progress;
 * progress lives in the sessions created from them (seed 004). This file holds the shapes only;
 * `defineChat` (define-chat.ts) validates them through definition-schema.ts, which reads these
 * shapes, so neither of the two imports the other's importer.
 */

export interface TransitionGuardContext<Ctx extends JsonObject = JsonObject> {
  readonly state: string
  readonly event: string
  readonly context: Readonly<Ctx>
}

export interface TransitionDefinition<Ctx extends JsonObject = JsonObject> {
  target: string
  /** Evaluated with the context before the turn's `assign`; `false` refuses the transition. */
  guard?(ctx: TransitionGuardContext<Ctx>): boolean
  description?: string
}

export interface StateDefinition<Ctx extends JsonObject = JsonObject> {
  /** event → target state (or `{ target, guard }`). Only declared events can fire here. */
  on?: Record<string, string | TransitionDefinition<Ctx>>
  /** Affordances the UI may offer in this state; projected into the snapshot, never executed. */
  actions?: string[]
  final?: boolean
  description?: string
}

/** What the fallback answer sees: the route context without a match, plus the failure's class. */
export interface FallbackContext<Ctx extends JsonObject = JsonObject> {
  readonly input: string
  readonly uiEvent: string | undefined
  readonly state: string
  readonly context: Readonly<Ctx>
  readonly history: readonly Message[]
  readonly sessionId: string
  readonly messageId: string | undefined
  readonly turnId: string
  /** Why the fallback answers: the adapter error's class name, or `MissingAdapter`. */
  readonly errorClass: string
}

export interface FallbackOutput {
  text?: string
  chunks?: StreamChunk[]
}

export type FallbackResponse<Ctx extends JsonObject = JsonObject> =
  | string
  | FallbackOutput
  | { fn(input: string, ctx: FallbackContext<Ctx>): string | FallbackOutput | Promise<string | FallbackOutput> }['fn']

/** The answer used when the agentic adapter is missing, throws or streams an error. */
export interface FallbackDefinition<Ctx extends JsonObject = JsonObject> {
  response: FallbackResponse<Ctx>
}

export type TraceObserver = (trace: TurnTrace) => void | Promise<void>

export interface ConversationDefinition<Ctx extends JsonObject = JsonObject> {
  initial: string
  states: Record<string, StateDefinition<Ctx>>
  /** The conversation's slots: a JSON object, patched by routes' `assign`. */
  context?: Ctx
  /** Evaluated in declaration order; the first eligible match wins. */
  routes: readonly Route<Ctx>[]
  fallback?: FallbackDefinition<Ctx>
  /** Let the agent propose a legal event through a `chatrail_transition` tool call. Off by default. */
  agentTransitions?: boolean
  /** Called for every turn of every session of this definition; failures are ignored. */
  onTrace?: TraceObserver
}

/** `ChatConfig` whose adapter may be absent (then `conversation.fallback` answers unmatched input). */
export type ChatConfigInput = Omit<ChatConfig, 'adapter'> & { adapter?: AdapterFactory }

export interface ChatDefinitionInput<Ctx extends JsonObject = JsonObject> {
  id: string
  /** Bump when routes or states change incompatibly. Default 1. */
  revision?: number
  chat: ChatConfigInput
  conversation: ConversationDefinition<Ctx>
}

export interface ChatDefinition<Ctx extends JsonObject = JsonObject> {
  readonly id: string
  readonly revision: number
  /** The same object you passed in. */
  readonly chat: ChatConfigInput
  readonly conversation: Readonly<ConversationDefinition<Ctx>> & { readonly context: Readonly<Ctx> }
}
