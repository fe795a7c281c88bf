import type { Attributes, Span } from '@opentelemetry/api'
import type { TurnTrace } from '../../conversation/trace.js'
import type { ChatrailPartData } from '../../protocol/ui-parts.js'
import type { PartSink } from '../part-stream.js'
import type { WirePart } from '../tool-parts.js'
import { isNoopSpan, monotonicMs, type ActiveTelemetry } from './active-telemetry.js'
import {
  CONVERSATION_ID, ERROR_TYPE, GEN_AI_OPERATION_NAME, GEN_AI_TOOL_CALL_ID, GEN_AI_TOOL_NAME, ROUTE_ID, safeName, STATE_AFTER, STATE_BEFORE,
  TURN_EVENT, TURN_FINISH_REASON, TURN_ID, TURN_KIND, TURN_OUTCOME, TURN_PLAN, TURN_REASON, TURN_REPLAYED,
} from './attributes.js'
import type { RequestSpan } from './request-span.js'

/**
 * A turn's span (`chatrail.turn`, a child of its request's) and its tools' (`execute_tool <name>`,
 * children of the turn), read from the parts the turn writes to its client: the turn runs exactly
 * as without telemetry, and what the span says is what the client was told. The `data-chatrail`
 * part that comes with `finish` carries the session's trace (kind, route, states) and the state
 * the stored conversation is in; an `error` part carries a code (never a message); a turn whose
 * answer could not be stored ends without that part, so it has no `chatrail.state.after`.
 */
export interface TurnStart {
  readonly conversationId: string
  readonly turnId: string
  /** What the POST asked of the stored conversation. */
  readonly plan: 'new' | 'edit' | 'regenerate' | 'resume'
  /** The state before the turn (read only when the span records). */
  readonly stateBefore: () => string
  /** The session's trace of this turn, for a turn whose end carried none (its answer was not stored). */
  readonly trace: () => TurnTrace | undefined
}

export interface TurnSpan {
  /** The turn's sink, observed. */
  sink: (sink: PartSink) => PartSink
  /** Runs the turn in the turn's context, so the adapter's and the store's spans are its children. */
  run: <T>(turn: () => T) => T
  /** Ends the span if the turn's stream did not (idempotent): a turn that never closed its stream. */
  end: () => void
}

/** A turn when telemetry is off: changes nothing. */
export const UNTRACED_TURN: TurnSpan = { sink: (sink) => sink, run: (turn) => turn(), end: () => undefined }

export function startTurnSpan(telemetry: ActiveTelemetry, request: RequestSpan | undefined, start: TurnStart): TurnSpan {
  const { api, tracer, instruments } = telemetry
  const parent = request?.context ?? api.context.active()
  const span = tracer.startSpan('chatrail.turn', { attributes: { [CONVERSATION_ID]: start.conversationId, [TURN_ID]: start.turnId, [TURN_PLAN]: start.plan } }, parent)
  // the API's no-op tracer and meter (no SDK): nothing to record, so nothing is observed
  if (!telemetry.metered && isNoopSpan(telemetry, span)) return UNTRACED_TURN
  const recording = span.isRecording()
  if (recording) span.setAttribute(STATE_BEFORE, start.stateBefore())
  // a POST names its conversation in the body, which the request's span could not read
  if (request?.span.isRecording()) request.span.setAttribute(CONVERSATION_ID, start.conversationId)
  const context = api.trace.setSpan(parent, span)
  const releaseRequest = request?.hold()
  const began = monotonicMs()
  const tools = new Map<string, Span>()
  let trace: TurnTrace | undefined
  let stateAfter: string | undefined
  let finishReason: string | undefined
  let errorCode: string | undefined
  let ended = false

  const openTool = (toolCallId: string, toolName: string): void => {
    if (tools.has(toolCallId)) return
    const name = safeName(toolName)
    tools.set(toolCallId, tracer.startSpan(`execute_tool ${name}`, { attributes: { [GEN_AI_OPERATION_NAME]: 'execute_tool', [GEN_AI_TOOL_NAME]: name, [GEN_AI_TOOL_CALL_ID]: safeName(toolCallId) } }, context))
  }
  const closeTool = (toolCallId: string, failed: boolean): void => {
    const tool = tools.get(toolCallId)
    if (!tool) return
    tools.delete(toolCallId)
    // the error text is the tool's own output (a command's stderr, a file's content): only its kind is kept
    if (failed) endFailed(tool, 'tool_error')
    tool.end()
  }
  const endFailed = (target: Span, type: string): void => {
    target.setAttribute(ERROR_TYPE, type)
    target.setStatus({ code: api.SpanStatusCode.ERROR, message: type })
  }

  const observe = (parts: readonly WirePart[]): void => {
    let data: ChatrailPartData | undefined
    for (const part of parts) {
      switch (part.type) {
        case 'tool-input-available':
          openTool(part.toolCallId, part.toolName)
          break
        case 'tool-output-available':
          if (part.preliminary !== true) closeTool(part.toolCallId, false)
          break
        case 'tool-output-error':
          closeTool(part.toolCallId, true)
          break
        case 'data-chatrail':
          data = part.data
          break
        case 'error':
          errorCode = safeName(part.errorText, 'AGENT_ERROR')
          break
        case 'finish':
          finishReason = part.finishReason ?? 'stop'
          // the snapshot written with `finish` is the stored turn's (a dialog's mid-turn snapshot is not)
          if (data) {
            stateAfter = data.state
            trace = data.trace ?? trace
          }
          break
        default:
      }
    }
  }

  const end = (): void => {
    if (ended) return
    ended = true
    for (const id of [...tools.keys()]) closeTool(id, true)
    const seen = trace ?? start.trace()
    const failure = errorCode ?? (finishReason === undefined ? 'TURN_UNFINISHED' : undefined)
    const metric: Attributes = {}
    if (seen) {
      metric[TURN_KIND] = seen.kind
      metric[TURN_OUTCOME] = seen.outcome
    }
    if (failure !== undefined) metric[ERROR_TYPE] = failure
    if (recording) {
      span.setAttributes(metric)
      if (seen) describeTrace(span, seen)
      if (finishReason !== undefined) span.setAttribute(TURN_FINISH_REASON, finishReason)
      if (stateAfter !== undefined) span.setAttribute(STATE_AFTER, stateAfter)
      if (failure !== undefined) endFailed(span, failure)
    }
    if (telemetry.metered) {
      instruments.turns.add(1, metric)
      instruments.turnDuration.record((monotonicMs() - began) / 1000, seen ? { [TURN_KIND]: seen.kind } : {})
    }
    span.end()
    releaseRequest?.()
  }

  return {
    sink: (sink) => ({
      write(parts) {
        observe(parts)
        sink.write(parts)
      },
      close() {
        sink.close()
        end()
      },
      get disconnected() {
        return sink.disconnected
      },
    }),
    run: (turn) => api.context.with(context, turn),
    end,
  }
}

/** The session trace's decision metadata (never text: the trace holds none). */
function describeTrace(span: Span, trace: TurnTrace): void {
  span.setAttribute(TURN_REPLAYED, trace.replayed)
  if (trace.routeId !== undefined) span.setAttribute(ROUTE_ID, trace.routeId)
  if (trace.event !== undefined) span.setAttribute(TURN_EVENT, trace.event)
  if (trace.reason !== undefined) span.setAttribute(TURN_REASON, trace.reason)
  // the trace's own `fromState` is the state the decision started from (the stored one, re-derived)
  span.setAttribute(STATE_BEFORE, trace.fromState)
}
