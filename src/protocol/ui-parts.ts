import type { AgentSnapshot } from '../contract/agent-snapshot.js'
import type { ComponentPart } from '../contract/component-part.js'
import type { TurnTrace } from '../conversation/trace.js'
import type { VersionPositions } from './version-positions.js'

/**
 * The AI SDK UI message stream parts chatrail writes and reads (the subset of the AI SDK's
 * `UIMessageChunk` it needs), structurally identical to the AI SDK's own, so `useChat` reads a
 * chatrail server as is. Pinned against the real `ai` package in test/protocol/ai-sdk.test.ts.
 */

/** The response headers of a UI message stream (the AI SDK's `UI_MESSAGE_STREAM_HEADERS`). */
export const UI_MESSAGE_STREAM_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-vercel-ai-ui-message-stream': 'v1',
  'x-accel-buffering': 'no',
})

/** The `data` of a `data-chatrail` part: where the conversation stands after the turn. */
export interface ChatrailPartData {
  readonly state: string
  /** Events the state declares, in declaration order. */
  readonly events: readonly string[]
  readonly actions: readonly string[]
  /** The UI event that starts the conversation over, when the state allows a restart route (see the session snapshot's `restart`). */
  readonly restart?: string
  /** The turn's trace (decision metadata only, never text). */
  readonly trace?: TurnTrace
  /** The live agent's run state and pending dialog, when the adapter is a live agent. */
  readonly agent?: AgentSnapshot
  /** Where the stored conversation's versions stand (chatrail/server, after a turn's write or on GET); absent when none has versions. */
  readonly versions?: VersionPositions
}

export type FinishReason = 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other'

export type UiPart =
  | { readonly type: 'start'; readonly messageId?: string }
  | { readonly type: 'text-start'; readonly id: string }
  | { readonly type: 'text-delta'; readonly id: string; readonly delta: string }
  | { readonly type: 'text-end'; readonly id: string }
  | { readonly type: 'reasoning-start'; readonly id: string }
  | { readonly type: 'reasoning-delta'; readonly id: string; readonly delta: string }
  | { readonly type: 'reasoning-end'; readonly id: string }
  /** A source the answer cites (the controller's `sourceChunk`). */
  | { readonly type: 'source-url'; readonly sourceId: string; readonly url: string; readonly title?: string }
  | { readonly type: 'error'; readonly errorText: string }
  | { readonly type: 'data-chatrail'; readonly data: ChatrailPartData }
  /** A component (chatrail/components), in its place between the text parts; `id` is its instance id. */
  | { readonly type: 'data-component'; readonly id: string; readonly data: ComponentPart }
  | { readonly type: 'finish'; readonly finishReason?: FinishReason }

export type UiPartType = UiPart['type']
