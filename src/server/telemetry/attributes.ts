import { ChatrailError } from '../../contract/errors.js'
import { errorClassOf } from '../../conversation/error-class.js'

/**
 * The attribute names chatrail's spans and metrics carry: OpenTelemetry's semantic conventions
 * where one exists (HTTP, `error.type`, the GenAI tool attributes), `chatrail.*` for the rest.
 * Every value is an id, a name the definition or the agent declared, a state, a count or a code:
 * never a message's text, a tool's input or output, or an error's message (which may quote any of
 * them: a provider's 400 echoes the prompt, a database error the value it refused).
 */
export const HTTP_REQUEST_METHOD = 'http.request.method'
export const HTTP_RESPONSE_STATUS_CODE = 'http.response.status_code'
export const HTTP_ROUTE = 'http.route'
export const URL_PATH = 'url.path'
export const URL_SCHEME = 'url.scheme'
export const ERROR_TYPE = 'error.type'

export const GEN_AI_OPERATION_NAME = 'gen_ai.operation.name'
export const GEN_AI_TOOL_NAME = 'gen_ai.tool.name'
export const GEN_AI_TOOL_CALL_ID = 'gen_ai.tool.call.id'
export const GEN_AI_USAGE_INPUT_TOKENS = 'gen_ai.usage.input_tokens'
export const GEN_AI_USAGE_OUTPUT_TOKENS = 'gen_ai.usage.output_tokens'

export const CONVERSATION_ID = 'chatrail.conversation.id'
/** The HTTP error code a response carried (`conversation_busy`, `not_found`), 4xx included. */
export const ERROR_CODE = 'chatrail.error.code'
export const TURN_ID = 'chatrail.turn.id'
/** `deterministic`, `agentic`, `repaired` or `fallback` (the session trace's kind). */
export const TURN_KIND = 'chatrail.turn.kind'
/** The session trace's outcome: `ok`, `error`, `aborted`, `refused`, `unavailable`, `timeout`. */
export const TURN_OUTCOME = 'chatrail.turn.outcome'
/** How the turn's stream ended: `stop`, `length` (stored cut to fit) or `error`. */
export const TURN_FINISH_REASON = 'chatrail.turn.finish_reason'
/** What the POST asked of the stored conversation: `new`, `edit` or `regenerate`. */
export const TURN_PLAN = 'chatrail.turn.plan'
export const TURN_REPLAYED = 'chatrail.turn.replayed'
export const TURN_EVENT = 'chatrail.turn.event'
/** The session trace's fixed phrase for a repair or a failure (never user text). */
export const TURN_REASON = 'chatrail.turn.reason'
export const ROUTE_ID = 'chatrail.route.id'
export const STATE_BEFORE = 'chatrail.state.before'
/** The state the stored conversation is in after the turn (absent when the turn could not be stored). */
export const STATE_AFTER = 'chatrail.state.after'
export const STORE_OPERATION = 'chatrail.store.operation'
export const STORE_KIND = 'chatrail.store.kind'
/** A store result's `status` (`claimed`/`busy`, `appended`/`duplicate`, …). */
export const STORE_RESULT = 'chatrail.store.result'
export const ADAPTER_MESSAGES = 'chatrail.adapter.messages'
export const ADAPTER_CHUNKS = 'chatrail.adapter.chunks'
export const ADAPTER_ABORTED = 'chatrail.adapter.aborted'

/** A code, id or name as an attribute value: letters, digits and `_ . : / -`; anything else is not put in a span. */
const SAFE_NAME = /^[\w.:/-]{1,128}$/

/** A declared name (a tool's, a code) fit for an attribute, or `fallback` when it looks like free text. */
export function safeName(value: unknown, fallback = 'unknown'): string {
  return typeof value === 'string' && SAFE_NAME.test(value) ? value : fallback
}

/**
 * What a thrown value is, for `error.type` and a span's status: a chatrail error's code, else the
 * error's class name. Never its message.
 */
export function errorTypeOf(error: unknown): string {
  if (ChatrailError.isInstance(error)) return safeName(error.code, errorClassOf(error))
  return errorClassOf(error)
}
