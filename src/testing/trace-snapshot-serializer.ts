import type { TurnTrace } from '../index.js'
import { isConversationRun, isTurnResult, isTurnTrace, describeValue } from './matcher-subject.js'
import { serializeTraceSnapshot } from './trace-snapshot.js'
import type { SnapshotTurn, TraceSnapshotOptions } from './trace-snapshot.js'

/**
 * The bridge between trace snapshots and a snapshot runner: `toMatchTraceSnapshot` stores a
 * marked object, and this serializer (vitest/jest `addSnapshotSerializer` shape) prints it as the
 * scrubbed YAML text itself rather than as a quoted string.
 */

const marker = Symbol.for('chatrail.traceSnapshot')

export interface TraceSnapshotValue { readonly [marker]: true; readonly text: string }

export const traceSnapshotSerializer = {
  test: (value: unknown): boolean => typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true,
  serialize: (value: TraceSnapshotValue): string => value.text,
}

function snapshotTurns(turns: readonly { number: number; label: string; reply: string; traces: readonly TurnTrace[]; snapshot: { state: string }; adapterCalls: readonly unknown[] }[]): SnapshotTurn[] {
  return turns.map((turn) => ({ number: turn.number, label: turn.label, reply: turn.reply, traces: turn.traces, state: turn.snapshot.state, modelCalls: turn.adapterCalls.length }))
}

/** What `toMatchTraceSnapshot` snapshots for a run, a turn, a trace or a list of traces. */
export function traceSnapshotValue(received: unknown, options: TraceSnapshotOptions = {}): { ok: true; snapshot: TraceSnapshotValue } | { ok: false; message: string } {
  const wrap = (text: string) => ({ ok: true as const, snapshot: { [marker]: true as const, text } })
  if (isConversationRun(received)) return wrap(serializeTraceSnapshot(snapshotTurns(received.turns), options))
  if (isTurnResult(received)) return wrap(serializeTraceSnapshot(snapshotTurns([received]), options))
  if (isTurnTrace(received)) return wrap(serializeTraceSnapshot([received], options))
  if (Array.isArray(received) && received.every(isTurnTrace)) return wrap(serializeTraceSnapshot(received, options))
  if (typeof received === 'object' && received !== null && typeof (received as { traces?: unknown }).traces === 'function') {
    const traces = (received as { traces: () => readonly TurnTrace[] }).traces()
    return wrap(serializeTraceSnapshot(traces, options))
  }
  return { ok: false, message: `expected a ConversationRun, a turn, a TurnTrace, a list of traces or a ChatSession; received ${describeValue(received)}` }
}
