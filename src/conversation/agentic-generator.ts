import type { AdapterRequest } from '../contract/adapter.js'
import { COMPONENT_TOOL, componentToolOf } from '../contract/component-tool.js'
import type { StreamChunk } from '../contract/stream.js'
import type { AgentTransitions } from './agent-transitions.js'
import { withComponentsAsText } from './component-projection.js'
import { errorClassOf } from './error-class.js'
import type { DecisionRecord } from './decision-record.js'
import type { Decision, LastUserMessage } from './decisions.js'
import { fallbackContext } from './fallback-context.js'
import type { JsonObject } from './json.js'
import type { MachineState } from './machine.js'
import type { SessionCore, TurnControl } from './session-core.js'
import { asError, errorChunk } from './turn-failures.js'
import type { TurnKit } from './turn-kit.js'
import type { AgenticRecorder, TurnOutcome } from './turn-recorder.js'

/**
 * The agentic turn when it is more than the adapter's chunks passed through to `done` (agentic-turn.ts
 * runs that): judge `chatrail_transition` proposals, turn the component tool's calls into parts,
 * replace a failure (missing adapter, a throw, an `error` chunk) by `conversation.fallback` when
 * there is one, finish a stream without `done` or a stop. Loaded by the first turn that needs it
 * (turn-kit.ts says why its helpers are handed in). Failures are recorded by class, never by text.
 */

const ABORTED: TurnOutcome = { kind: 'agentic', outcome: 'aborted' }

/** The `error` chunk's text when the agent failed and no fallback answered (stream.ts has the session's other fixed phrases). */
const AGENT_FAILED_MESSAGE = 'Sorry, the assistant could not answer. Please try again.'

// Loaded by the first turn that needs it (see agent-transitions.ts for why its dependencies are handed
// in). The promise is kept: an `import()` of a loaded module still costs a resolution, on every turn.
let transitionsModule: Promise<AgentTransitions> | undefined
const loadTransitions = (kit: TurnKit): Promise<AgentTransitions> =>
  (transitionsModule ??= import('./agent-transitions.js').then((module) => module.agentTransitions({ advance: kit.advance, isIdentifier: kit.isIdentifier, tool: kit.transitionTool })))

/** The turn from its start, or (`started`) from a pull the pass-through handed over. */
export async function* agenticGenerator<Ctx extends JsonObject>(
  kit: TurnKit,
  core: SessionCore<Ctx>,
  received: AdapterRequest,
  control: TurnControl,
  last: LastUserMessage | undefined,
  before: MachineState<Ctx>,
  recorder: AgenticRecorder,
  started?: { iterator: AsyncIterator<StreamChunk> | undefined; first: Promise<IteratorResult<StreamChunk>> },
): AsyncGenerator<StreamChunk, void> {
  const { asPlainText } = kit
  const conversation = core.definition.conversation
  // Only a definition with components can have them in history (the pass-through hands over none).
  const request = core.definition.components === undefined ? received : withComponentsAsText(received)
  // Agent transitions are loaded by the turns that use them: an app without them does not ship them.
  const transitions = conversation.agentTransitions === true && last !== undefined ? await loadTransitions(kit) : undefined
  const forwarded = transitions ? transitions.withTransitionContext(request, before.state, transitions.legalEvents(core.machine, before)) : request
  const adapter = core.adapter()
  // an agent proposes a component only by calling this tool: the call becomes the part (provenance `agent`) or inert text
  const shows = core.definition.components === undefined ? undefined : componentToolOf(core.definition.chat.tools)

  // The rare endings run in generators of their own; the adapter's chunks pass through this one
  // alone (issue 20: the miss path costs a bare adapter call plus a constant, not a layer per wrapper).
  async function* terminal(chunk: StreamChunk, outcome: TurnOutcome): AsyncGenerator<StreamChunk, TurnOutcome> {
    recorder.settle(outcome)
    yield chunk
    return outcome
  }

  /** The fallback's answer threw or was unreadable: the turn fails with it. */
  const fallbackFailed = (error: unknown, errorClass: string, reason: string, message = 'The fallback response failed.'): AsyncGenerator<StreamChunk, TurnOutcome> =>
    terminal(errorChunk(AGENT_FAILED_MESSAGE, asError(kit, error, 'FALLBACK_FAILED', message)), { kind: 'fallback', outcome: 'error', errorClass, reason })

  async function* fallback(errorClass: string, cause: unknown): AsyncGenerator<StreamChunk, TurnOutcome> {
    const response = conversation.fallback?.response
    if (response === undefined) {
      return yield* terminal(errorChunk(AGENT_FAILED_MESSAGE, asError(kit, cause, 'AGENT_FAILED', 'The agentic adapter failed.')), { kind: 'agentic', outcome: 'error', errorClass })
    }
    const aborted: TurnOutcome = { kind: 'fallback', outcome: 'aborted', errorClass }
    let result: unknown = response
    if (typeof response === 'function') {
      const ctx = fallbackContext(kit, core, request, control, last, before, recorder.turnId, errorClass)
      try {
        result = await response(ctx.input, ctx)
      } catch (error) {
        if (control.aborted) return aborted
        return yield* fallbackFailed(error, errorClassOf(error), 'fallback-threw')
      }
    }
    // The output is the app's code too (getters, proxies): read it once, here, guarded.
    let output: ReturnType<typeof kit.normalizeOutput>
    try {
      output = kit.normalizeOutput(result)
    } catch (error) {
      if (control.aborted) return aborted
      return yield* fallbackFailed(error, errorClassOf(error), 'fallback-threw')
    }
    if (control.aborted) return aborted
    if (!output) return yield* fallbackFailed(undefined, errorClass, 'invalid-output', 'The fallback response is not a string or { text, chunks }.')
    for (const chunk of output.chunks) {
      if (control.aborted) return aborted
      // as a route's (turn.ts), a fallback's components need the registry; without it they are their text
      yield core.definition.components === undefined && chunk.metadata?.component !== undefined ? asPlainText(chunk) : chunk
    }
    if (control.aborted) return aborted
    return yield* terminal(kit.done, { kind: 'fallback', outcome: 'ok', errorClass })
  }

  let proposal: Decision<Ctx> | undefined
  let repairReason: string | undefined
  const commit = (base?: StreamChunk): [StreamChunk, TurnOutcome] => {
    if (!proposal) return [base ?? kit.done, { kind: repairReason ? 'repaired' : 'agentic', outcome: 'ok', reason: repairReason }]
    const committed = core.timeline.commit(proposal)
    if (committed) core.changed()
    const outcome: TurnOutcome = committed
      ? { kind: 'agentic', outcome: 'ok', event: proposal.record.event, toState: proposal.after.state }
      : { kind: 'repaired', outcome: 'ok', reason: 'history-changed' }
    return [committed ? kit.doneWithRecord(proposal.record, base) : (base ?? kit.done), outcome]
  }

  // Every way out records its outcome; a consumer that walks away records `aborted` (the finally).
  let outcome: TurnOutcome = ABORTED
  try {
    let iterator = started?.iterator
    let first = started?.first
    if (!started) {
      if (!adapter) {
        outcome = yield* fallback('MissingAdapter', undefined)
        return
      }
      try {
        const source = adapter.createSource(forwarded)
        control.inner = source
        if (control.aborted) {
          source.abort()
          return
        }
        iterator = source.stream()
      } catch (error) {
        outcome = yield* fallback(errorClassOf(error), error)
        return
      }
    }
    try {
      for (;;) {
        const next = await (first ?? (iterator as AsyncIterator<StreamChunk>).next())
        first = undefined
        if (control.aborted) return
        if (next.done) break
        const chunk = next.value
        // the adapter's first chunk, noted once (as the pass-through notes it)
        if (recorder.timing !== undefined && Number.isNaN(recorder.timing.firstChunkAt)) recorder.timing.firstChunkAt = core.now()
        if (transitions && chunk.type === 'tool_call' && chunk.toolCall?.name === kit.transitionTool) {
          const verdict = transitions.judgeProposal(core.machine, before, chunk.toolCall)
          if (!verdict.legal) repairReason = verdict.reason
          else if (proposal) repairReason = 'duplicate-proposal'
          else if (last) {
            const inputKey = kit.inputKeyOf(last.message)
            const record: DecisionRecord = {
              v: 1, messageId: last.message.id, input: kit.fingerprint(inputKey), kind: 'agentic', event: verdict.event,
              fromState: before.state, toState: verdict.after.state, turnId: recorder.turnId,
            }
            proposal = { record, inputKey, before, after: verdict.after, chunks: undefined, answerId: last.answerId }
          }
          continue
        }
        if (shows && chunk.type === 'tool_call' && chunk.toolCall?.name === shows.name) {
          yield shows[COMPONENT_TOOL](chunk.toolCall)
          if (control.aborted) return
          continue
        }
        if (chunk.type === 'error') {
          const errorClass = chunk.metadata?.error === undefined ? 'AdapterStreamError' : errorClassOf(chunk.metadata.error)
          outcome = yield* (conversation.fallback ? fallback(errorClass, chunk.metadata?.error) : terminal(chunk, { kind: 'agentic', outcome: 'error', errorClass }))
          return
        }
        if (chunk.type === 'done') {
          outcome = yield* terminal(...commit(chunk))
          return
        }
        yield chunk.metadata?.component === undefined ? chunk : asPlainText(chunk)
        if (control.aborted) return
      }
    } catch (error) {
      if (control.aborted) return
      outcome = yield* fallback(errorClassOf(error), error)
      return
    }
    // The adapter ended without `done`: the controller treats that as done, so do we, and say so.
    outcome = yield* terminal(...commit())
  } finally {
    recorder.settle(outcome)
  }
}
