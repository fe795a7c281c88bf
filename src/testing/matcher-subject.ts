import type { SessionSnapshot, TurnTrace } from '../index.js'
import type { ConversationRun, TurnResult } from './conversations/run-result.js'
import { formatTraceBlock } from './trace-line.js'

/**
 * What the matchers accept and how they read it: a `TurnTrace`, a `TurnResult` (one step of
 * `runConversation`), a `ConversationRun` (read as its last turn, or its totals for model calls),
 * a `ChatSession` (its last trace, its snapshot) or a `SessionSnapshot`.
 */

type Record_ = Record<string, unknown>

const isObject = (value: unknown): value is Record_ => typeof value === 'object' && value !== null

export function isTurnTrace(value: unknown): value is TurnTrace {
  return isObject(value) && typeof value.kind === 'string' && typeof value.outcome === 'string' && typeof value.fromState === 'string' && typeof value.toState === 'string'
}

export function isTurnResult(value: unknown): value is TurnResult {
  return isObject(value) && typeof value.number === 'number' && Array.isArray(value.traces) && isObject(value.snapshot) && isObject(value.step)
}

export function isConversationRun(value: unknown): value is ConversationRun {
  return isObject(value) && Array.isArray(value.turns) && Array.isArray(value.traces) && isObject(value.snapshot)
}

function isSession(value: unknown): value is { getSnapshot: () => SessionSnapshot; traces: () => readonly TurnTrace[] } {
  return isObject(value) && typeof value.getSnapshot === 'function' && typeof value.traces === 'function'
}

function isSnapshot(value: unknown): value is SessionSnapshot {
  return isObject(value) && typeof value.state === 'string' && isObject(value.context) && Array.isArray(value.events)
}

/** A subject the matcher could read, with a label for messages and the traces to show. */
export interface Subject<T> {
  value: T
  label: string
  traces: readonly TurnTrace[]
}

export type SubjectResult<T> = { ok: true; subject: Subject<T> } | { ok: false; message: string }

const expects = 'a TurnTrace, a turn of runConversation, a ConversationRun or a ChatSession'

export function describeValue(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return `an array of ${value.length}`
  if (isObject(value)) return `an object with keys ${Object.keys(value).slice(0, 6).join(', ') || '(none)'}`
  return `${typeof value} ${JSON.stringify(value)}`
}

function lastTurn(run: ConversationRun): TurnResult | undefined {
  return run.turns[run.turns.length - 1]
}

/** The trace a route/kind/transition/replayed matcher checks. */
export function traceSubject(received: unknown): SubjectResult<TurnTrace | undefined> {
  if (isTurnTrace(received)) return { ok: true, subject: { value: received, label: 'the trace', traces: [received] } }
  if (isTurnResult(received)) return { ok: true, subject: { value: received.trace, label: `turn ${received.number} (${received.label})`, traces: received.traces } }
  if (isConversationRun(received)) {
    const turn = lastTurn(received)
    if (turn === undefined) return { ok: false, message: 'the conversation run has no turns' }
    return { ok: true, subject: { value: turn.trace, label: `the last turn, ${turn.number} (${turn.label})`, traces: turn.traces } }
  }
  if (isSession(received)) {
    const traces = received.traces()
    return { ok: true, subject: { value: traces[traces.length - 1], label: "the session's last turn", traces: traces.slice(-1) } }
  }
  return { ok: false, message: `expected ${expects}; received ${describeValue(received)}` }
}

/** The snapshot a state/context matcher checks. */
export function snapshotSubject(received: unknown): SubjectResult<SessionSnapshot> {
  if (isTurnResult(received)) return { ok: true, subject: { value: received.snapshot, label: `after turn ${received.number} (${received.label}), the session`, traces: received.traces } }
  if (isConversationRun(received)) return { ok: true, subject: { value: received.snapshot, label: 'at the end of the run, the session', traces: received.traces.slice(-3) } }
  if (isSession(received)) return { ok: true, subject: { value: received.getSnapshot(), label: 'the session', traces: received.traces().slice(-3) } }
  if (isSnapshot(received)) return { ok: true, subject: { value: received, label: 'the snapshot', traces: [] } }
  return { ok: false, message: `expected a turn of runConversation, a ConversationRun, a ChatSession or a SessionSnapshot; received ${describeValue(received)}` }
}

/** The model-call count `toMakeModelCalls` checks. */
export function modelCallSubject(received: unknown): SubjectResult<number> {
  if (isTurnResult(received)) return { ok: true, subject: { value: received.adapterCalls.length, label: `turn ${received.number} (${received.label})`, traces: received.traces } }
  if (isConversationRun(received)) return { ok: true, subject: { value: received.adapterCalls.length, label: 'the conversation run', traces: received.traces } }
  // A recording or scripted adapter: anything with a `calls` array.
  if (isObject(received) && Array.isArray(received.calls)) return { ok: true, subject: { value: received.calls.length, label: 'the adapter', traces: [] } }
  return { ok: false, message: `expected a turn of runConversation, a ConversationRun or an adapter with \`calls\`; received ${describeValue(received)}` }
}

/** The "trace:" block every failure message ends with. */
export function traceSection(traces: readonly TurnTrace[]): string {
  return `\n\ntrace:\n${formatTraceBlock(traces)}`
}
