import type { TurnTrace } from '../index.js'

/**
 * One trace as one readable line, for failure messages and reports:
 * `deterministic ok · route start · event START · idle → menu · replayed`.
 * Decision metadata only (traces carry no prompt or reply text). Pure.
 */
export function formatTraceLine(trace: TurnTrace): string {
  const parts: string[] = [`${trace.kind} ${trace.outcome}`]
  if (trace.routeId !== undefined) parts.push(`route ${trace.routeId}`)
  if (trace.event !== undefined) parts.push(`event ${trace.event}`)
  parts.push(`${trace.fromState} → ${trace.toState}`)
  if (trace.replayed) parts.push('replayed')
  if (trace.errorClass !== undefined) parts.push(`error ${trace.errorClass}`)
  if (trace.reason !== undefined) parts.push(`reason: ${trace.reason}`)
  return parts.join(' · ')
}

/** Several traces, one per line with a gutter, or `(no trace)`. */
export function formatTraceBlock(traces: readonly TurnTrace[], indent = '  '): string {
  if (traces.length === 0) return `${indent}(no trace)`
  return traces.map((trace) => `${indent}${formatTraceLine(trace)}`).join('\n')
}
