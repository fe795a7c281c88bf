import type { ChatDefinition } from '../conversation/definition.js'
import type { JsonObject } from '../conversation/json.js'
import type { RecordKey } from '../conversation/record-crypto.js'
import { isIdentifier } from '../conversation/identifier.js'
import type { Authenticate } from '../server/create-chat-handler.js'
import { errorResponse, HttpError, jsonResponse } from '../server/http-responses.js'
import { readJsonBody } from '../server/read-json-body.js'
import { isStoreUnavailableError } from '../store/store-errors.js'
import type { ConversationStore } from '../store/conversation-store.js'
import { isChatrailConfigError } from '../conversation/config-error.js'
import { conversationDetailJson } from './conversation-request.js'
import { definitionView } from './definition-view.js'
import { DEFAULT_DEVTOOLS_BASE_PATH, type DefinitionList } from './devtools-api.js'
import { createDevtoolsContext, type DevtoolsContext } from './devtools-context.js'
import { eventsResponse } from './events-stream.js'
import { explainMessage, whatIf } from './explain-request.js'
import { listConversations, warmUp } from './list-request.js'

/**
 * `createDevtoolsHandler`: the devtools JSON API (devtools-api.ts) as one Web-standard
 * `Request → Response` handler beside the chat's: a router over small request handlers sharing
 * one context. Authenticated like the chat (the same `authenticate`, or `'none'` for a loopback
 * tool), and read-only: it loads and lists conversations and reads a lease's state, and never
 * writes a conversation, claims, renews or signals a lease, or touches a session's decision cache
 * (every explanation and walk runs on its own, discarded).
 */

/** The module the exported file's `definition:` line names, relative to where the file will live. */
export interface ExportModuleRef {
  readonly module: string
  readonly export?: string
}

export interface DevtoolsHandlerOptions {
  readonly store: ConversationStore
  /** The definitions whose conversations it explains (one per id: the revision served today). */
  readonly definitions: readonly ChatDefinition<JsonObject>[]
  /** As the chat handler's: a function returning the principal (null: 401), or `'none'` (a local tool, a test). */
  readonly authenticate: Authenticate | 'none'
  /** Where the API is mounted. Default `/devtools/api`. */
  readonly basePath?: string
  /**
   * `'owner'` (default): a principal sees the conversations it owns (with `authenticate: 'none'`,
   * all of them); `'all'`: every authenticated principal sees every conversation (an operator's
   * `authenticate`, not the chat users').
   */
  readonly access?: 'owner' | 'all'
  /** The sessions' `recordKey`, to report a record as `verified` or `forged` rather than `signed`. */
  readonly recordKey?: RecordKey
  /** The exported file's `definition:` line. Default `{ module: './definition.ts' }`. */
  readonly exportModule?: ExportModuleRef | ((definition: ChatDefinition<JsonObject>) => ExportModuleRef)
  /** Milliseconds since the epoch. Default `Date.now`. */
  readonly clock?: () => number
  readonly onError?: (error: unknown) => void
  /** `GET /events`: poll interval (default 1 s), stream lifetime (default 5 min), heartbeat (default 15 s). */
  readonly events?: { readonly pollMs?: number; readonly maxMs?: number; readonly heartbeatMs?: number }
  /** The largest what-if body. Default 64 KiB. */
  readonly maxBodyBytes?: number
  /**
   * Compute the newest page's facts as soon as the handler is made, in the background (reads only;
   * a failure goes to `onError`), so the first listing finds them ready. Default true.
   */
  readonly warmUp?: boolean
}

export interface DevtoolsHandler {
  (request: Request): Promise<Response>
  /** Ends every open `/events` stream; later requests are 503. It does not close the store. */
  close: () => void
}

type Route =
  | { readonly name: 'list' }
  | { readonly name: 'detail'; readonly id: string }
  | { readonly name: 'explain'; readonly id: string; readonly messageId: string }
  | { readonly name: 'export'; readonly id: string }
  | { readonly name: 'definitions' }
  | { readonly name: 'what-if' }
  | { readonly name: 'events' }

const ROUTES_TEXT = 'GET conversations, conversations/<id>, conversations/<id>/messages/<messageId>/explain, conversations/<id>/export, definitions, events; POST what-if'

function identifier(value: string, path: string): string {
  let decoded: string
  try {
    decoded = decodeURIComponent(value)
  } catch {
    decoded = value
  }
  if (!isIdentifier(decoded)) throw new HttpError(400, 'invalid_id', `The ${path} must be letters, digits and . _ : - (starting with a letter or digit, at most 128 characters).`, { path })
  return decoded
}

function matchRoute(segments: readonly string[]): { route: Route; method: 'GET' | 'POST' } | undefined {
  const [first, id, third, messageId, fifth] = segments
  if (first === 'conversations') {
    if (segments.length === 1) return { route: { name: 'list' }, method: 'GET' }
    if (segments.length === 2) return { route: { name: 'detail', id: identifier(id as string, 'conversation id') }, method: 'GET' }
    if (segments.length === 3 && third === 'export') return { route: { name: 'export', id: identifier(id as string, 'conversation id') }, method: 'GET' }
    if (segments.length === 5 && third === 'messages' && fifth === 'explain') {
      return { route: { name: 'explain', id: identifier(id as string, 'conversation id'), messageId: identifier(messageId as string, 'message id') }, method: 'GET' }
    }
    return undefined
  }
  if (segments.length !== 1) return undefined
  if (first === 'definitions') return { route: { name: 'definitions' }, method: 'GET' }
  if (first === 'what-if') return { route: { name: 'what-if' }, method: 'POST' }
  if (first === 'events') return { route: { name: 'events' }, method: 'GET' }
  return undefined
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback
  if (!Number.isSafeInteger(value) || value <= 0) throw new TypeError(`createDevtoolsHandler: ${name} must be a positive integer (got ${String(value)}).`)
  return value
}

export function createDevtoolsHandler(options: DevtoolsHandlerOptions): DevtoolsHandler {
  if (options.authenticate !== 'none' && typeof options.authenticate !== 'function') {
    throw new TypeError("createDevtoolsHandler: pass `authenticate` (the chat's: a function returning the principal, or null for 401) or `authenticate: 'none'` for a tool only this machine reaches.")
  }
  if (options.access !== undefined && options.access !== 'owner' && options.access !== 'all') throw new TypeError(`createDevtoolsHandler: access is 'owner' or 'all' (got ${JSON.stringify(options.access)}).`)
  const authenticate = options.authenticate
  const basePath = (options.basePath ?? DEFAULT_DEVTOOLS_BASE_PATH).replace(/\/+$/, '')
  const clock = options.clock ?? Date.now
  const onError = (error: unknown): void => {
    try {
      options.onError?.(error)
    } catch {
      // an observer that throws must not change a response
    }
  }
  const context: DevtoolsContext = createDevtoolsContext({
    store: options.store,
    definitions: options.definitions,
    access: options.access ?? 'owner',
    clock,
    onError,
    ...(options.recordKey === undefined ? {} : { recordKey: options.recordKey }),
  })
  const events = {
    pollMs: positive(options.events?.pollMs, 1000, 'events.pollMs'),
    maxMs: positive(options.events?.maxMs, 5 * 60_000, 'events.maxMs'),
    heartbeatMs: positive(options.events?.heartbeatMs, 15_000, 'events.heartbeatMs'),
  }
  const maxBodyBytes = positive(options.maxBodyBytes, 64 * 1024, 'maxBodyBytes')
  const closed = new AbortController()
  if (options.warmUp !== false) void warmUp(context).catch(onError)
  const definitions: DefinitionList = { definitions: [...context.definitions.values()].map(({ definition, machine }) => definitionView(definition, machine)) }
  const exportModule = (definition: ChatDefinition<JsonObject>): ExportModuleRef => {
    const ref = options.exportModule
    if (ref === undefined) return { module: './definition.ts' }
    return typeof ref === 'function' ? ref(definition) : ref
  }

  const principalOf = async (request: Request): Promise<string | undefined> => {
    if (authenticate === 'none') return undefined
    const principal = await authenticate(request)
    if (principal === null || principal === undefined) throw new HttpError(401, 'unauthorized', 'Authenticate to use the devtools (the same credentials as the chat).')
    if (typeof principal !== 'string' || principal === '' || principal.length > 512) {
      onError(new TypeError('createDevtoolsHandler: authenticate must return a principal id (a non-empty string of at most 512 characters), or null for 401.'))
      throw new HttpError(500, 'internal_error', 'The server failed to handle this request.')
    }
    return principal
  }

  const exportResponse = async (id: string, url: URL, principal: string | undefined): Promise<Response> => {
    const redact = url.searchParams.get('redact')
    const format = url.searchParams.get('format')
    if (redact !== null && redact !== '1' && redact !== '0' && redact !== 'true' && redact !== 'false') throw new HttpError(400, 'invalid_query', `redact is 1 or 0 (got ${JSON.stringify(redact)}).`, { path: 'redact' })
    if (format !== null && format !== 'yaml' && format !== 'json') throw new HttpError(400, 'invalid_query', `format is yaml (default) or json (got ${JSON.stringify(format)}).`, { path: 'format' })
    const stored = await context.load(id, principal)
    const known = context.definitions.get(stored.definition.id)
    if (!known) throw new HttpError(404, 'unknown_definition', `The conversation was written under definition "${stored.definition.id}", which this handler was not given; pass it in \`definitions\` to export it.`)
    if (!stored.messages.some((message) => message.role === 'user')) throw new HttpError(409, 'nothing_to_export', 'The conversation has no user message yet: a test needs at least one turn.')
    // loaded on the first export: it brings the testing kit's runner (and the controller) along
    const { exportConversation } = await import('./export-conversation.js')
    const exported = await exportConversation(known.definition, stored, { module: exportModule(known.definition), redact: redact === '1' || redact === 'true' })
    if (format === 'json') return jsonResponse(200, exported)
    const response = new Response(exported.yaml, { status: 200 })
    response.headers.set('content-type', 'text/yaml; charset=utf-8')
    response.headers.set('cache-control', 'no-store')
    response.headers.set('content-disposition', `attachment; filename="${exported.fileName}"`)
    if (exported.redacted) response.headers.set('x-chatrail-redaction-kept', exported.keptTurns.join(','))
    return response
  }

  const serve = async (request: Request, route: Route, url: URL, principal: string | undefined): Promise<Response> => {
    switch (route.name) {
      case 'list':
        return jsonResponse(200, await listConversations(context, url, principal))
      case 'detail':
        return jsonText(await conversationDetailJson(context, route.id, principal, url))
      case 'explain':
        return jsonResponse(200, await explainMessage(context, route.id, route.messageId, principal))
      case 'export':
        return exportResponse(route.id, url, principal)
      case 'definitions':
        return jsonResponse(200, definitions)
      case 'what-if':
        return jsonResponse(200, await whatIf(context, await readJsonBody(request, maxBodyBytes)))
      case 'events':
        return eventsResponse(context, request, principal, { ...events, closed: closed.signal })
    }
  }

  const handle = async (request: Request): Promise<Response> => {
    try {
      if (closed.signal.aborted) throw new HttpError(503, 'shutting_down', 'The devtools are shutting down.')
      const url = new URL(request.url)
      if (url.pathname !== basePath && !url.pathname.startsWith(`${basePath}/`)) throw new HttpError(404, 'unknown_route', `The devtools API is under ${basePath}/ (${ROUTES_TEXT}).`)
      // authentication before anything about the request is looked at
      const principal = await principalOf(request)
      const segments = url.pathname.slice(basePath.length).split('/').filter((segment) => segment !== '')
      const matched = matchRoute(segments)
      if (!matched) throw new HttpError(404, 'unknown_route', `No devtools endpoint at ${url.pathname}; the API has ${ROUTES_TEXT} under ${basePath}/.`)
      if (request.method !== matched.method && !(matched.method === 'GET' && request.method === 'HEAD')) {
        throw new HttpError(405, 'method_not_allowed', `${request.method} is not served at ${url.pathname}; use ${matched.method}.`, { headers: { allow: matched.method } })
      }
      // an events stream lasts minutes: it is no request a background walk waits for
      return matched.route.name === 'events' ? await serve(request, matched.route, url, principal) : await context.serving(() => serve(request, matched.route, url, principal))
    } catch (error) {
      return errorResponse(toHttpError(error, onError))
    }
  }
  return Object.assign(handle, { close: () => closed.abort() })
}

/** A JSON body already serialized (the detail keeps its text per stored version). */
function jsonText(text: string): Response {
  const response = new Response(text, { status: 200 })
  response.headers.set('content-type', 'application/json; charset=utf-8')
  response.headers.set('cache-control', 'no-store')
  return response
}

function toHttpError(error: unknown, onError: (error: unknown) => void): HttpError {
  if (error instanceof HttpError) return error
  onError(error)
  if (isStoreUnavailableError(error)) return new HttpError(503, 'store_unavailable', 'The conversation store is unavailable; retry later.', { headers: { 'retry-after': '5' } })
  if (isChatrailConfigError(error) && error.issues[0]?.code === 'invalid_cursor') return new HttpError(400, 'invalid_cursor', error.message, { path: 'cursor' })
  return new HttpError(500, 'internal_error', 'The server failed to handle this request.')
}
