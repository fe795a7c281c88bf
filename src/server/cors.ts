import { errorResponse, HttpError } from './http-responses.js'

/**
 * Cross-origin use of the handler (a page on another origin than the API): the handler answers
 * the browser's preflight itself and marks its responses for the origins it allows. An origin it
 * does not allow gets no CORS headers (the browser then refuses to show it the response) and a
 * preflight from one is `403 cors_origin_refused`. Requests without an `Origin` (same-origin GETs,
 * servers, curl) are untouched. `Retry-After` is exposed, so a page can read how long to wait on a
 * 409, 429 or 503.
 */
export interface CorsOptions {
  /**
   * Origins allowed to call the handler: exact origins (`'https://app.example.com'`, scheme, host
   * and port, no path), a function deciding per origin, or `'*'` for any origin (not with
   * `credentials`: browsers refuse that combination).
   */
  readonly origins: readonly string[] | '*' | ((origin: string) => boolean)
  /**
   * Let the page send cookies or HTTP authentication (`fetch(…, { credentials: 'include' })`,
   * `httpAdapter({ credentials: 'include' })`): `Access-Control-Allow-Credentials: true`. Default false.
   */
  readonly credentials?: boolean
  /** Request headers a page may send beyond the simple ones. Default `['content-type', 'authorization']`. */
  readonly allowHeaders?: readonly string[]
  /** How long a browser may reuse a preflight's answer, in seconds. Default 600. */
  readonly maxAgeSeconds?: number
}

export interface CorsPolicy {
  /** The answer to a preflight (`OPTIONS` with `Access-Control-Request-Method`), or undefined for any other request. */
  preflight: (request: Request) => Response | undefined
  /** Adds the CORS headers for the request's origin to a response (in place; returns it). */
  apply: (request: Request, response: Response) => Response
}

const METHODS = 'GET, POST, DELETE'
const DEFAULT_HEADERS = ['content-type', 'authorization']
const ORIGIN = /^https?:\/\/[^/?#\s]+$/i

export function createCorsPolicy(options: CorsOptions): CorsPolicy {
  const allowed = originTest(options)
  const credentials = options.credentials === true
  const allowHeaders = (options.allowHeaders ?? DEFAULT_HEADERS).join(', ')
  const maxAge = String(options.maxAgeSeconds ?? 600)
  const anyOrigin = options.origins === '*'

  const mark = (headers: Headers, origin: string): void => {
    // `*` only when any origin is allowed and nothing is credentialed; otherwise the origin itself, so caches must key on it
    headers.set('access-control-allow-origin', anyOrigin && !credentials ? '*' : origin)
    if (!anyOrigin || credentials) headers.append('vary', 'Origin')
    if (credentials) headers.set('access-control-allow-credentials', 'true')
  }

  return {
    preflight(request) {
      if (request.method !== 'OPTIONS' || !request.headers.has('access-control-request-method')) return undefined
      const origin = request.headers.get('origin')
      if (origin === null || !allowed(origin)) {
        return errorResponse(new HttpError(403, 'cors_origin_refused', 'This origin may not call this chat API (the handler\'s cors.origins does not list it).'))
      }
      const response = new Response(null, { status: 204 })
      mark(response.headers, origin)
      response.headers.set('access-control-allow-methods', METHODS)
      response.headers.set('access-control-allow-headers', allowHeaders)
      response.headers.set('access-control-max-age', maxAge)
      return response
    },
    apply(request, response) {
      const origin = request.headers.get('origin')
      if (origin === null || !allowed(origin)) return response
      mark(response.headers, origin)
      response.headers.set('access-control-expose-headers', 'retry-after')
      return response
    },
  }
}

function originTest(options: CorsOptions): (origin: string) => boolean {
  const { origins } = options
  if (origins === '*') {
    if (options.credentials === true) throw new TypeError("createChatHandler: cors.origins '*' cannot go with cors.credentials (browsers refuse credentials for any origin); list the origins instead, e.g. cors: { origins: ['https://app.example.com'], credentials: true }.")
    return () => true
  }
  if (typeof origins === 'function') {
    return (origin) => {
      try {
        return origins(origin) === true
      } catch {
        return false // a throwing check allows nothing
      }
    }
  }
  if (!Array.isArray(origins)) throw new TypeError("createChatHandler: cors.origins must be a list of origins (['https://app.example.com']), a function (origin) => boolean, or '*'.")
  const listed = new Set<string>()
  for (const origin of origins) {
    if (typeof origin !== 'string' || !ORIGIN.test(origin)) {
      throw new TypeError(`createChatHandler: cors.origins has ${JSON.stringify(origin)}, which is not an origin: write the scheme, host and port only, e.g. 'https://app.example.com' (no path, no trailing slash).`)
    }
    listed.add(origin.toLowerCase())
  }
  return (origin) => listed.has(origin.toLowerCase())
}
