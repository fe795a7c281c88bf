import type { UiPart } from '../protocol/ui-parts.js'

/**
 * What a turn's stream carries beyond chatrail's codec (src/protocol): tool calls as the AI SDK's
 * tool parts, so `useChat` shows a `tool-<name>` part with its input and output (tool-ledger.ts
 * builds them from an agent's `tool_call` / `tool_result` chunks), and a failed answer's message
 * metadata, written before its `error` part (`useChat` stops reading at `error`).
 */
export type ToolPart =
  | { readonly type: 'tool-input-available'; readonly toolCallId: string; readonly toolName: string; readonly input: unknown }
  | { readonly type: 'tool-output-available'; readonly toolCallId: string; readonly output: unknown; readonly preliminary?: true }
  | { readonly type: 'tool-output-error'; readonly toolCallId: string; readonly errorText: string }
  /** The server's tool loop paused on a tool that needs the user's approval (tool-approval.ts). */
  | { readonly type: 'tool-approval-request'; readonly approvalId: string; readonly toolCallId: string }
  | { readonly type: 'tool-output-denied'; readonly toolCallId: string }

/** The AI SDK's `message-metadata` part: merged into the message's `metadata` by `useChat`. */
export interface MessageMetadataPart {
  readonly type: 'message-metadata'
  readonly messageMetadata: Readonly<Record<string, unknown>>
}

/** Every part a turn's stream carries. */
export type WirePart = UiPart | ToolPart | MessageMetadataPart
