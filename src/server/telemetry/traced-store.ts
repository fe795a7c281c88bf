import type { Attributes, Span } from '@opentelemetry/api'
import type { ConversationStore } from '../../store/conversation-store.js'
import { isNoopSpan, monotonicMs, type ActiveTelemetry, type CurrentTelemetry } from './active-telemetry.js'
import { CONVERSATION_ID, ERROR_TYPE, errorTypeOf, safeName, STORE_KIND, STORE_OPERATION, STORE_RESULT } from './attributes.js'

/**
 * The handler's store with a span per operation (`chatrail.store.<operation>`, a child of whatever
 * span is active: the request's, or the turn's while a turn runs) and its duration in the
 * `chatrail.store.operation.duration` histogram. The store itself is not changed, and every
 * property this does not trace (a store's own additions, `kind`) reads through unchanged: an
 * optional operation the store lacks stays absent. A failed operation's span is status ERROR with
 * `error.type` its code (`STORE_CONFLICT`, `STORE_UNAVAILABLE`) or class, never its message (a
 * database's error may quote the value it refused, which can be a message's text).
 */

/** The port's operations, and how each names its conversation: its first argument, or its first argument's `conversationId` (a lease). */
const OPERATIONS: ReadonlyMap<string, 'id' | 'lease' | 'none'> = new Map([
  ['open', 'none'], ['load', 'id'], ['append', 'id'], ['claim', 'id'], ['renew', 'lease'], ['release', 'lease'], ['signal', 'id'],
  ['takeSignals', 'lease'], ['appendTurnParts', 'id'], ['readTurnParts', 'id'],
  // a confirmation's key is its token, a secret: never an attribute
  ['saveConfirmation', 'none'], ['loadConfirmation', 'none'], ['listConfirmations', 'none'],
  ['delete', 'id'], ['list', 'none'], ['expire', 'none'], ['close', 'none'],
])

type Operation = (...args: unknown[]) => unknown

export function traceStore(store: ConversationStore, current: CurrentTelemetry): ConversationStore {
  // one wrapper per operation, made on first use and remade only if the store's own function changes
  const wrappers = new Map<string | symbol, { readonly of: Operation; readonly wrapper: Operation }>()
  return new Proxy(store, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown
      if (typeof value !== 'function') return value
      const known = wrappers.get(key)
      if (known?.of === value) return known.wrapper
      const operation = value as Operation
      const naming = typeof key === 'string' ? OPERATIONS.get(key) : undefined
      const wrapper: Operation = naming === undefined
        ? operation.bind(target) // not an operation of the port: unchanged, bound to the store (a class's private fields)
        : (...args) => {
          const telemetry = current()
          return telemetry ? traced(telemetry, target.kind, key as string, conversationOf(naming, args[0]), () => operation.apply(target, args)) : operation.apply(target, args)
        }
      wrappers.set(key, { of: operation, wrapper })
      return wrapper
    },
  })
}

function conversationOf(naming: 'id' | 'lease' | 'none', first: unknown): string | undefined {
  if (naming === 'id') return typeof first === 'string' ? first : undefined
  if (naming === 'lease' && typeof first === 'object' && first !== null) {
    const id = (first as { conversationId?: unknown }).conversationId
    return typeof id === 'string' ? id : undefined
  }
  return undefined
}

function traced(telemetry: ActiveTelemetry, kind: string, operation: string, conversationId: string | undefined, run: () => unknown): unknown {
  const { api, tracer, instruments } = telemetry
  const parent = api.context.active()
  const span = tracer.startSpan(`chatrail.store.${operation}`, { kind: api.SpanKind.INTERNAL }, parent)
  // the API's no-op tracer (no SDK): no context to enter; and with its no-op meter, nothing to measure
  const noop = isNoopSpan(telemetry, span)
  if (noop && !telemetry.metered) return run()
  const storeKind = safeName(kind)
  if (span.isRecording()) {
    span.setAttributes({ [STORE_OPERATION]: operation, [STORE_KIND]: storeKind })
    if (conversationId !== undefined) span.setAttribute(CONVERSATION_ID, safeName(conversationId))
  }
  const began = monotonicMs()
  const settle = (error: unknown, failed: boolean, result?: unknown): void => {
    const metric: Attributes = { [STORE_OPERATION]: operation, [STORE_KIND]: storeKind }
    if (failed) {
      const type = errorTypeOf(error)
      metric[ERROR_TYPE] = type
      fail(telemetry, span, type)
    } else if (span.isRecording()) {
      const status = (result as { status?: unknown } | null | undefined)?.status
      if (typeof status === 'string') span.setAttribute(STORE_RESULT, safeName(status))
    }
    if (telemetry.metered) instruments.storeDuration.record((monotonicMs() - began) / 1000, metric)
    span.end()
  }
  let result: unknown
  try {
    result = noop ? run() : api.context.with(api.trace.setSpan(parent, span), run)
  } catch (error) {
    settle(error, true)
    throw error
  }
  if (!isThenable(result)) {
    settle(undefined, false, result)
    return result
  }
  return result.then(
    (value) => {
      settle(undefined, false, value)
      return value
    },
    (error: unknown) => {
      settle(error, true)
      throw error
    },
  )
}

function fail(telemetry: ActiveTelemetry, span: Span, type: string): void {
  if (!span.isRecording()) return
  span.setAttribute(ERROR_TYPE, type)
  span.setStatus({ code: telemetry.api.SpanStatusCode.ERROR, message: type })
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function'
}
