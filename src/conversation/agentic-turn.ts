import type { AdapterRequest } from '../contract/adapter.js'
import type { StreamChunk, StreamSource } from '../contract/stream.js'
import { TRANSITION_TOOL, judgeProposal, legalEvents, withTransitionContext } from './agent-transitions.js'
import { turnContext } from './decide.js'
import { doneWithRecord, fingerprint, type DecisionRecord } from './decision-record.js'
import { inputKeyOf, type Decision, type LastUserMessage } from './decisions.js'
import type { FallbackContext } from './definition.js'
import type { JsonObject } from './json.js'
import type { MachineState } from './machine.js'
import { normalizeOutput } from './route-output.js'
import { AGENT_FAILED_MESSAGE, DONE, asError, errorChunk } from './stream.js'
import { errorClassOf } from './trace.js'
import { turnSignal, type SessionCore, type TurnControl } from './session-core.js'
import type { TurnOutcome } from './turn-recorder.js'

/**
 * The agentic side of a turn: forward the request (the identical object unless agent transitions
 * are on) to the adapter and pass its chunks through; judge `chatrail_transition` proposals;
 * replace a failure (missing adapter, a throw, an `error` chunk) by `conversation.fallback` when
 * there is one. Failures are recorded by class, never by text.
 */

const ABORTED: TurnOutcome = { kind: 'agentic', outcome: 'aborted' }

export async function* agenticTurn<Ctx extends JsonObject>(
  core: SessionCore<Ctx>,
  request: AdapterRequest,
  control: TurnControl,
  last: LastUserMessage | undefined,
  before: MachineState<Ctx>,
  turnId: string,
  /** Records the outcome; called before the terminal chunk, since a consumer may stop pulling at it. */
  recorder: { settle: (outcome: TurnOutcome) => void },
): AsyncGenerator<StreamChunk, TurnOutcome> {
  const conversation = core.definition.conversation
  const transitions = conversation.agentTransitions === true && last !== undefined
  const forwarded = transitions ? withTransitionContext(request, before.state, legalEvents(core.machine, before)) : request
  const adapter = core.adapter()

  async function* terminal(chunk: StreamChunk, outcome: TurnOutcome): AsyncGenerator<StreamChunk, TurnOutcome> {
    recorder.settle(outcome)
    yield chunk
    return outcome
  }

  async function* fallback(errorClass: string, cause: unknown): AsyncGenerator<StreamChunk, TurnOutcome> {
    const response = conversation.fallback?.response
    if (response === undefined) {
      return yield* terminal(errorChunk(AGENT_FAILED_MESSAGE, asError(cause, 'AGENT_FAILED', 'The agentic adapter failed.')), { kind: 'agentic', outcome: 'error', errorClass })
    }
    const aborted: TurnOutcome = { kind: 'fallback', outcome: 'aborted', errorClass }
    let result: unknown = response
    if (typeof response === 'function') {
      const base = turnContext(last?.message, before, request.messages, core.sessionId, turnId, { signal: () => turnSignal(control) })
      const ctx: FallbackContext<Ctx> = { ...base, signal: base.signal, errorClass }
      try {
        result = await response(ctx.input, ctx)
      } catch (error) {
        if (control.aborted) return aborted
        return yield* terminal(errorChunk(AGENT_FAILED_MESSAGE, asError(error, 'FALLBACK_FAILED', 'The fallback response failed.')), { kind: 'fallback', outcome: 'error', errorClass: errorClassOf(error), reason: 'fallback-threw' })
      }
    }
    // The output is the app's code too (getters, proxies): read it once, here, guarded.
    let output: ReturnType<typeof normalizeOutput>
    try {
      output = normalizeOutput(result)
    } catch (error) {
      if (control.aborted) return aborted
      return yield* terminal(errorChunk(AGENT_FAILED_MESSAGE, asError(error, 'FALLBACK_FAILED', 'The fallback response failed.')), { kind: 'fallback', outcome: 'error', errorClass: errorClassOf(error), reason: 'fallback-threw' })
    }
    if (control.aborted) return aborted
    if (!output) {
      return yield* terminal(errorChunk(AGENT_FAILED_MESSAGE, asError(undefined, 'FALLBACK_FAILED', 'The fallback response is not a string or { text, chunks }.')), { kind: 'fallback', outcome: 'error', errorClass, reason: 'invalid-output' })
    }
    for (const chunk of output.chunks) {
      if (control.aborted) return aborted
      yield chunk
    }
    if (control.aborted) return aborted
    return yield* terminal(DONE, { kind: 'fallback', outcome: 'ok', errorClass })
  }

  if (!adapter) return yield* fallback('MissingAdapter', undefined)
  let source: StreamSource
  let iterator: AsyncIterator<StreamChunk>
  try {
    source = adapter.createSource(forwarded)
    control.inner = source
    if (control.aborted) {
      source.abort()
      return ABORTED
    }
    iterator = source.stream()
  } catch (error) {
    return yield* fallback(errorClassOf(error), error)
  }

  let proposal: Decision<Ctx> | undefined
  let repairReason: string | undefined
  const commit = (base?: StreamChunk): [StreamChunk, TurnOutcome] => {
    if (!proposal) return [base ?? DONE, { kind: repairReason ? 'repaired' : 'agentic', outcome: 'ok', reason: repairReason }]
    const committed = core.timeline.commit(proposal)
    if (committed) core.changed()
    const outcome: TurnOutcome = committed
      ? { kind: 'agentic', outcome: 'ok', event: proposal.record.event, toState: proposal.after.state }
      : { kind: 'repaired', outcome: 'ok', reason: 'history-changed' }
    return [committed ? doneWithRecord(proposal.record, base) : (base ?? DONE), outcome]
  }

  try {
    for (;;) {
      const next = await iterator.next()
      if (control.aborted) return ABORTED
      if (next.done) break
      const chunk = next.value
      if (transitions && chunk.type === 'tool_call' && chunk.toolCall?.name === TRANSITION_TOOL) {
        const verdict = judgeProposal(core.machine, before, chunk.toolCall)
        if (!verdict.legal) repairReason = verdict.reason
        else if (proposal) repairReason = 'duplicate-proposal'
        else if (last) {
          const inputKey = inputKeyOf(last.message)
          const record: DecisionRecord = {
            v: 1, messageId: last.message.id, input: fingerprint(inputKey), kind: 'agentic', event: verdict.event,
            fromState: before.state, toState: verdict.after.state, turnId,
          }
          proposal = { record, inputKey, before, after: verdict.after, chunks: undefined, answerId: last.answerId }
        }
        continue
      }
      if (chunk.type === 'error') {
        const errorClass = chunk.metadata?.error === undefined ? 'AdapterStreamError' : errorClassOf(chunk.metadata.error)
        if (conversation.fallback) return yield* fallback(errorClass, chunk.metadata?.error)
        return yield* terminal(chunk, { kind: 'agentic', outcome: 'error', errorClass })
      }
      if (chunk.type === 'done') return yield* terminal(...commit(chunk))
      yield chunk
      if (control.aborted) return ABORTED
    }
  } catch (error) {
    if (control.aborted) return ABORTED
    return yield* fallback(errorClassOf(error), error)
  }
  // The adapter ended without `done`: the controller treats that as done, so do we, and say so.
  return yield* terminal(...commit())
}
