import { ChatrailError } from '../contract/errors.js'
import type { Message } from '../contract/message.js'
import type { StreamChunk } from '../contract/stream.js'
import type { JsonObject } from '../conversation/json.js'
import type { ChatSession } from '../conversation/session.js'
import type { TurnTrace } from '../conversation/trace.js'
import type { ConversationStore, DefinitionRef, Lease } from '../store/conversation-store.js'
import { isStoreMessageTooLargeError } from '../store/store-errors.js'
import { componentOfChunk } from '../contract/component-chunk.js'
import { createUiPartEncoder } from '../protocol/encode-parts.js'
import type { ChatrailPartData } from '../protocol/ui-parts.js'
import { fitAnswer } from './oversize-answer.js'
import type { PartSink } from './part-stream.js'
import type { TurnWrite } from './plan-turn.js'
import { createToolLedger } from './tool-ledger.js'
import type { WirePart } from './tool-parts.js'
import { watchSignals } from './turn-signals.js'
import type { ServerTools } from './server-tools.js'
import { toolLoopSource, type PausedLoop, type ResumeInput, type ToolLoopSource } from './tool-loop.js'
import { answerSoFar, resumedLoop, type ResumedAnswer } from './tool-approval.js'
import { storedToolsOf } from './tool-ledger.js'
import { versionPositions, versionsOf, withVersions } from './message-versions.js'
import { AnswerExtras } from './answer-extras.js'

/**
 * One turn without a controller: the session answers the request built from stored history plus
 * the new user message, every chunk goes to the client as it arrives, and the finished turn is
 * stored in one fenced append that also releases the lease. While the turn runs, its lease is
 * renewed and the store is polled for a stop or a dialog answer sent to any instance.
 *
 * How a turn ends, and what is stored (always the user message and an answer, in one write):
 * - done: the answer with its decision record, `finish` (`stop`);
 * - stopped (a stop signal): the answer so far, `finish` (`stop`);
 * - failed (the agent's error, a throwing adapter, `turnTimeoutMs`, a shutdown's `halt`): the answer
 *   so far with `status: 'error'` and `metadata.error.code`, lease released `failed`; then the
 *   snapshot, the message's metadata (`chatrail: { status: 'error', error: { code } }`), an `error`
 *   part with the code and `finish` (`error`), in that order: `useChat` stops reading at `error`,
 *   so whatever it should know comes before. A retry of the same user message runs the turn again.
 * Tool calls stream as tool parts; every call opened is closed before the end (tool-ledger.ts) and
 * the stored answer keeps them (`metadata.tools`), so GET restores them.
 * - an answer over the store's `maxMessageBytes`: stored cut to fit (`metadata.truncated`), still in
 *   the one write with the user message, `finish` (`length`); a retry replays it.
 * `finish` is written only after the store answered, so a client that saw `finish` without an
 * error part knows the turn is stored.
 */
export interface TurnInput<Ctx extends JsonObject> {
  readonly store: ConversationStore
  /** The store time the turn has spent so far (store-meter.ts), stored with its answer as `timings.storeBeforeWriteMs`. */
  readonly storeSpentMs?: () => number
  readonly session: ChatSession<Ctx>
  readonly conversationId: string
  readonly definition: DefinitionRef
  /** The principal the conversation belongs to (undefined: `authenticate: 'none'`). */
  readonly owner: string | undefined
  readonly lease: Lease
  readonly leaseMs: number
  readonly turnTimeoutMs: number
  /** How often the store is polled for a stop or a dialog answer while the turn runs. */
  readonly signalPollMs: number
  /** The stored version the turn's write expects. */
  readonly expectedVersion: number
  /** History before the user message this turn answers. */
  readonly history: readonly Message[]
  readonly user: Message
  /** Where the store truncates first (edit, regenerate) and whether the user message is appended. */
  readonly write: TurnWrite
  readonly assistantId: string
  /** The definition's adapter is a live agent (it may open dialogs mid-turn). */
  readonly liveAgent: boolean
  readonly now: () => Date
  readonly sink: PartSink
  readonly onError: (error: unknown) => void
  /** Aborted by `handler.close()` at its deadline: the turn ends now, failed with `SERVER_SHUTDOWN`. */
  readonly halt?: AbortSignal
  /** The definition declares tools: the model sees them and the turn runs its tool loop (tool-loop.ts). */
  readonly tools?: ServerTools | undefined
  /** The stored answer a paused tool loop goes on from, its approvals answered (tool-approval.ts); `assistantId` is its id. */
  readonly resume?: ResumedAnswer | undefined
  /** The handler serves confirmations: calls awaiting approval are records (tool-confirmations.ts). */
  readonly approvals?: TurnApprovals | undefined
}

/** A turn's confirmation records for the calls it pauses on, and for the answered calls it resumes. */
export interface TurnApprovals {
  /** Proposes a record per call awaiting approval, before the answer is stored; the loop comes back with their tokens. */
  readonly propose: (paused: PausedLoop) => Promise<PausedLoop>
  /** Decides a resumed answer's calls through their records. */
  readonly settle?: ResumeInput['settle']
}

/** What an error part says: a code, never an internal message. */
function errorCodeOf(chunk: StreamChunk): string {
  const carried = chunk.metadata?.error
  return ChatrailError.isInstance(carried) ? carried.code : 'AGENT_ERROR'
}

export function snapshotData<Ctx extends JsonObject>(session: ChatSession<Ctx>, messageId?: string): ChatrailPartData {
  const snapshot = session.getSnapshot()
  const trace = messageId === undefined ? undefined : session.traces().findLast((candidate) => candidate.messageId === messageId)
  return {
    state: snapshot.state,
    events: snapshot.events,
    actions: snapshot.actions,
    ...(snapshot.restart === undefined ? {} : { restart: snapshot.restart }),
    ...(trace ? { trace } : {}),
    ...(snapshot.agent ? { agent: snapshot.agent } : {}),
  }
}

type Ending = { readonly kind: 'done'; readonly record: unknown } | { readonly kind: 'stopped' } | { readonly kind: 'failed'; readonly code: string }
type Interruption = 'timeout' | 'stopped' | 'shutdown'

/** What a tool call still open at the end is told. */
function unfinishedToolText(end: Ending): string {
  if (end.kind === 'done') return 'No result: the agent ended its answer without this tool\'s result (the chat server runs only the tools its definition declares with execute).'
  return end.kind === 'stopped' ? 'No result: the turn was stopped first.' : 'No result: the turn failed first.'
}

export async function runTurn<Ctx extends JsonObject>(input: TurnInput<Ctx>): Promise<void> {
  const { store, sink, user, session } = input
  const encoder = createUiPartEncoder({ messageId: input.assistantId })
  sink.write(encoder.start())
  let lease = input.lease
  const renewal = setInterval(() => {
    store.renew(lease, { leaseMs: input.leaseMs }).then((renewed) => { lease = renewed }, input.onError)
  }, Math.max(1, Math.floor(input.leaseMs / 3)))
  // A timeout or a stop interrupts the wait for the agent's next chunk. One settle function per
  // wait (not a long-lived promise raced on every chunk, which would keep a reaction per chunk).
  let interruption: Interruption | undefined
  let interrupt: ((why: Interruption) => void) | undefined
  const raise = (why: Interruption): void => {
    interruption ??= why
    interrupt?.(why)
  }
  const onHalt = (): void => raise('shutdown')
  if (input.halt?.aborted) raise('shutdown')
  else input.halt?.addEventListener('abort', onHalt, { once: true })
  const signals = watchSignals({
    store,
    lease: () => lease,
    pollMs: input.signalPollMs,
    onDialogAnswer: (toolId, answer) => void session.answerDialog(toolId, answer).catch(input.onError),
    onStop: () => raise('stopped'),
    onError: input.onError,
  })
  // A live agent's pending dialog reaches the client while the turn runs (the client answers it
  // with POST { action: 'answer-dialog' }): a data-chatrail part whenever the dialog changes, and
  // whenever the agent starts or stops waiting for a permission (a confirmation record the page's
  // approval cards then read: docs/actions.md § Coding agents' permission requests).
  // Only a live agent has dialogs: other turns skip the subscription (a snapshot per change).
  const waitingOf = (): string | undefined => {
    const agent = session.getSnapshot().agent
    return `${agent?.pendingDialog?.toolId ?? ''}|${agent?.status === 'waiting_for_approval' ? (agent.detail ?? 'permission') : ''}`
  }
  let dialogShown = input.liveAgent ? waitingOf() : undefined
  const unsubscribe = input.liveAgent
    ? session.subscribe(() => {
      const pending = waitingOf()
      if (pending === dialogShown) return
      dialogShown = pending
      sink.write([{ type: 'data-chatrail', data: snapshotData(session) }])
    })
    : () => undefined
  const answer = answerSoFar(input.resume)
  // the reasoning and the sources, stored with the answer so a reload shows them (answer-extras.ts)
  const extras = new AnswerExtras(input.resume?.answer)
  let ending: Ending | undefined
  const tools = createToolLedger(input.resume ? storedToolsOf(input.resume.answer.metadata) : [])
  let loop: ToolLoopSource | undefined
  const deadline = setTimeout(() => raise('timeout'), input.turnTimeoutMs)
  const nextStep = (iterator: AsyncIterator<StreamChunk>): Promise<IteratorResult<StreamChunk> | Interruption> =>
    interruption ? Promise.resolve(interruption) : new Promise((resolve, reject) => {
      interrupt = resolve
      iterator.next().then(resolve, reject)
    })
  try {
    const messages = [...input.history, user]
    // a resumed answer whose definition lost its tools still goes on: its approved calls then find no tool
    const toolSet = input.tools ?? (input.resume ? { tools: [], validateArgs: undefined, maxSteps: input.resume.paused.step + 1, timeoutMs: 1 } : undefined)
    if (toolSet) loop = toolLoopSource({ ...toolSet, adapter: session.chat.adapter, messages, now: input.now, stepId: (step) => `${input.assistantId}.step${step}`, resume: input.resume && { ...resumedLoop(input.resume, input.conversationId), settle: input.approvals?.settle } })
    // a live agent is told whose turn it runs (`metadata.conversationId`): its permission requests are that conversation's records (docs/actions.md)
    const source = loop ?? session.chat.adapter.createSource(input.liveAgent ? { messages, context: { metadata: { conversationId: input.conversationId } } } : { messages })
    const iterator = source.stream()
    while (!ending) {
      // a hung agent must not hold the conversation forever: the lease is renewed only until the deadline
      const step = await nextStep(iterator)
      if (typeof step === 'string') {
        source.abort()
        void Promise.resolve(iterator.return?.()).catch(() => undefined)
        ending = step === 'stopped' ? { kind: 'stopped' } : { kind: 'failed', code: step === 'timeout' ? 'TURN_TIMEOUT' : 'SERVER_SHUTDOWN' }
        break
      }
      if (step.done) break
      const chunk = step.value
      const toolParts = tools.observe(chunk, answer.content.length)
      // a tool part closes the running text part first (encoding `done` closes what is open)
      if (toolParts) {
        if (toolParts.length > 0) sink.write([...encoder.encode({ type: 'done' }), ...toolParts])
      } else if (chunk.type !== 'error') sink.write(encoder.encode(chunk))
      extras.observe(chunk)
      if (chunk.type === 'text') {
        const component = chunk.metadata === undefined ? undefined : componentOfChunk(chunk)
        if (component) answer.component(component)
        else if (typeof chunk.content === 'string') answer.text(chunk.content)
      }
      if (chunk.type === 'error') ending = { kind: 'failed', code: errorCodeOf(chunk) }
      if (chunk.type === 'done') ending = { kind: 'done', record: chunk.metadata?.chatrail }
    }
  } catch (error) {
    // the session records failures as chunks; a throw here is a bug in an adapter outside it
    input.onError(error)
    ending = { kind: 'failed', code: 'AGENT_ERROR' }
  } finally {
    clearInterval(renewal)
    clearTimeout(deadline)
    signals.end()
    unsubscribe()
    input.halt?.removeEventListener('abort', onHalt)
  }
  // a stream that ended without `done` is an answer cut short: kept as it is, like a stop
  const end: Ending = ending ?? { kind: 'stopped' }
  // a loop paused on approvals asks for them (the calls stay pending, stored with what the loop goes on from)
  const pausedLoop = end.kind === 'done' ? loop?.paused() : undefined
  // each call awaiting approval gets its confirmation record before the answer is stored (a reader then finds it)
  const paused = pausedLoop && input.approvals ? await input.approvals.propose(pausedLoop).catch((error: unknown) => (input.onError(error), pausedLoop)) : pausedLoop
  const asking = paused ? paused.calls.flatMap((call) => (call.approvalId === undefined ? [] : tools.requestApproval(call.id, call.approvalId))) : []
  if (asking.length > 0) sink.write([...encoder.encode({ type: 'done' }), ...asking])
  // no tool part is left `input-available`: a call without its result says why it has none
  const closing = tools.closeOpen(unfinishedToolText(end))
  if (closing.length > 0) sink.write([...encoder.encode({ type: 'done' }), ...closing])
  const record = end.kind === 'done' ? end.record : undefined
  const toolRecord = tools.stored()
  // where the turn's time went (a session made with `timings`), kept with the answer for the devtools
  const trace = session.traces().findLast((candidate) => candidate.messageId === user.id)
  // the write's own duration cannot be in what it writes: the store time before it can
  const timings = trace?.timings && input.storeSpentMs ? { ...trace.timings, storeBeforeWriteMs: input.storeSpentMs() } : trace?.timings
  const versions = input.write.answerVersions ?? (input.resume ? versionsOf(input.resume.answer) : undefined)
  const metadata: Record<string, unknown> = {
    ...(end.kind === 'failed' ? { error: { code: end.code } } : typeof record === 'object' && record !== null ? { chatrail: record } : fallbackTrace(trace)),
    ...(toolRecord ? { tools: toolRecord } : {}),
    ...(paused ? { toolLoop: paused } : {}),
    ...(timings ? { timings } : {}),
    ...extras.metadata(),
    // a regenerate keeps the reply it replaced as a version (message-versions.ts); a resumed answer keeps its own
    ...(versions ? { versions } : {}),
  }
  const assistant: Message = {
    id: input.assistantId,
    role: 'assistant',
    content: answer.content,
    ...(answer.parts ? { parts: answer.parts } : {}),
    status: end.kind === 'failed' ? 'error' : 'complete',
    createdAt: input.resume?.answer.createdAt ?? input.now(),
    ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
  }
  // an answer over the store's message limit is stored cut to fit (oversize-answer.ts), in the same
  // one write as the user message: never the whole turn lost and the agent run again on retry
  let stored = assistant
  // a head whose kept versions do not fit the store is stored without them: the turn matters more
  let storedUser = user
  for (let attempt = 0; ; attempt++) {
    try {
      const writing = input.now().getTime()
      await store.append(input.conversationId, {
        expectedVersion: input.expectedVersion,
        messages: input.write.includeUser ? [storedUser, stored] : [stored],
        definition: input.definition,
        ...(input.write.truncateAfter === undefined ? {} : { truncateAfter: input.write.truncateAfter }),
        ...(input.owner === undefined ? {} : { owner: input.owner }),
        lease,
        release: end.kind === 'failed' ? 'failed' : 'completed',
      })
      const cut = stored.metadata?.truncated !== undefined
      const data = withVersionPositions(withStoreMs(snapshotData(session, user.id), input.now().getTime() - writing), [...input.history, storedUser, stored])
      sink.write(end.kind === 'failed' ? failedEnd(encoder, data, end.code) : encoder.finish(data, cut ? 'length' : 'stop'))
    } catch (error) {
      input.onError(error)
      const tooLarge = attempt < 3 && isStoreMessageTooLargeError(error) ? error : undefined
      if (tooLarge?.messageId === user.id && storedUser === user && versionsOf(user)) {
        storedUser = withVersions(user, undefined)
        continue
      }
      if (tooLarge?.messageId === assistant.id && stored === assistant && versionsOf(assistant)) {
        stored = withVersions(assistant, undefined)
        continue
      }
      const fitted = tooLarge?.messageId === assistant.id && stored.metadata?.truncated === undefined ? fitAnswer(assistant, tooLarge.bytes, tooLarge.maxBytes) : undefined
      if (fitted) {
        stored = fitted
        continue
      }
      await store.release(lease, 'failed').catch(() => false)
      // no snapshot: the session moved, but what is stored did not
      sink.write([{ type: 'error', errorText: 'STORE_FAILED' }, ...encoder.finish(undefined, 'error')])
    }
    break
  }
  sink.close()
}

/**
 * An answer without a decision record is the agent's, unless the definition's fallback gave it (no
 * agent, or the agent failed): then it keeps the trace's kind, outcome and error class (names, no
 * text), so the devtools can tell the two apart in a stored history.
 */
function fallbackTrace(trace: TurnTrace | undefined): Record<string, unknown> {
  if (trace?.kind !== 'fallback') return {}
  return { trace: { kind: trace.kind, outcome: trace.outcome, ...(trace.errorClass === undefined ? {} : { errorClass: trace.errorClass }) } }
}

/** The snapshot with where the stored conversation's versions stand, for chatrail's client (never their content). */
export function withVersionPositions(data: ChatrailPartData, history: readonly Message[]): ChatrailPartData {
  const versions = versionPositions(history)
  return Object.keys(versions).length === 0 ? data : { ...data, versions }
}

/** The live trace with the turn's write time (a stored answer cannot carry the time of its own write). */
function withStoreMs(data: ChatrailPartData, storeMs: number): ChatrailPartData {
  const { trace } = data
  if (!trace?.timings) return data
  return { ...data, trace: { ...trace, timings: { ...trace.timings, storeMs: Math.max(0, storeMs) } } }
}

/**
 * The end of a failed turn: the snapshot and the failed answer's metadata before the `error` part,
 * since `useChat` stops reading at `error` (it would never learn the state after the failure).
 */
function failedEnd(encoder: ReturnType<typeof createUiPartEncoder>, data: ChatrailPartData, code: string): WirePart[] {
  const parts: WirePart[] = encoder.finish(data, 'error')
  const finish = parts.pop() as WirePart // `finish` goes last, after the error
  return [...parts, { type: 'message-metadata', messageMetadata: { chatrail: { status: 'error', error: { code } } } }, { type: 'error', errorText: code }, finish]
}
