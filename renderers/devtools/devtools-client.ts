import type {
  ConversationDetail,
  ConversationDetailQuery,
  ConversationListPage,
  ConversationListQuery,
  DefinitionList,
  DevtoolsErrorBody,
  MessageExplanation,
  WhatIfRequest,
  WhatIfResponse,
} from '../../src/devtools/devtools-api.js'

/**
 * The page's side of the devtools JSON API (src/devtools/devtools-api.ts): one function per
 * endpoint, typed by the API's own shapes, every request with the caller's headers (the bearer
 * token). Read-only, as the API is. A failure rejects with `DevtoolsRequestError`, carrying the
 * API's error code and message, so a view can say what went wrong in the API's words.
 */

export interface DevtoolsClientOptions {
  /** The API's base path or URL (`/devtools/api` under `chatrail serve`). */
  readonly baseUrl: string
  /** Sent with every request: `{ authorization: 'Bearer …' }` for a token. */
  readonly headers?: Readonly<Record<string, string>>
  /** Default: the global `fetch`. */
  readonly fetch?: typeof fetch
}

export class DevtoolsRequestError extends Error {
  override readonly name = 'DevtoolsRequestError'
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message)
  }
}

export interface ExportedFile {
  readonly fileName: string
  readonly yaml: string
}

export interface DevtoolsClient {
  listConversations: (query: ConversationListQuery, signal?: AbortSignal) => Promise<ConversationListPage>
  /** The newest turns; `query.before` (a `page.earlier`) for the ones before. */
  conversation: (id: string, signal?: AbortSignal, query?: ConversationDetailQuery) => Promise<ConversationDetail>
  explain: (id: string, messageId: string, signal?: AbortSignal) => Promise<MessageExplanation>
  definitions: (signal?: AbortSignal) => Promise<DefinitionList>
  whatIf: (request: WhatIfRequest, signal?: AbortSignal) => Promise<WhatIfResponse>
  exportConversation: (id: string, options: { redact: boolean }) => Promise<ExportedFile>
  /** `GET /events` as a streamed response (read with live-events.ts). */
  events: (signal: AbortSignal) => Promise<Response>
}

/** `ConversationListQuery` as the query string the API reads (`failed=1`, absent fields left out). */
export function listQueryString(query: ConversationListQuery): string {
  const params = new URLSearchParams()
  if (query.limit !== undefined) params.set('limit', String(query.limit))
  if (query.cursor !== undefined) params.set('cursor', query.cursor)
  if (query.definition !== undefined) params.set('definition', query.definition)
  if (query.revision !== undefined) params.set('revision', String(query.revision))
  if (query.state !== undefined) params.set('state', query.state)
  if (query.lastKind !== undefined) params.set('lastKind', query.lastKind)
  if (query.failed === true) params.set('failed', '1')
  const text = params.toString()
  return text === '' ? '' : `?${text}`
}

/** `ConversationDetailQuery` as the query string the API reads. */
export function detailQueryString(query: ConversationDetailQuery): string {
  const params = new URLSearchParams()
  if (query.turns !== undefined) params.set('turns', String(query.turns))
  if (query.before !== undefined) params.set('before', query.before)
  const text = params.toString()
  return text === '' ? '' : `?${text}`
}

async function failureOf(response: Response): Promise<DevtoolsRequestError> {
  const body = (await response.json().catch(() => undefined)) as DevtoolsErrorBody | undefined
  const error = body?.error
  if (response.status === 401) return new DevtoolsRequestError(401, error?.code ?? 'unauthorized', 'This server needs a token: open the devtools at the address the server printed, ending in #token=<secret>.')
  return new DevtoolsRequestError(response.status, error?.code ?? 'http_error', error?.message ?? `The devtools API answered ${response.status}.`)
}

const fileNameOf = (response: Response, fallback: string): string => /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallback

export function createDevtoolsClient(options: DevtoolsClientOptions): DevtoolsClient {
  const base = options.baseUrl.replace(/\/+$/, '')
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init))
  const request = async (path: string, init: RequestInit = {}): Promise<Response> => {
    const response = await doFetch(`${base}${path}`, { ...init, headers: { ...options.headers, ...(init.headers as Record<string, string> | undefined) } })
    if (!response.ok) throw await failureOf(response)
    return response
  }
  const json = async <T>(path: string, init?: RequestInit): Promise<T> => (await (await request(path, init)).json()) as T
  const at = (signal: AbortSignal | undefined): RequestInit => (signal === undefined ? {} : { signal })
  const id = encodeURIComponent
  return {
    listConversations: (query, signal) => json(`/conversations${listQueryString(query)}`, at(signal)),
    conversation: (conversationId, signal, query = {}) => json(`/conversations/${id(conversationId)}${detailQueryString(query)}`, at(signal)),
    explain: (conversationId, messageId, signal) => json(`/conversations/${id(conversationId)}/messages/${id(messageId)}/explain`, at(signal)),
    definitions: (signal) => json('/definitions', at(signal)),
    whatIf: (body, signal) => json('/what-if', { ...at(signal), method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    exportConversation: async (conversationId, { redact }) => {
      const response = await request(`/conversations/${id(conversationId)}/export${redact ? '?redact=1' : ''}`)
      return { fileName: fileNameOf(response, `${conversationId}.conv.yaml`), yaml: await response.text() }
    },
    events: (signal) => request('/events', { signal, headers: { accept: 'text/event-stream' } }),
  }
}
