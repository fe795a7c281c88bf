import type { Context, Span } from '@opentelemetry/api'
import { isIdentifier } from '../../conversation/identifier.js'
import { isNoopSpan, type ActiveTelemetry } from './active-telemetry.js'
import { CONVERSATION_ID, ERROR_CODE, ERROR_TYPE, HTTP_REQUEST_METHOD, HTTP_RESPONSE_STATUS_CODE, HTTP_ROUTE, URL_PATH, URL_SCHEME } from './attributes.js'

/**
 * One request's span, `<method> <route>`: SERVER when nothing above it is a span, INTERNAL under
 * an HTTP instrumentation's own server span. It ends once the response is returned and, for a
 * turn, once the turn has ended too (a turn's answer streams on after the response's headers).
 * A 4xx leaves the status unset (the client's mistake, not the server's, as the HTTP conventions
 * have it) and names its code in `chatrail.error.code`; a 5xx is status ERROR with `error.type`
 * the response's code (`internal_error`, `store_unavailable`).
 */
export interface RequestSpan {
  readonly span: Span
  /** The context its children start in. */
  readonly context: Context
  /** Keeps the span open until the returned function is called (a turn running past the response). */
  hold: () => () => void
  /** The handler answers with this error response. */
  failed: (status: number, code: string) => void
  /** The response is returned (`status`), or the handler threw (`thrown`: the error's type); the span ends unless held. */
  done: (status: number | undefined, thrown?: string) => void
}

/** The request's span, or undefined when the tracer is the API's no-op one (nothing to record or propagate). */
export function startRequestSpan(telemetry: ActiveTelemetry, request: Request): RequestSpan | undefined {
  const { api, tracer } = telemetry
  const parent = api.context.active()
  const kind = api.trace.getSpan(parent) === undefined ? api.SpanKind.SERVER : api.SpanKind.INTERNAL
  const method = knownMethod(request.method)
  const span = tracer.startSpan(method === '_OTHER' ? 'HTTP' : method, { kind, attributes: { [HTTP_REQUEST_METHOD]: method } }, parent)
  if (isNoopSpan(telemetry, span)) return undefined
  // the URL is parsed only for a span that records (an unsampled span pays nothing for it)
  if (span.isRecording()) describeRequest(span, request, method)
  let open = 1
  const release = (): void => {
    if (--open === 0) span.end()
  }
  const fail = (type: string): void => {
    span.setAttribute(ERROR_TYPE, type)
    span.setStatus({ code: api.SpanStatusCode.ERROR, message: type })
  }
  let typed = false
  return {
    span,
    context: api.trace.setSpan(parent, span),
    hold() {
      open++
      let released = false
      return () => {
        if (released) return
        released = true
        release()
      }
    },
    failed(status, code) {
      if (!span.isRecording()) return
      span.setAttribute(ERROR_CODE, code)
      if (status >= 500) {
        typed = true
        fail(code)
      }
    },
    done(status, thrown) {
      if (span.isRecording()) {
        if (status !== undefined) span.setAttribute(HTTP_RESPONSE_STATUS_CODE, status)
        if (thrown !== undefined) fail(thrown)
        else if (status !== undefined && status >= 500 && !typed) fail(String(status))
      }
      release()
    },
  }
}

/**
 * The URL's path and the route: the path itself (the handler is mounted at it), except a resumed
 * stream's `<api>/<id>/stream`, whose id becomes `{id}` so the route stays one value per mount.
 * The query is never recorded; its `id` is, as `chatrail.conversation.id`.
 */
function describeRequest(span: Span, request: Request, method: string): void {
  let url: URL
  try {
    url = new URL(request.url)
  } catch {
    return
  }
  const path = url.pathname
  let route = path
  let conversationId = url.searchParams.get('id') ?? undefined
  if (conversationId === undefined) {
    const resumed = /\/([^/]+)(\/stream\/?)$/.exec(path)
    if (resumed) {
      route = `${path.slice(0, resumed.index)}/{id}${resumed[2] as string}`
      conversationId = decoded(resumed[1] as string)
    }
  }
  span.updateName(`${method === '_OTHER' ? 'HTTP' : method} ${route}`)
  span.setAttributes({ [URL_PATH]: path, [URL_SCHEME]: url.protocol.replace(/:$/, ''), [HTTP_ROUTE]: route })
  if (conversationId !== undefined && isIdentifier(conversationId)) span.setAttribute(CONVERSATION_ID, conversationId)
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH'])

/** The method, or `_OTHER` for one HTTP does not define (the conventions' rule: a client's made-up method is not a span name). */
function knownMethod(method: string): string {
  return METHODS.has(method) ? method : '_OTHER'
}

function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}
