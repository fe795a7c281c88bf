import { componentChunk } from '../contract/component-chunk.js'
import type { ComponentPart } from '../contract/component-part.js'
import type { Message } from '../contract/message.js'
import { sourcesOf } from '../contract/message-source.js'
import { storedToolsOf, type StoredTool } from './tool-ledger.js'

/** The approval of a restored tool call, as `useChat` holds it (`approved` once the user answered). */
export interface UiToolApproval {
  readonly id: string
  readonly approved?: boolean
  readonly reason?: string
}

/**
 * A tool call of a restored answer, as `useChat` holds one (`tool-<name>`): settled, or awaiting
 * the user's approval (`approval-requested`; `approval-responded` once answered, its run pending).
 */
export type UiToolPart =
  | { readonly type: `tool-${string}`; readonly toolCallId: string; readonly state: 'output-available'; readonly input: unknown; readonly output: unknown; readonly approval?: UiToolApproval }
  | { readonly type: `tool-${string}`; readonly toolCallId: string; readonly state: 'output-error'; readonly input: unknown; readonly errorText: string; readonly approval?: UiToolApproval }
  | { readonly type: `tool-${string}`; readonly toolCallId: string; readonly state: 'approval-requested' | 'approval-responded' | 'output-denied'; readonly input: unknown; readonly approval: UiToolApproval }

/** A component of a restored answer, as `useChat` holds a data part (`data-component`, keyed by instance id). */
export type UiComponentPart = { readonly type: 'data-component'; readonly id: string; readonly data: ComponentPart }

/** A restored answer's reasoning ("Thinking") and a source it cites, as `useChat` holds them. */
export type UiReasoningPart = { readonly type: 'reasoning'; readonly text: string; readonly state: 'done' }
export type UiSourcePart = { readonly type: 'source-url'; readonly sourceId: string; readonly url: string; readonly title?: string }

export type UiMessagePart = { readonly type: 'text'; readonly text: string } | UiToolPart | UiComponentPart | UiReasoningPart | UiSourcePart

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
    /** A user message's UI event, and the component interaction it carries. */
    readonly event?: string
    readonly interaction?: unknown
  }
}

/** A stored message as the AI SDK's `UIMessage` (what `useChat` holds), for GET. */
export interface UiMessage {
  readonly id: string
  readonly role: 'system' | 'user' | 'assistant'
  readonly parts: readonly UiMessagePart[]
  readonly metadata?: ChatrailMessageMetadata
}

/** A piece of an answer in the order it streamed: a run of text, a tool call, or a component. */
export type AnswerSegment =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'tool'; readonly tool: StoredTool }
  | { readonly kind: 'component'; readonly part: ComponentPart }

/** Where in `content` each component's text (`\n<summary>\n`) stands: its parts walked in order. */
function componentSpans(message: Message): { at: number; end: number; part: ComponentPart }[] {
  const spans: { at: number; end: number; part: ComponentPart }[] = []
  let offset = 0
  for (const part of message.parts ?? []) {
    if (part.type === 'text') offset += part.text.length
    else if (part.type === 'component') {
      const length = (componentChunk(part).content as string).length
      // parts that no longer match the text (edited by hand, cut) are left out rather than misplaced
      if (message.content.slice(offset, offset + length) === componentChunk(part).content) spans.push({ at: offset, end: offset + length, part })
      offset += length
    }
  }
  return spans
}

/**
 * An answer's text, tool calls and components in the order they streamed (pure): the text is cut
 * at each call's `at` and around each component's own text. A call whose place is past the text
 * (the text was cut to fit the store) goes last.
 */
export function answerSegments(message: Message): AnswerSegment[] {
  const tools = storedToolsOf(message.metadata)
  const spans = message.parts?.some((part) => part.type === 'component') ? componentSpans(message) : []
  const text = message.content
  if (tools.length === 0 && spans.length === 0) return text === '' ? [] : [{ kind: 'text', text }]
  const marks = [
    ...tools.map((tool) => ({ at: tool.at, end: undefined, segment: { kind: 'tool', tool } as AnswerSegment })),
    ...spans.map((span) => ({ at: span.at, end: span.end, segment: { kind: 'component', part: span.part } as AnswerSegment })),
  ].sort((a, b) => a.at - b.at)
  const segments: AnswerSegment[] = []
  let from = 0
  for (const mark of marks) {
    const at = Math.min(Math.max(mark.at, from), text.length)
    if (at > from) segments.push({ kind: 'text', text: text.slice(from, at) })
    segments.push(mark.segment)
    from = mark.end === undefined ? at : Math.max(from, mark.end)
  }
  if (from < text.length) segments.push({ kind: 'text', text: text.slice(from) })
  return segments
}

/** The UI part of a stored tool call. */
export function uiToolPart(tool: StoredTool): UiToolPart {
  const type = `tool-${tool.toolName}` as const
  const approval = tool.approval && { id: tool.approval.id, ...(tool.approval.approved === undefined ? {} : { approved: tool.approval.approved }), ...(tool.approval.reason === undefined ? {} : { reason: tool.approval.reason }) }
  if (tool.state === 'approval-requested' || tool.state === 'output-denied') {
    const state = tool.state === 'output-denied' ? 'output-denied' : approval?.approved === undefined ? 'approval-requested' : 'approval-responded'
    return { type, toolCallId: tool.toolCallId, state, input: tool.input, approval: approval ?? { id: '' } }
  }
  return tool.state === 'output-error'
    ? { type, toolCallId: tool.toolCallId, state: 'output-error', input: tool.input, errorText: tool.errorText ?? '', ...(approval ? { approval } : {}) }
    : { type, toolCallId: tool.toolCallId, state: 'output-available', input: tool.input, output: tool.output, ...(approval ? { approval } : {}) }
}

/**
 * A user message's UI event and component interaction (`metadata.chatrail`), so a reloaded page
 * knows which buttons were pressed and which components were answered; nothing else of its metadata.
 */
function userMetadataOf(message: Message): ChatrailMessageMetadata | undefined {
  const chatrail = (message.metadata as { chatrail?: { event?: unknown; interaction?: unknown } } | undefined)?.chatrail
  if (typeof chatrail?.event !== 'string') return undefined
  return { chatrail: { event: chatrail.event, ...(chatrail.interaction === undefined ? {} : { interaction: chatrail.interaction }) } }
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

function uiPartOf(segment: AnswerSegment): UiMessagePart {
  if (segment.kind === 'text') return { type: 'text', text: segment.text }
  if (segment.kind === 'tool') return uiToolPart(segment.tool)
  return { type: 'data-component', id: segment.part.instanceId, data: segment.part }
}

/**
 * A stored answer's reasoning (before its text, where it streams) and its sources (after it), as
 * the controller keeps them on a live reply (`metadata.reasoning`, `metadata.sources`).
 */
export function answerExtraParts(message: Message): { before: UiReasoningPart[]; after: UiSourcePart[] } {
  const reasoning = message.metadata?.reasoning
  return {
    before: typeof reasoning === 'string' && reasoning !== '' ? [{ type: 'reasoning', text: reasoning, state: 'done' }] : [],
    after: sourcesOf(message).map((source, index) => ({ type: 'source-url', sourceId: `${message.id}:source${index}`, url: source.url, ...(source.title === undefined ? {} : { title: source.title }) })),
  }
}

/**
 * Stored history → UI messages. Decision records stay on the server (a client's are ignored
 * anyway); a failed or cut answer says so in `metadata.chatrail`; an answer's tool calls come back
 * as settled tool parts where they streamed, its reasoning and sources as `reasoning` and
 * `source-url` parts; tool messages have no UI message of their own. Only the visible branch: the
 * older versions a message heads (`metadata.versions`, message-versions.ts) are never sent.
 */
export function toUiMessages(messages: readonly Message[]): UiMessage[] {
  const result: UiMessage[] = []
  for (const message of messages) {
    if (message.role === 'tool') continue
    let parts: UiMessagePart[]
    if (message.role === 'assistant') {
      const extras = answerExtraParts(message)
      parts = [...extras.before, ...answerSegments(message).map(uiPartOf), ...extras.after]
    } else parts = message.content === '' ? [] : [{ type: 'text', text: message.content }]
    const metadata = message.role === 'user' ? userMetadataOf(message) : chatrailMetadataOf(message)
    result.push({ id: message.id, role: message.role, parts, ...(metadata === undefined ? {} : { metadata }) })
  }
  return result
}
