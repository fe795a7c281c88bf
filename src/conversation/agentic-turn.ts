import type { AdapterRequest } from '../contract/adapter.js'
import { withComponentsAsText } from './component-projection.js'
import { COMPONENT_TOOL, componentToolOf, type ComponentToolDefinition } from '../contract/component-tool.js'
import type { StreamChunk } from '../contract/stream.js'
import type { AgentTransitions } from './agent-transitions.js'
import { turnContext } from './decide.js'
import { doneWithRecord, fingerprint, type DecisionRecord } from './decision-record.js'
import { inputKeyOf, type Decision, type LastUserMessage } from './decisions.js'
import type { FallbackContext } from './definition.js'
import type { JsonObject } from './json.js'
import { step, type MachineState } from './machine.js'
import { isIdentifier } from './identifier.js'
import { TRANSITION_TOOL } from './transition-tool.js'
import { normalizeOutput } from './route-output.js'
import { AGENT_FAILED_MESSAGE, DONE, asError, errorChunk } from './stream.js'
import { errorClassOf, type TurnTiming } from './trace.js'
import { turnSignal, type SessionCore, type TurnControl } from './session-core.js'
import type { TurnOutcome } from './turn-recorder.js'

/**
 * The agentic side of a turn: forward the request (the identical object unless agent transitions
 * are on) to the adapter and pass its chunks through; judge `chatrail_transition` proposals;
 * replace a failure (missing adapter, a throw, an `error` chunk) by `conversation.fallback` when
 * there is one. Failures are recorded by class, never by text.
 */

const ABORTED: TurnOutcome = { kind: 'agentic', outcome: 'aborted' }

/**
 * The agentic turn. Without agent transitions (the common case) the adapter's chunks pass through
 * a plain iterator (issue 20: a turn no route matches costs a bare adapter call plus a constant,
 * not a generator resumption per chunk); a failure, a stop or a stream without `done` hands the
 * pull over to the generator below, which finishes the turn from it.
 */
export function agenticTurn<Ctx extends JsonObject>(
  core: SessionCore<Ctx>,
  received: AdapterRequest,
  control: TurnControl,
  last: LastUserMessage | undefined,
  before: MachineState<Ctx>,
  recorder: AgenticRecorder,
): AsyncIterableIterator<StreamChunk> {
  // Only a definition with components can have them in history: the others pay nothing here.
  const request = core.definition.components === undefined ? received : withComponentsAsText(received)
  const adapter = core.adapter()
  if (adapter && recorder.timing !== undefined) recorder.timing.adapterAt = core.now()
  if (!adapter || (core.definition.conversation.agentTransitions === true && last !== undefined) || componentToolOfCore(core) !== undefined) return agenticGenerator(core, request, control, last, before, recorder)
  let iterator: AsyncIterator<StreamChunk> | undefined
  try {
    const source = adapter.createSource(request)
    control.inner = source
    if (control.aborted) {
      source.abort()
      recorder.settle(ABORTED)
    } else iterator = source.stream()
  } catch (error) {
    return agenticGenerator(core, request, control, last, before, recorder, { iterator: undefined, first: Promise.reject(error) })
  }
  return new PassThrough(iterator, control, recorder, core, request, last, before)
}

/** How an agentic turn records its outcome. */
export interface AgenticRecorder {
  /** Read only when needed (a decision record, a fallback's context): built on first read. */
  readonly turnId: string
  /** Called before the terminal chunk (a consumer may stop pulling at it). */
  settle: (outcome: TurnOutcome) => void
  /** The consumer walked away first (once settled, this does nothing). */
  finish: (outcome: 'aborted') => void
  /** The clock readings for `trace.timings`, in a session that records them. */
  readonly timing: TurnTiming | undefined
}

/** The adapter's first chunk, noted once (a session that records timings). */
function firstChunk(core: Pick<SessionCore<JsonObject>, 'now'>, timing: TurnTiming | undefined): void {
  if (timing !== undefined && Number.isNaN(timing.firstChunkAt)) timing.firstChunkAt = core.now()
}

const END: IteratorResult<StreamChunk> = { value: undefined, done: true }
const OK: TurnOutcome = { kind: 'agentic', outcome: 'ok' }

/** The adapter's chunks, passed through; the generator's arguments are kept for a hand-over (two handlers a turn, none a chunk). */
class PassThrough<Ctx extends JsonObject> implements AsyncIterableIterator<StreamChunk> {
  #rest: AsyncIterator<StreamChunk> | undefined
  #ended: boolean
  #pulled: Promise<IteratorResult<StreamChunk>> | undefined

  constructor(
    readonly inner: AsyncIterator<StreamChunk> | undefined,
    readonly control: TurnControl,
    readonly recorder: AgenticRecorder,
    readonly core: SessionCore<Ctx>,
    readonly request: AdapterRequest,
    readonly last: LastUserMessage | undefined,
    readonly before: MachineState<Ctx>,
  ) {
    this.#ended = !inner
  }

  // Not an async method: a chunk costs the inner pull plus one `then`, with handlers made once per
  // turn (an async method's frame per chunk was the largest item of the fallthrough's overhead).
  next(): Promise<IteratorResult<StreamChunk>> {
    if (this.#rest) return this.#rest.next()
    if (this.#ended || !this.inner) return Promise.resolve(END)
    if (this.control.aborted) {
      this.#ended = true
      this.recorder.settle(ABORTED)
      return Promise.resolve(END)
    }
    // `Promise.resolve`: an iterator that returns plain results (outside the contract) still works, as
    // it did under `await`; for a promise it returns the promise itself.
    const pulled = Promise.resolve(this.inner.next())
    this.#pulled = pulled
    return pulled.then(this.#passed, this.#handOver)
  }

  readonly #passed = (next: IteratorResult<StreamChunk>): IteratorResult<StreamChunk> | Promise<IteratorResult<StreamChunk>> => {
    if (this.recorder.timing !== undefined) firstChunk(this.core, this.recorder.timing)
    if (next.done || next.value.type === 'error' || this.control.aborted) return this.#handOver()
    if (next.value.type === 'done') {
      this.#ended = true
      this.recorder.settle(OK)
    }
    return next.value.metadata?.component === undefined ? next : { done: false, value: asPlainText(next.value) }
  }

  /** A failure, an end without `done` or a stop: the generator takes the turn over from the pull. */
  readonly #handOver = (): Promise<IteratorResult<StreamChunk>> => {
    const first = this.#pulled as Promise<IteratorResult<StreamChunk>>
    this.#rest = agenticGenerator(this.core, this.request, this.control, this.last, this.before, this.recorder, { iterator: this.inner, first })
    return this.#rest.next()
  }

  return(): Promise<IteratorResult<StreamChunk>> {
    if (this.#rest) return this.#rest.return?.() ?? Promise.resolve(END)
    if (!this.#ended) {
      this.#ended = true
      this.recorder.finish('aborted')
    }
    return Promise.resolve(END)
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<StreamChunk> {
    return this
  }
}

/**
 * An adapter's chunk that claims to carry a component, as the plain text it also is. A component
 * in an answer is the app's word (a route's, or the host's); an agent proposes one only through a
 * declared tool, whose path marks it `agent`. So whatever an adapter streams in
 * `metadata.component` (a model or a CLI could print anything) shows as its text and nothing more.
 */
function asPlainText(chunk: StreamChunk): StreamChunk {
  const { metadata: carried, ...fields } = chunk
  const { component: _dropped, ...metadata } = carried ?? {}
  return Object.keys(metadata).length === 0 ? fields : { ...fields, metadata }
}

// Loaded by the first turn that needs it (see agent-transitions.ts for why its dependencies are handed
// in). The promise is kept: an `import()` of a loaded module still costs a resolution, on every turn.
let transitionsModule: Promise<AgentTransitions> | undefined
const loadTransitions = (): Promise<AgentTransitions> =>
  (transitionsModule ??= import('./agent-transitions.js').then((module) => module.agentTransitions({ step, isIdentifier, tool: TRANSITION_TOOL })))

/** The tool the definition declares for agent-proposed components (contract/component-tool.ts); only a definition with a registry can have one. */
function componentToolOfCore(core: Pick<SessionCore<JsonObject>, 'definition'>): ComponentToolDefinition | undefined {
  return core.definition.components === undefined ? undefined : componentToolOf(core.definition.chat.tools)
}

/** The turn from its start, or (`started`) from a pull the pass-through handed over. */
async function* agenticGenerator<Ctx extends JsonObject>(
  core: SessionCore<Ctx>,
  request: AdapterRequest,
  control: TurnControl,
  last: LastUserMessage | undefined,
  before: MachineState<Ctx>,
  recorder: AgenticRecorder,
  started?: { iterator: AsyncIterator<StreamChunk> | undefined; first: Promise<IteratorResult<StreamChunk>> },
): AsyncGenerator<StreamChunk, void> {
  const conversation = core.definition.conversation
  // Agent transitions are loaded by the turns that use them: an app without them does not ship them.
  const transitions = conversation.agentTransitions === true && last !== undefined ? await loadTransitions() : undefined
  const forwarded = transitions ? transitions.withTransitionContext(request, before.state, transitions.legalEvents(core.machine, before)) : request
  const adapter = core.adapter()
  // an agent proposes a component only by calling this tool: the call becomes the part (provenance `agent`) or inert text
  const shows = componentToolOfCore(core)

  // The rare endings run in generators of their own; the adapter's chunks pass through this one
  // alone (issue 20: the miss path costs a bare adapter call plus a constant, not a layer per wrapper).
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
      const base = turnContext(last?.message, before, request, core.sessionId, recorder.turnId, { signal: () => turnSignal(control) })
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
      // as a route's (turn.ts), a fallback's components need the registry; without it they are their text
      yield core.definition.components === undefined && chunk.metadata?.component !== undefined ? asPlainText(chunk) : chunk
    }
    if (control.aborted) return aborted
    return yield* terminal(DONE, { kind: 'fallback', outcome: 'ok', errorClass })
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
        firstChunk(core, recorder.timing)
        if (transitions && chunk.type === 'tool_call' && chunk.toolCall?.name === TRANSITION_TOOL) {
          const verdict = transitions.judgeProposal(core.machine, before, chunk.toolCall)
          if (!verdict.legal) repairReason = verdict.reason
          else if (proposal) repairReason = 'duplicate-proposal'
          else if (last) {
            const inputKey = inputKeyOf(last.message)
            const record: DecisionRecord = {
              v: 1, messageId: last.message.id, input: fingerprint(inputKey), kind: 'agentic', event: verdict.event,
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
