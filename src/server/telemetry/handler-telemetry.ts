import type { Meter, Tracer } from '@opentelemetry/api'
import type { AdapterFactory } from '../../contract/adapter.js'
import type { ConversationStore } from '../../store/conversation-store.js'
import type { ActiveTelemetry } from './active-telemetry.js'
import { errorTypeOf } from './attributes.js'
import { createInstruments } from './instruments.js'
import { loadOpenTelemetryApi, type OpenTelemetryApi, type OpenTelemetryApiLoader } from './load-api.js'
import { startRequestSpan, type RequestSpan } from './request-span.js'
import { traceAdapter } from './traced-adapter.js'
import { traceStore } from './traced-store.js'
import { startTurnSpan, UNTRACED_TURN, type TurnSpan, type TurnStart } from './turn-span.js'

/**
 * `createChatHandler({ telemetry })`: OpenTelemetry spans and metrics for the handler's requests,
 * turns, agent calls, store operations and tools. On by default when `@opentelemetry/api` is
 * installed (an optional peer: without it nothing is loaded and nothing happens); with the API but
 * no SDK registered, its no-op tracer and meter cost next to nothing. `false` turns it off
 * without loading the API.
 */
export interface ChatTelemetryOptions {
  /** Where spans go. Default: the global API's `trace.getTracer('chatrail')` (whichever SDK the app registers, also after the handler is made). */
  readonly tracer?: Tracer
  /** Where metrics go. Default: the global API's `metrics.getMeter('chatrail')`, taken when the API has loaded (register the SDK's meter provider before making the handler). */
  readonly meter?: Meter
}

/** What the handler asks of its telemetry: each a pass-through while it is off, absent or loading. */
export interface HandlerTelemetry {
  /** Runs the request in its span (`<method> <route>`). */
  request: (request: Request, run: () => Promise<Response>) => Promise<Response>
  /** The handler answers `request` with this error response (a 409 `conversation_busy` is counted). */
  failed: (request: Request, status: number, code: string) => void
  /** A turn of `request` starts. */
  turn: (request: Request, start: TurnStart) => TurnSpan
  /** The store the handler uses: traced per operation. */
  store: (store: ConversationStore) => ConversationStore
  /** The definition's agent: traced per call. */
  adapter: (adapter: AdapterFactory) => AdapterFactory
}

const OFF: HandlerTelemetry = {
  request: (_request, run) => run(),
  failed: () => undefined,
  turn: () => UNTRACED_TURN,
  store: (store) => store,
  adapter: (adapter) => adapter,
}

/** The scope chatrail's tracer and meter are named by. */
export const INSTRUMENTATION_SCOPE = 'chatrail'

export function createHandlerTelemetry(options: ChatTelemetryOptions | false | undefined, onError: (error: unknown) => void, load: OpenTelemetryApiLoader = loadOpenTelemetryApi): HandlerTelemetry {
  if (options === false) return OFF
  if (options !== undefined && (typeof options !== 'object' || options === null)) {
    throw new TypeError(`createChatHandler: telemetry must be { tracer?, meter? } or false (got ${options === null ? 'null' : typeof options}).`)
  }
  let active: ActiveTelemetry | undefined
  // Until the API has loaded (a dynamic import, a few milliseconds after the handler is made), a
  // request waits for it, so the first requests are traced like the rest; then it costs nothing.
  // An API that fails to load, or a meter that fails to make its instruments, goes to `onError`:
  // the handler then serves without telemetry, never failing a request for it.
  let loading: Promise<void> | undefined = load()
    .then((api) => {
      if (api) active = activate(api, options ?? {})
    })
    .catch(onError)
    .finally(() => {
      loading = undefined
    })
  const current = (): ActiveTelemetry | undefined => active
  const requests = new WeakMap<Request, RequestSpan>()

  const traceRequest = async (request: Request, run: () => Promise<Response>): Promise<Response> => {
    const telemetry = active
    const span = telemetry && startRequestSpan(telemetry, request)
    // no telemetry, or the API's no-op tracer (no SDK): the request runs as it would without any
    if (!telemetry || !span) return run()
    requests.set(request, span)
    let response: Response
    try {
      response = await telemetry.api.context.with(span.context, run)
    } catch (error) {
      span.done(undefined, errorTypeOf(error))
      throw error
    }
    span.done(response.status)
    return response
  }

  return {
    request: (request, run) => (loading ? loading.then(() => traceRequest(request, run)) : traceRequest(request, run)),
    failed(request, status, code) {
      if (!active) return
      requests.get(request)?.failed(status, code)
      if (status === 409 && code === 'conversation_busy') active.instruments.busyResponses.add(1)
    },
    turn: (request, start) => (active ? startTurnSpan(active, requests.get(request), start) : UNTRACED_TURN),
    store: (store) => traceStore(store, current),
    adapter: (adapter) => traceAdapter(adapter, current),
  }
}

function activate(api: OpenTelemetryApi, options: ChatTelemetryOptions): ActiveTelemetry {
  const meter = options.meter ?? api.metrics.getMeter(INSTRUMENTATION_SCOPE)
  return {
    api,
    tracer: options.tracer ?? api.trace.getTracer(INSTRUMENTATION_SCOPE),
    instruments: createInstruments(meter),
    metered: meter.constructor !== api.createNoopMeter().constructor,
  }
}
