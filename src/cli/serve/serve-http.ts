import { createServer } from 'node:http'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { toNodeHandler, type Authenticate, type FetchHandler, type HealthHandlers } from '../../server/index.js'
import { PAGE_CONFIG_PATH, type ServePageConfig } from './page-config.js'
import { FAVICON, FAVICON_PATHS } from './favicon.js'
import type { PageFiles } from './page-files.js'

/**
 * The `chatrail serve` HTTP server: the chat handler at `/api/chat` (useChat's default address,
 * every method the handler knows, including its sub-routes), the page's files at `/` and
 * `/assets/…` (GET and HEAD), its icon at `/favicon.ico` and `/favicon.svg`, the definition's page config at `/chatrail-serve.json`,
 * liveness at `/health` and readiness at `/ready` (no token: they say nothing about anyone's data), 404 for anything else. The page carries no conversation data, so it is served without the token; the data
 * is behind `/api/chat`, where the handler authenticates, and the config behind `authenticate` too.
 * With `devtools`, the devtools page is at `/devtools/` (its files at `/devtools/assets/…`, no data
 * either) and its JSON API at `/devtools/api/…`, which the devtools handler guards with the same
 * `authenticate` as the chat.
 * Without authentication (`'none'`, loopback only) every request must name a loopback host and,
 * when it has an Origin, come from one: otherwise a web page whose DNS name is re-pointed at
 * 127.0.0.1 (DNS rebinding) would be same-origin with this server and could drive its agent.
 */

export interface ServeHttpOptions {
  /** The chat handler (`createChatHandler`), or any Fetch handler around it. */
  handler: FetchHandler
  page: PageFiles
  /** What the page reads about the definition (`/chatrail-serve.json`). */
  pageConfig: ServePageConfig
  /** Guards `/chatrail-serve.json` as the handler guards `/api/chat`; `'none'` serves it to anyone. */
  authenticate: Authenticate | 'none'
  /** The devtools page at `/devtools/` and its API handler at `/devtools/api` (both 404 without it). */
  devtools?: ServeDevtools
  /** `/health` and `/ready` (createHealthHandlers); without them both are 404. */
  health?: HealthHandlers
  host: string
  port: number
  /** How long `close` waits for responses still streaming before it cuts them. Default 5 s. */
  graceMs?: number
}

export interface ServeDevtools {
  /** `createDevtoolsHandler({ basePath: DEVTOOLS_API_PATH, authenticate, … })`: it authenticates every request itself. */
  handler: FetchHandler
  page: PageFiles
}

export interface RunningServer {
  /** `http://<host>:<port>` with the port actually bound. */
  readonly url: string
  readonly server: Server
  /** Stops accepting connections, ends idle keep-alive ones, and resolves when all are closed (see `graceMs`). */
  close: () => Promise<void>
}

export const API_PATH = '/api/chat'
export const DEVTOOLS_PATH = '/devtools'
export const DEVTOOLS_API_PATH = '/devtools/api'

/** Where `bindServeHttp` listens, before it knows what it serves. */
export interface ServeHttpAddress {
  host: string
  port: number
  /** How long `close` waits for responses still streaming before it cuts them. Default 5 s. */
  graceMs?: number
}

/** A bound port that answers `503 starting` until `serve` gives it the handler and the page. */
export interface BoundServer extends RunningServer {
  serve: (routes: Omit<ServeHttpOptions, keyof ServeHttpAddress>) => void
}

/**
 * Binds the port first (a port in use fails here, before the caller opens its store: a failed
 * start leaves the store's directory untouched), and serves once `serve` is called. A request
 * before that (nobody was told the address yet) gets `503` with `Retry-After: 1`.
 */
export async function bindServeHttp(address: ServeHttpAddress): Promise<BoundServer> {
  let listener: ((req: IncomingMessage, res: ServerResponse) => void) | undefined
  const server = createServer((req, res) => {
    if (listener) listener(req, res)
    else res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8', 'retry-after': '1' }).end('chatrail serve is starting; retry in a moment.')
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(address.port, address.host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  const host = address.host.includes(':') && !address.host.startsWith('[') ? `[${address.host}]` : address.host
  return {
    url: `http://${host}:${port}`,
    server,
    serve: (routes) => {
      listener = routesOf({ ...routes, ...address })
    },
    close: () =>
      new Promise<void>((resolve) => {
        // A turn still streaming gets `graceMs` to finish; then its connection is cut (the turn's
        // lease expires and a retry runs it again), so a stop never waits on a held agent dialog.
        const force = setTimeout(() => server.closeAllConnections(), address.graceMs ?? 5000)
        server.close(() => {
          clearTimeout(force)
          resolve()
        })
        server.closeIdleConnections()
      }),
  }
}

/** Binds and serves at once (a server whose handler is ready before it listens). */
export async function startServeHttp(options: ServeHttpOptions): Promise<RunningServer> {
  const bound = await bindServeHttp(options)
  bound.serve(options)
  return bound
}

export const HEALTH_PATH = '/health'
export const READY_PATH = '/ready'

function routesOf(options: ServeHttpOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const api = toNodeHandler(options.handler)
  const probes = options.health
  const health = probes && toNodeHandler(probes.health)
  const ready = probes && toNodeHandler(probes.ready)
  const devtools = options.devtools
  const devtoolsApi = devtools && toNodeHandler(devtools.handler)
  return (req, res) => {
    if (options.authenticate === 'none' && !fromLoopback(req)) {
      res.writeHead(421, { 'content-type': 'text/plain; charset=utf-8' }).end('This chatrail serve answers only http://127.0.0.1, http://localhost or http://[::1] (it runs without a token). Use one of those addresses, or start it with --token.')
      return
    }
    const path = new URL(req.url ?? '/', 'http://localhost').pathname
    if (path === API_PATH || path.startsWith(`${API_PATH}/`)) {
      api(req, res)
      return
    }
    if (devtools && devtoolsApi && (path === DEVTOOLS_PATH || path.startsWith(`${DEVTOOLS_PATH}/`))) {
      if (path === DEVTOOLS_API_PATH || path.startsWith(`${DEVTOOLS_API_PATH}/`)) devtoolsApi(req, res)
      // The page names its assets relatively (./assets/page.js): without the slash they would resolve under /.
      else if (path === DEVTOOLS_PATH) redirect(req, res, `${DEVTOOLS_PATH}/`)
      else servePage(devtools.page, path.slice(DEVTOOLS_PATH.length), req, res)
      return
    }
    if (path === PAGE_CONFIG_PATH) {
      void serveConfig(options, req, res)
      return
    }
    if (health && ready && (path === HEALTH_PATH || path === READY_PATH)) {
      if (req.method === 'GET' || req.method === 'HEAD') (path === HEALTH_PATH ? health : ready)(req, res)
      else res.writeHead(405, { 'content-type': 'text/plain; charset=utf-8', allow: 'GET, HEAD' }).end()
      return
    }
    servePage(options.page, path, req, res)
  }
}

const LOOPBACK_HOSTNAMES: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '[::1]'])

function isLoopbackAddress(address: string): boolean {
  try {
    return LOOPBACK_HOSTNAMES.has(new URL(address).hostname)
  } catch {
    return false
  }
}

/** The request names a loopback host (Host) and, if it says where it comes from (Origin), a loopback page. */
export function fromLoopback(req: Pick<IncomingMessage, 'headers'>): boolean {
  const host = req.headers.host
  if (host === undefined || !isLoopbackAddress(`http://${host}`)) return false
  const origin = req.headers.origin
  return origin === undefined || isLoopbackAddress(origin)
}

function redirect(req: IncomingMessage, res: ServerResponse, to: string): void {
  const query = new URL(req.url ?? '/', 'http://localhost').search
  res.writeHead(308, { location: `${to}${query}`, 'content-type': 'text/plain; charset=utf-8' }).end()
}

function servePage(page: PageFiles, path: string, req: IncomingMessage, res: ServerResponse): void {
  const file = FAVICON_PATHS.has(path) ? (page.get(path) ?? FAVICON) : page.get(path === '/' ? '/index.html' : path)
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(file === undefined ? 404 : 405, { 'content-type': 'text/plain; charset=utf-8', ...(file === undefined ? {} : { allow: 'GET, HEAD' }) }).end()
    return
  }
  if (file === undefined) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found')
    return
  }
  res.writeHead(200, {
    'content-type': file.contentType,
    'content-length': String(file.contents.byteLength),
    // Assets change with the chatrail version only; the page itself is always revalidated.
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
  })
  res.end(req.method === 'HEAD' ? undefined : file.contents)
}

async function serveConfig(options: ServeHttpOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const json = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }
  if (options.authenticate !== 'none') {
    const principal = await Promise.resolve(options.authenticate(new Request('http://localhost/', { headers: { authorization: req.headers.authorization ?? '' } }))).catch(() => null)
    if (principal === null || principal === undefined) {
      res.writeHead(401, json).end(JSON.stringify({ error: { code: 'unauthorized', message: 'Send Authorization: Bearer <token>.' } }))
      return
    }
  }
  if (req.method !== 'GET') {
    res.writeHead(405, { ...json, allow: 'GET' }).end(JSON.stringify({ error: { code: 'method_not_allowed', message: 'GET only.' } }))
    return
  }
  res.writeHead(200, json).end(JSON.stringify(options.pageConfig))
}
