import type { ChatConfig } from '../contract/chat.js'
import type { Message, ToolCall } from '../contract/message.js'
import type { AgentEvent } from '../contract/observer.js'
import type { ControllerKit } from './controller-kit.js'
import type { Clock, IdFactory } from './ids.js'
import type { SkillActivation } from './skill-activation.js'
import type { StateStore } from './state-store.js'
import type { ToolRuntime } from './tool-runtime.js'
import type { TurnTracker } from './turn-tracker.js'

/**
 * What the controller's steps share. Internal: built once by `createChatController` and passed
 * down to the turn runner, tool loop and confirmation flow, which hold no state of their own.
 */
export interface ControllerContext {
  store: StateStore
  /** The current history (`store.getState().messages`), read fresh on every call. */
  messages: () => Message[]
  turns: TurnTracker
  tools: ToolRuntime
  config: () => ChatConfig
  ids: IdFactory
  clock: Clock
  emit: (event: AgentEvent) => void
  /** The controller's helpers its lazily loaded steps call (controller-kit.ts says why they are handed in). */
  kit: ControllerKit
  /** The current skill activation (system prompt + skill tools); never rejects. */
  skills: () => Promise<SkillActivation>
  /**
   * Ids of tool calls the provider already ran (a `tool_call` chunk carrying `result` for a tool
   * chatrail cannot execute). They need no follow-up model call.
   */
  providerResolved: Set<string>
  /** `proposeToolCall` attempts still in flight, by call id: concurrent proposals of one id share one. */
  proposals: Map<string, Promise<ToolCall>>
  /**
   * The running turn's `done` record (chatrail's decision record), waiting to be merged into the
   * change that completes its assistant message: one state change a turn instead of two (issue 20:
   * the separate patch was a sixth of a deterministic turn). A stop merges it into its own change;
   * a turn that starts first (a new run, an approved tool) patches it on at once.
   */
  doneRecord: { assistantId: string; record: Record<string, unknown> } | undefined
}

/** Patches a pending `done` record onto its message at once (a turn superseded before it settled keeps its record). */
export function flushDoneRecord(ctx: ControllerContext): void {
  const pending = ctx.doneRecord
  if (pending) ctx.store.dispatch({ type: 'message-patched', id: pending.assistantId, patch: {}, metadata: takeDoneRecord(ctx, pending.assistantId) })
}

/** The pending `done` record of `assistantId` as message metadata (taken: it is merged once). */
export function takeDoneRecord(ctx: ControllerContext, assistantId: string): Record<string, unknown> | undefined {
  const pending = ctx.doneRecord
  if (pending?.assistantId !== assistantId) return undefined
  ctx.doneRecord = undefined
  return { chatrail: pending.record }
}
