import type { Span, Tracer } from '@opentelemetry/api'
import type { Instruments } from './instruments.js'
import type { OpenTelemetryApi } from './load-api.js'

/** Telemetry once the API is loaded: what every span and metric is made with. */
export interface ActiveTelemetry {
  readonly api: OpenTelemetryApi
  readonly tracer: Tracer
  readonly instruments: Instruments
  /**
   * False when the meter is the API's no-op one (no SDK registered a meter provider before the API
   * loaded; a meter never becomes a real one later): then no duration is measured at all.
   */
  readonly metered: boolean
}

/** The telemetry in effect now: undefined while the API loads, when it is absent, or when telemetry is off. */
export type CurrentTelemetry = () => ActiveTelemetry | undefined

/**
 * A span from the API's no-op tracer (no SDK registered yet): it records nothing and carries no
 * trace to propagate, so its work can be skipped. An SDK's span always has a valid context, also
 * when it is not sampled (its children must then know they are not sampled either).
 */
export function isNoopSpan(telemetry: ActiveTelemetry, span: Span): boolean {
  return !span.isRecording() && !telemetry.api.trace.isSpanContextValid(span.spanContext())
}

/** Milliseconds, monotonic (durations never go negative when the wall clock is set back). */
export const monotonicMs = (): number => performance.now()
