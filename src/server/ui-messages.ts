import type { Message } from '../contract/message.js'
import { storedToolsOf, type StoredTool } from './tool-ledger.js'

/** A tool call of a restored answer, as `useChat` holds one (`tool-<name>`, settled). */
export type UiToolPart =
  | { readonly type: `tool-${string}`; readonly toolCallId: string; readonly state: 'output-available'; readonly input: unknown; readonly output: unknown }
  | { readonly type: `tool-${string}`; readonly toolCallId: string; readonly state: 'output-error'; readonly input: unknown; readonly errorText: string }

export type UiMessagePart = { readonly type: 'text'; readonly text: string } | UiToolPart

/**
 * What a message's `metadata.chatrail` says about an answer that did not end normally (absent on
 * one that did): `status: 'error'` and the error's code for a failed turn (a submit of the same
 * user message runs it again: offer Retry), `truncated` for one stored cut to fit the store. The
 * live stream writes the same (a `message-metadata` part before its `error`), so a failed answer
 * reads the same live and after a reload.
 */
export interface ChatrailMessageMetadata {
  readonly chatrail?: {
    readonly status?: 'error'
    readonly error?: { readonly code: string }
    readonly truncated?: { readonly code: string; readonly bytes: number; readonly maxBytes: number }
  }
}

/** A stored message as the AI SDK's `UIMessage` (what `useChat` holds), for GET. */
export interface UiMessage {
  readonly id: string
  readonly role: 'system' | 'user' | 'assistant'
  readonly parts: readonly UiMessagePart[]
  readonly metadata?: ChatrailMessageMetadata
}

/** A piece of an answer in the order it streamed: a run of text, or a tool call. */
export type AnswerSegment = { readonly kind: 'text'; readonly text: string } | { readonly kind: 'tool'; readonly tool: StoredTool }

/**
 * An answer's text and tool calls in the order they streamed (pure): the text is cut at each
 * call's `at`. A call whose place is past the text (the text was cut to fit the store) goes last.
 */
export function answerSegments(message: Message): AnswerSegment[] {
  const tools = storedToolsOf(message.metadata)
  const text = message.content
  if (tools.length === 0) return text === '' ? [] : [{ kind: 'text', text }]
  const segments: AnswerSegment[] = []
  let from = 0
  for (const tool of [...tools].sort((a, b) => a.at - b.at)) {
    const at = Math.min(Math.max(tool.at, from), text.length)
    if (at > from) segments.push({ kind: 'text', text: text.slice(from, at) })
    segments.push({ kind: 'tool', tool })
    from = at
  }
  if (from < text.length) segments.push({ kind: 'text', text: text.slice(from) })
  return segments
}

/** The UI part of a stored tool call. */
export function uiToolPart(tool: StoredTool): UiToolPart {
  const type = `tool-${tool.toolName}` as const
  return tool.state === 'output-error'
    ? { type, toolCallId: tool.toolCallId, state: 'output-error', input: tool.input, errorText: tool.errorText ?? '' }
    : { type, toolCallId: tool.toolCallId, state: 'output-available', input: tool.input, output: tool.output }
}

/** `metadata.chatrail` for a stored answer that failed or was cut; undefined for any other message. */
export function chatrailMetadataOf(message: Message): ChatrailMessageMetadata | undefined {
  if (message.role !== 'assistant') return undefined
  const error = message.metadata?.error as { code?: unknown } | undefined
  const truncated = message.metadata?.truncated as { code?: unknown; bytes?: unknown; maxBytes?: unknown } | undefined
  const failed = message.status === 'error'
  const cut = typeof truncated?.code === 'string' && typeof truncated.bytes === 'number' && typeof truncated.maxBytes === 'number'
  if (!failed && !cut) return undefined
  return {
    chatrail: {
      ...(failed ? { status: 'error' as const, error: { code: typeof error?.code === 'string' ? error.code : 'AGENT_ERROR' } } : {}),
      ...(cut ? { truncated: { code: truncated.code as string, bytes: truncated.bytes as number, maxBytes: truncated.maxBytes as number } } : {}),
    },
  }
}

/**
 * Stored history → UI messages. Decision records stay on the server (a client's are ignored
 * anyway); a failed or cut answer says so in `metadata.chatrail`; an answer's tool calls come back
 * as settled tool parts where they streamed; tool messages have no UI message of their own.
 */
export function toUiMessages(messages: readonly Message[]): UiMessage[] {
  const result: UiMessage[] = []
  for (const message of messages) {
    if (message.role === 'tool') continue
    const parts: UiMessagePart[] = message.role === 'assistant'
      ? answerSegments(message).map((segment) => (segment.kind === 'text' ? { type: 'text', text: segment.text } : uiToolPart(segment.tool)))
      : message.content === '' ? [] : [{ type: 'text', text: message.content }]
    const metadata = chatrailMetadataOf(message)
    result.push({ id: message.id, role: message.role, parts, ...(metadata === undefined ? {} : { metadata }) })
  }
  return result
}
