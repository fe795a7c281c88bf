import { inEnglish } from '../contract/english-issues.js'
import { isIdentifier } from '../conversation/identifier.js'
import { interactionUiEvent, type Interaction } from '../conversation/interactions.js'
import { chatRequestSchema, type ChatRequest } from '../protocol/chat-request.js'
import { badRequest } from './http-responses.js'

/**
 * What the server takes from a POSTed chat request: the conversation id, the trigger, and the
 * new user message (its id, its text, and a UI event if it carries one). Everything else the
 * client sent (its history, assistant messages, decision records) is ignored: the store owns history.
 */
export interface TurnRequest {
  readonly conversationId: string
  readonly trigger: ChatRequest['trigger']
  readonly user: {
    readonly id: string
    readonly text: string
    readonly uiEvent?: string
    readonly interaction?: Interaction
    /**
     * The user message the interaction's answer answered, in the client's history: a page knows an
     * answer by its controller's own id, the store by the server's, and user message ids are the
     * ones both share (plan-turn.ts finds the stored answer by it).
     */
    readonly interactionAnswerTo?: string
  }
}

const ID_RULE = 'letters, digits and . _ : - (starting with a letter or digit, at most 128 characters)'

const TRIGGERS: ReadonlySet<unknown> = new Set(['submit-message', 'regenerate-message'])
const ROLES: ReadonlySet<unknown> = new Set(['system', 'user', 'assistant'])
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * True when `body` certainly satisfies `chatRequestSchema` (whose objects are loose: extra keys are
 * kept, so the body itself is the parsed value). The common case skips the zod parse, which
 * rebuilds every message of the client's history; anything else goes through the schema, which
 * also words the error.
 */
export function isPlainChatRequest(body: unknown): body is ChatRequest {
  if (!isObject(body) || typeof body.id !== 'string' || !TRIGGERS.has(body.trigger) || !Array.isArray(body.messages)) return false
  if (body.messageId !== undefined && typeof body.messageId !== 'string') return false
  for (const message of body.messages as unknown[]) {
    if (!isObject(message) || typeof message.id !== 'string' || !ROLES.has(message.role) || !Array.isArray(message.parts)) return false
    for (const part of message.parts as unknown[]) if (!isObject(part) || typeof part.type !== 'string') return false
  }
  return true
}

export function readTurnRequest(body: unknown): TurnRequest {
  let request: ChatRequest
  if (isPlainChatRequest(body)) request = body
  else {
    const parsed = chatRequestSchema.safeParse(body, inEnglish)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      const path = issue?.path.map(String).join('.') || '(root)'
      throw badRequest(path, `${issue?.message ?? 'Invalid chat request'} at ${path}. Send useChat's request body: { id, messages, trigger, messageId? }.`)
    }
    request = parsed.data
  }
  if (!isIdentifier(request.id)) throw badRequest('id', `The conversation id must be ${ID_RULE}.`)
  const index = request.messages.length - 1
  const last = request.messages[index]
  if (!last || last.role !== 'user') {
    throw badRequest(index < 0 ? 'messages' : `messages.${index}.role`, 'The last message must be the user message this turn answers.')
  }
  if (!isIdentifier(last.id)) throw badRequest(`messages.${index}.id`, `A message id must be ${ID_RULE}.`)
  const text = last.parts
    .filter((part): part is { type: 'text'; text: string } => part.type === 'text' && typeof (part as { text?: unknown }).text === 'string')
    .map((part) => part.text)
    .join('')
  const interaction = interactionOfMetadata(last.metadata, `messages.${index}.metadata.chatrail.interaction`)
  // an interaction's UI event follows from the interaction itself, not from what the client paired with it
  const uiEvent = interaction ? interactionUiEvent(interaction.event, interaction.value) : uiEventOfMetadata(last.metadata)
  if (uiEvent === null) throw badRequest(`messages.${index}.metadata.chatrail.event`, `A UI event name must be ${ID_RULE}.`)
  if (text.trim() === '' && uiEvent === undefined) throw badRequest(`messages.${index}.parts`, 'The user message has no text part.')
  const answerTo = interaction && answeredUserOf(request.messages, interaction.messageId)
  return {
    conversationId: request.id,
    trigger: request.trigger,
    user: { id: last.id, text, ...(uiEvent === undefined ? {} : { uiEvent }), ...(interaction ? { interaction } : {}), ...(answerTo ? { interactionAnswerTo: answerTo } : {}) },
  }
}

/** The id of the user message before the assistant message `answerId` in the client's history, if any. */
function answeredUserOf(messages: ChatRequest['messages'], answerId: string): string | undefined {
  const at = messages.findIndex((message) => message.id === answerId && message.role === 'assistant')
  for (let index = at - 1; index >= 0; index -= 1) {
    const message = messages[index]
    if (message?.role === 'user') return isIdentifier(message.id) ? message.id : undefined
  }
  return undefined
}

const COMPONENT_KEY = /^[a-z][a-z0-9-]{0,63}$/
const MAX_VALUE_BYTES = 16_384

/**
 * A component interaction a client's user message carries (`metadata.chatrail.interaction`), its
 * fields checked and its value copied as bounded JSON; whether it names a component the stored
 * history holds, and one its registry allows, is the session's to judge.
 */
function interactionOfMetadata(metadata: unknown, path: string): Interaction | undefined {
  const candidate = (metadata as { chatrail?: { interaction?: unknown } } | null | undefined)?.chatrail?.interaction
  if (candidate === undefined) return undefined
  if (!isObject(candidate)) throw badRequest(path, 'An interaction must be { messageId, instanceId, componentKey, event, value? }.')
  const { messageId, instanceId, componentKey, event, value } = candidate
  if (!isIdentifier(messageId) || !isIdentifier(instanceId) || !isIdentifier(event)) throw badRequest(path, `An interaction's messageId, instanceId and event must be ${ID_RULE}.`)
  if (typeof componentKey !== 'string' || !COMPONENT_KEY.test(componentKey)) throw badRequest(`${path}.componentKey`, 'A component key is lowercase letters, digits and dashes, starting with a letter.')
  let copy: unknown
  if (value !== undefined) {
    const json = JSON.stringify(value)
    if (json === undefined || new TextEncoder().encode(json).byteLength > MAX_VALUE_BYTES) throw badRequest(`${path}.value`, `An interaction's value must be JSON of at most ${MAX_VALUE_BYTES} bytes.`)
    copy = JSON.parse(json) as unknown
  }
  return { messageId, instanceId, componentKey, event, ...(copy === undefined ? {} : { value: copy }) }
}

/** The UI event a client's user message carries (`metadata.chatrail.event`); null when it is not a safe name. */
function uiEventOfMetadata(metadata: unknown): string | undefined | null {
  if (typeof metadata !== 'object' || metadata === null) return undefined
  const chatrail = (metadata as { chatrail?: unknown }).chatrail
  if (typeof chatrail !== 'object' || chatrail === null) return undefined
  const event = (chatrail as { event?: unknown }).event
  if (event === undefined) return undefined
  return isIdentifier(event) ? event : null
}
