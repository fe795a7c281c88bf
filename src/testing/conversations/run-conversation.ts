import type { AdapterFactory } from '../../contract/adapter.js'
import { ChatrailError } from '../../contract/errors.js'
import { createChatController } from '../../controller/index.js'
import { createChatSession } from '../../index.js'
import { assertValidDefinition } from '../../conversation/definition-check.js'
import type { ChatDefinition, ChatNames, CheckedName, JsonObject, TurnTrace } from '../../index.js'
import type { ConversationRun, TurnExplanation, TurnResult } from './run-result.js'
import type { ExplainInput } from '../../conversation/explain.js'
import { explainTurn } from '../../conversation/explain-turn.js'
import { describeStep, sendsUserMessage } from './step.js'
import type { ConversationStep } from './step.js'
import { checkConversationTurns } from './step-checks.js'
import { recordingAdapter } from '../recording-adapter.js'
import type { RecordingAdapter } from '../recording-adapter.js'
import { isReplayCheckable, regenerateMismatch, rerunMismatches } from './replay-check.js'
import { replayAdapter } from '../replay-adapter.js'
import { REPLAY_CLOCK_OFFSET_MS, withShiftedWallClock } from './shifted-wall-clock.js'
import { lastReply, StepDriver, stopAfterFirstChunk } from './step-driver.js'
import { sequentialIds, steppingClock } from './test-clock.js'

export interface RunConversationOptions<Ctx extends JsonObject = JsonObject, N extends ChatNames = ChatNames> {
  /**
   * Answers agentic turns in place of the definition's own adapter: `scriptedAdapter([...])`,
   * `replayAdapter(cassette)`, or a real adapter wrapped in `recordingAdapter`.
   */
  adapter?: AdapterFactory
  /** Start somewhere other than the definition's initial state, with context patched shallowly. */
  start?: { state?: N['state']; context?: Partial<Ctx> }
  /**
   * After each deterministic turn, regenerate it in place (it must replay from the decision
   * cache unchanged), then run the whole conversation again under a wall clock shifted by a day
   * and an hour (every deterministic turn must come out the same). Results in `run.replayCheck`.
   */
  replayCheck?: boolean
  /** Default `session-1`. */
  sessionId?: string
  /** Message ids for the controller. Default `msg-1`, `msg-2`, … */
  messageIds?: () => string
  /** Turn ids for the session. Default `turn-1`, `turn-2`, … */
  turnIds?: () => string
  /** Time for both. Default: 2026-01-01T00:00:00Z, advancing 1 ms per reading. */
  clock?: () => Date
}

/**
 * Drives a fresh session through a real `createChatController`, one step at a time, and reports
 * per step the reply, the traces, the snapshot and the model calls. Each step is awaited to the
 * end of its turn (a step followed by `{ stop }` is stopped after its first chunk). Failures inside
 * turns are data on the turn (`error`, an `error` trace); only invalid steps (an `edit` of a turn
 * that sent nothing) throw, before anything runs. Ids and time are deterministic by default.
 */
export function runConversation<Ctx extends JsonObject, N extends ChatNames = ChatNames, const Ev extends string = N['uiEvent'], const Start extends string = N['state']>(
  definition: ChatDefinition<Ctx, N>,
  steps: readonly ConversationStep<CheckedName<Ev, N['uiEvent']>>[],
  options?: Omit<RunConversationOptions<Ctx, N>, 'start'> & { start?: { state?: CheckedName<Start, N['state']>; context?: Partial<Ctx> } },
): Promise<ConversationRun<Ctx, N>>
export async function runConversation<Ctx extends JsonObject>(
  definition: ChatDefinition<Ctx>,
  steps: readonly ConversationStep[],
  options: RunConversationOptions<Ctx> = {},
): Promise<ConversationRun<Ctx>> {
  // whatever NODE_ENV: a production `defineChat` skips the full check (issue 32)
  assertValidDefinition(definition)
  validateSteps(steps)
  const main = await drive(definition, steps, options, options.replayCheck === true)
  if (options.replayCheck !== true) return main.run
  // The re-run answers agentic turns from what the first run's adapter streamed.
  const adapter = main.recorder === undefined ? undefined : replayAdapter(main.recorder.cassette())
  const rerun = await withShiftedWallClock(REPLAY_CLOCK_OFFSET_MS, () => drive(definition, steps, { ...options, ...(adapter === undefined ? {} : { adapter }) }, false))
  const checked = main.run.turns.filter(isReplayCheckable).length
  const mismatches = [...main.regenerateMismatches, ...rerunMismatches(main.run.turns, rerun.run.turns)].sort((a, b) => a.turn - b.turn)
  return { ...main.run, replayCheck: { checked, mismatches } }
}

function validateSteps(steps: readonly ConversationStep[]): void {
  const problems = checkConversationTurns(steps.map((step, index) => ({ number: index + 1, step, expect: {} })))
  const [first] = problems
  if (first === undefined) return
  throw new ChatrailError({ code: 'INVALID_STEPS', message: `runConversation: ${problems.map((problem) => problem.message).join('; ')}`, hint: first.hint })
}

interface Drive<Ctx extends JsonObject> {
  run: ConversationRun<Ctx>
  recorder: RecordingAdapter | undefined
  regenerateMismatches: NonNullable<ConversationRun['replayCheck']>['mismatches']
}

async function drive<Ctx extends JsonObject>(
  definition: ChatDefinition<Ctx>,
  steps: readonly ConversationStep[],
  options: RunConversationOptions<Ctx>,
  regenerateInPlace: boolean,
): Promise<Drive<Ctx>> {
  const base = options.adapter ?? definition.chat.adapter
  const recorder = base === undefined ? undefined : recordingAdapter(base)
  const clock = options.clock ?? steppingClock()
  const traces: TurnTrace[] = []
  const replayTraces: TurnTrace[] = []
  let sink = traces
  const session = createChatSession(definition, {
    sessionId: options.sessionId ?? 'session-1',
    ids: options.turnIds ?? sequentialIds('turn'),
    clock,
    onTrace: (trace: TurnTrace) => {
      sink.push(trace)
    },
    ...(options.start === undefined ? {} : { start: options.start }),
  })
  // The session wraps the recorder, so model calls are counted below the deterministic layer.
  if (recorder !== undefined) session.updateChat({ ...definition.chat, adapter: recorder })
  const controller = createChatController(session.chat, { ids: options.messageIds ?? sequentialIds('msg'), clock })
  // Kept for the life of the controller, so the returned session and controller stay usable.
  controller.subscribe(() => session.sync(controller.getState().messages))
  const driver = new StepDriver(controller)
  const turns: TurnResult<Ctx>[] = []
  const regenerateMismatches: Drive<Ctx>['regenerateMismatches'] = []
  const calls = () => recorder?.calls ?? []
  for (const [index, step] of steps.entries()) {
    const number = index + 1
    const previous = turns[turns.length - 1]
    if ('stop' in step && previous !== undefined) {
      // The stop already happened while the previous step ran: report that stopped turn.
      turns.push({ ...previous, number, step, label: describeStep(step), snapshot: session.getSnapshot() })
      continue
    }
    const traceStart = traces.length
    const callStart = calls().length
    const before = session.getSnapshot()
    const earlier = new Set(controller.getState().messages.map((message) => message.id))
    const started = driver.start(step)
    let problem = started.problem
    const stopsNext = 'stop' in (steps[index + 1] ?? {})
    try {
      if (stopsNext) await stopAfterFirstChunk(controller, started.done, () => calls().slice(callStart), earlier)
      else await started.done
    } catch (error) {
      problem = `the controller rejected the step: ${error instanceof Error ? error.message : String(error)}`
    }
    if (sendsUserMessage(step)) driver.remember(number)
    const state = controller.getState()
    const reply = lastReply(state.messages)
    const fresh = reply !== undefined && !earlier.has(reply.id)
    const stepTraces = traces.slice(traceStart)
    const turn: TurnResult<Ctx> = {
      number,
      step,
      label: describeStep(step),
      reply: fresh ? reply.content : '',
      replyMessageId: fresh ? reply.id : undefined,
      trace: stepTraces[stepTraces.length - 1],
      traces: stepTraces,
      snapshot: session.getSnapshot(),
      adapterCalls: calls().slice(callStart),
      status: state.status,
      error: problem ?? state.error?.message,
    }
    const explanation = await explainMiss(definition, step, before, turn.trace)
    if (explanation !== undefined) turn.explanation = explanation
    turns.push(turn)
    if (regenerateInPlace && !stopsNext && fresh && isReplayCheckable(turn)) {
      sink = replayTraces
      const before = calls().length
      const replayStart = replayTraces.length
      await controller.regenerate()
      sink = traces
      const again = lastReply(controller.getState().messages)
      const mismatch = regenerateMismatch(turn as TurnResult, {
        trace: replayTraces.slice(replayStart).pop(),
        reply: again?.content ?? '',
        modelCalls: calls().length - before,
        snapshot: session.getSnapshot(),
      })
      if (mismatch !== undefined) regenerateMismatches.push(mismatch)
      turn.replyMessageId = again?.id
    }
  }
  const run: ConversationRun<Ctx> = {
    turns,
    traces,
    adapterCalls: [...calls()],
    snapshot: session.getSnapshot(),
    messages: controller.getState().messages,
    session,
    controller,
  }
  return { run, recorder, regenerateMismatches }
}

/**
 * Why no route took a `user` or `event` step's message, explained in the state and context it was
 * sent in; `undefined` when a route answered or the step sent no message. Route callbacks are pure
 * (they run again here); one that throws now leaves the turn unexplained rather than failing it.
 */
async function explainMiss<Ctx extends JsonObject>(
  definition: ChatDefinition<Ctx>,
  step: ConversationStep,
  before: { state: string; context: Readonly<Ctx> },
  trace: TurnTrace | undefined,
): Promise<TurnExplanation | undefined> {
  if (trace?.routeId !== undefined || !sendsUserMessage(step)) return undefined
  const input: ExplainInput | undefined = 'user' in step ? step.user : 'event' in step ? { uiEvent: step.event, ...(step.label === undefined ? {} : { text: step.label }) } : undefined
  if (input === undefined) return undefined
  try {
    const { outcome, routes } = await explainTurn(definition, before, input)
    return { state: before.state, input, outcome, routes }
  } catch {
    return undefined
  }
}
