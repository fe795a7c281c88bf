import type { JSONSchema7 } from 'json-schema'
import type { MaybePromise, Message, ToolCall } from './message.js'

/** Tool shapes, structurally identical to AgentsKit's `types/tool.ts`. */

export type { JSONSchema7 }

export interface ToolExecutionContext {
  messages: Message[]
  call: ToolCall
  /**
   * Set when a confirmed action runs (chatrail's action confirmation): the same key on every
   * attempt, also a reconcile after a crash, so a tool that dedupes by it has its effect once.
   */
  idempotencyKey?: string
  /**
   * chatrail addition, set when the chat server runs the tool (docs/server.md § Tools): fires when
   * the call times out or the turn is stopped, so a tool can end its work early.
   */
  abortSignal?: AbortSignal
}

export interface ToolDefinition<TArgs = Record<string, unknown>> {
  name: string
  description?: string
  schema?: JSONSchema7
  requiresConfirmation?: boolean
  execute?: (args: TArgs, context: ToolExecutionContext) => MaybePromise<unknown> | AsyncIterable<unknown>
  init?: () => MaybePromise<void>
  dispose?: () => MaybePromise<void>
  tags?: string[]
  category?: string
}

export interface ToolCallHandlerContext { messages: Message[]; tool?: ToolDefinition }
export type ToolAuthorizationPhase = 'propose' | 'execute'
export interface ToolAuthorizationContext extends ToolCallHandlerContext { phase: ToolAuthorizationPhase }
export interface ToolAuthorizationDecision { allowed: boolean; reason?: string }
export type ToolAuthorizer = (
  toolCall: ToolCall,
  context: ToolAuthorizationContext,
) => MaybePromise<ToolAuthorizationDecision>
export interface ArgsValidationError { path: string; message: string }
export interface ArgsValidationResult { valid: boolean; errors?: ArgsValidationError[]; message?: string }
export type ArgsValidator = (schema: JSONSchema7, args: Record<string, unknown>) => ArgsValidationResult
