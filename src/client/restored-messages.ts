import { AnswerParts } from '../contract/answer-parts.js'
import { isComponentPart } from '../contract/component-chunk.js'
import { asMessageSource, MAX_SOURCES, type MessageSource } from '../contract/message-source.js'
import type { Message, ToolCall } from '../contract/message.js'
import { HttpAdapterError } from './http-adapter-error.js'

/**
 * A conversation restored from chatrail/server (`GET <api>?id=`, whose `messages` are `UIMessage`s)
 * as controller messages (`createChatController`'s `setMessages`), so a reloaded page shows what a
 * live one did: the text; its components (as `parts`); a user message's UI event and component
 * interaction (`metadata.chatrail`); the tool calls an answer made as its `toolCalls`, settled (`complete` with
 * the output as `result`, or `error`); and a failed answer as failed (`status: 'error'`,
 * `metadata.error.code`); an answer's reasoning and cited sources (`reasoning` and `source-url` parts)
 * as the controller keeps them on a live reply (`metadata.reasoning`, `metadata.sources`). Pure. A message of any other shape is read for what it has: its text.
 */
export interface RestoredUiMessage {
  readonly id: string
  readonly role: 'system' | 'user' | 'assistant'
  readonly parts: ReadonlyArray<{ readonly type: string; readonly text?: unknown; readonly toolCallId?: unknown; readonly state?: unknown; readonly input?: unknown; readonly output?: unknown; readonly errorText?: unknown; readonly data?: unknown; readonly url?: unknown; readonly title?: unknown }>
  readonly metadata?: { readonly chatrail?: { readonly status?: unknown; readonly error?: { readonly code?: unknown }; readonly event?: unknown; readonly interaction?: unknown } }
}

export function restoredMessages(stored: readonly RestoredUiMessage[], createdAt: Date): Message[] {
  return stored.map(({ id, role, parts, metadata }) => {
    const failure = role === 'assistant' && metadata?.chatrail?.status === 'error' ? String(metadata.chatrail.error?.code ?? 'AGENT_ERROR') : undefined
    const toolCalls = parts.flatMap((part): ToolCall[] => {
      if (!part.type.startsWith('tool-') || typeof part.toolCallId !== 'string') return []
      const { input, state } = part
      const args = (typeof input === 'object' && input !== null && !Array.isArray(input) ? input : {}) as Record<string, unknown>
      // a call the server's tool loop paused on awaits the user's approval; a denied one did not run
      const settled = state === 'approval-requested' || state === 'approval-responded' ? { status: 'requires_confirmation' as const }
        : state === 'output-denied' ? { status: 'error' as const, error: 'Denied by the user.' }
        : state === 'output-error' ? { status: 'error' as const, error: String(part.errorText) } : { status: 'complete' as const, result: typeof part.output === 'string' ? part.output : (JSON.stringify(part.output) ?? '') }
      return [{ id: part.toolCallId, name: part.type.slice(5), args, ...settled }]
    })
    // text and components in order, by the rule a live answer follows (src/contract/answer-parts.ts)
    const answer = new AnswerParts()
    for (const part of parts) {
      if (part.type === 'text' && typeof part.text === 'string') answer.text(part.text)
      else if (part.type === 'data-component' && role === 'assistant' && isComponentPart(part.data)) answer.component(part.data)
    }
    const extras = role === 'assistant' ? answerExtras(parts) : {}
    const answerMetadata = { ...(failure === undefined ? {} : { error: { code: failure } }), ...extras }
    return {
      id,
      role,
      content: answer.content,
      ...(answer.parts ? { parts: answer.parts } : {}),
      status: failure === undefined ? 'complete' : 'error',
      createdAt,
      ...(toolCalls.length > 0 ? { toolCalls } : {}),
      ...(Object.keys(answerMetadata).length > 0 ? { metadata: answerMetadata } : {}),
      ...(role === 'user' ? userMetadata(metadata?.chatrail) : {}),
    }
  })
}

/** An answer's reasoning and its well-formed sources (untrusted: a server's response; `sourcesOf` keeps the first of each url). */
function answerExtras(parts: RestoredUiMessage['parts']): { reasoning?: string; sources?: MessageSource[] } {
  let reasoning = ''
  const sources: MessageSource[] = []
  for (const part of parts) {
    if (part.type === 'reasoning' && typeof part.text === 'string') reasoning += part.text
    if (part.type !== 'source-url' || sources.length >= MAX_SOURCES) continue
    const source = asMessageSource({ url: part.url, ...(part.title === undefined ? {} : { title: part.title }) })
    if (source) sources.push(source)
  }
  return { ...(reasoning === '' ? {} : { reasoning }), ...(sources.length === 0 ? {} : { sources }) }
}

/** A user message's UI event and interaction, as the live message carried them (renderers read them). */
function userMetadata(chatrail: { readonly event?: unknown; readonly interaction?: unknown } | undefined): { metadata?: Record<string, unknown> } {
  if (typeof chatrail?.event !== 'string') return {}
  return { metadata: { chatrail: { event: chatrail.event, ...(chatrail.interaction === undefined ? {} : { interaction: chatrail.interaction }) } } }
}

const failures = new WeakMap<Message, HttpAdapterError>()

/**
 * The failure a restored failed answer stands for (`message` is one `restoredMessages` made with
 * `status: 'error'`), as a live failed turn gives it (`HttpAdapterError` with the server's code):
 * the same object for the same message, so a UI can remember it was dismissed. Undefined for any
 * other message.
 */
export function restoredFailure(message: Message | undefined): HttpAdapterError | undefined {
  const code = (message?.metadata?.error as { code?: unknown } | undefined)?.code
  if (message?.role !== 'assistant' || message.status !== 'error' || typeof code !== 'string') return undefined
  let error = failures.get(message)
  if (error === undefined) failures.set(message, (error = new HttpAdapterError({ code, message: code })))
  return error
}
