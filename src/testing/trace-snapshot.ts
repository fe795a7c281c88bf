import { stringify } from 'yaml'
import type { TurnTrace } from '../index.js'

/**
 * Stable snapshots of traces. Ids become ordinals in order of first appearance (`<turn-1>`,
 * `<message-2>`), so a replayed trace still visibly shares its original's message id, while
 * timestamps and durations become fixed placeholders. Keys come out in one fixed order.
 */

const idKeys: Record<string, string> = { sessionId: 'session', turnId: 'turn', messageId: 'message', toolCallId: 'tool-call' }
const fixedOrder = ['kind', 'outcome', 'routeId', 'event', 'fromState', 'toState', 'replayed', 'reason', 'errorClass', 'sessionId', 'turnId', 'messageId', 'at', 'durationMs']
const uuidPattern = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi
const isoPattern = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})/g

/** Maps raw ids to ordinals; one scrubber per snapshot so equal ids stay equal. */
export class IdScrubber {
  private readonly seen = new Map<string, string>()
  private readonly counters = new Map<string, number>()

  id(kind: string, raw: string): string {
    const key = `${kind}\u0000${raw}`
    const known = this.seen.get(key)
    if (known !== undefined) return known
    const next = (this.counters.get(kind) ?? 0) + 1
    this.counters.set(kind, next)
    const placeholder = `<${kind}-${next}>`
    this.seen.set(key, placeholder)
    return placeholder
  }

  /** Free text (a reason, a reply) with embedded UUIDs and ISO timestamps replaced. */
  text(value: string): string {
    return value.replace(uuidPattern, (raw) => this.id('uuid', raw.toLowerCase())).replace(isoPattern, '<timestamp>')
  }
}

/** A trace with ids, timestamps and durations scrubbed and keys in a fixed order. Pure given the scrubber. */
export function scrubTrace(trace: TurnTrace, scrubber: IdScrubber = new IdScrubber()): Record<string, unknown> {
  const record = trace as unknown as Record<string, unknown>
  const keys = [...fixedOrder.filter((key) => key in record), ...Object.keys(record).filter((key) => !fixedOrder.includes(key)).sort()]
  const out: Record<string, unknown> = {}
  for (const key of keys) {
    const value = record[key]
    if (value === undefined) continue
    out[key] = scrubValue(key, value, scrubber)
  }
  return out
}

function scrubValue(key: string, value: unknown, scrubber: IdScrubber): unknown {
  const idKind = idKeys[key]
  if (idKind !== undefined && typeof value === 'string') return scrubber.id(idKind, value)
  if (key === 'at' || key.endsWith('At')) return '<timestamp>'
  if (key.startsWith('duration')) return '<duration>'
  if (typeof value === 'string') return scrubber.text(value)
  return value
}

/** What `toMatchTraceSnapshot` prints for each kind of subject; `replies` says which reply texts to keep. */
export interface TraceSnapshotOptions {
  /** `deterministic` (default) keeps route replies and drops model text; `all` keeps both; `none` keeps neither. */
  replies?: 'deterministic' | 'all' | 'none'
}

/** One step's worth of snapshot input (a `TurnResult` satisfies it). */
export interface SnapshotTurn {
  number: number
  label: string
  reply: string
  traces: readonly TurnTrace[]
  state: string
  modelCalls: number
}

/** The text a trace snapshot stores: YAML, stable across runs. */
export function serializeTraceSnapshot(subject: readonly TurnTrace[] | readonly SnapshotTurn[], options: TraceSnapshotOptions = {}): string {
  const scrubber = new IdScrubber()
  const replies = options.replies ?? 'deterministic'
  const body = subject.map((item) => {
    if (!('label' in item)) return scrubTrace(item, scrubber)
    const keepReply = replies === 'all' || (replies === 'deterministic' && item.traces.length > 0 && item.traces.every((trace) => trace.kind === 'deterministic'))
    return {
      turn: item.number,
      step: item.label,
      ...(keepReply ? { reply: scrubber.text(item.reply) } : {}),
      state: item.state,
      modelCalls: item.modelCalls,
      traces: item.traces.map((trace) => scrubTrace(trace, scrubber)),
    }
  })
  return stringify(body, { lineWidth: 0 }).trimEnd()
}
