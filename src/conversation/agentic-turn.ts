import type { AdapterRequest } from '../contract/adapter.js'
import type { StreamChunk } from '../contract/stream.js'
import type { LastUserMessage } from './decisions.js'
import type { JsonObject } from './json.js'
import type { MachineState } from './machine.js'
import { asPlainText } from './plain-text-chunk.js'
import type { TurnTiming } from './trace.js'
import type { SessionCore, TurnControl } from './session-core.js'
import { turnKit } from './turn-kit.js'
import { loadTurnPaths } from './turn-paths.js'
import type { AgenticRecorder, TurnOutcome } from './turn-recorder.js'

/**
 * The agentic side of a turn: forward the request (the identical object unless agent transitions
 * are on) to the adapter and pass its chunks through. Everything else (judging `chatrail_transition`
 * proposals, the component tool, replacing a failure by `conversation.fallback`, a stream without
 * `done`, a stop) is agentic-generator.ts's, loaded by the first turn that needs it: a turn whose
 * adapter streams to `done` never runs it, so an app's initial load does not carry it (issue 32).
 */

const ABORTED: TurnOutcome = { kind: 'agentic', outcome: 'aborted' }

/**
 * The agentic turn. Without agent transitions or components (the common case) the adapter's chunks
 * pass through a plain iterator (issue 20: a turn no route matches costs a bare adapter call plus a
 * constant, not a generator resumption per chunk); a failure, a stop or a stream without `done`
 * hands the pull over to the generator (agentic-generator.ts), which finishes the turn from it.
 */
export function agenticTurn<Ctx extends JsonObject>(
  core: SessionCore<Ctx>,
  request: AdapterRequest,
  control: TurnControl,
  last: LastUserMessage | undefined,
  before: MachineState<Ctx>,
  recorder: AgenticRecorder,
): AsyncIterableIterator<StreamChunk> {
  const adapter = core.adapter()
  if (adapter && recorder.timing !== undefined) recorder.timing.adapterAt = core.now()
  // A definition with components (their projection for the adapter, its component tool) takes the generator too.
  if (!adapter || core.definition.components !== undefined || (core.definition.conversation.agentTransitions === true && last !== undefined)) return agenticGenerator(core, request, control, last, before, recorder)
  let iterator: AsyncIterator<StreamChunk> | undefined
  try {
    const source = adapter.createSource(request)
    control.inner = source
    if (control.aborted) {
      source.abort()
      recorder.settle(ABORTED)
    } else iterator = source.stream()
  } catch (error) {
    const first = Promise.reject(error)
    // handled now: the generator awaits it only once its module has loaded
    first.catch(() => undefined)
    return agenticGenerator(core, request, control, last, before, recorder, { iterator: undefined, first })
  }
  return new PassThrough(iterator, control, recorder, core, request, last, before)
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

/** The turn from its start, or (`started`) from a pull the pass-through handed over: agentic-generator.ts, loaded on first use (turn-paths.ts). */
async function* agenticGenerator<Ctx extends JsonObject>(
  core: SessionCore<Ctx>,
  request: AdapterRequest,
  control: TurnControl,
  last: LastUserMessage | undefined,
  before: MachineState<Ctx>,
  recorder: AgenticRecorder,
  started?: { iterator: AsyncIterator<StreamChunk> | undefined; first: Promise<IteratorResult<StreamChunk>> },
): AsyncGenerator<StreamChunk, void> {
  yield* (await loadTurnPaths()).agenticGenerator(turnKit, core, request, control, last, before, recorder, started)
}
