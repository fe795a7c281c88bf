import { createServer } from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A real HTTP server on 127.0.0.1 whose every answer the test scripts: for the OpenCode client's
 * bounds (huge bodies, redirects, a long event line). It records each request (method, path,
 * authorization header) and, per response, how many body bytes it managed to write before the
 * client went away, so a test can tell a body that was cut off from one read whole.
 */

export interface SeenRequest {
  method: string
  path: string
  authorization: string | undefined
}

export type Route = (request: IncomingMessage, response: ServerResponse, written: (bytes: number) => void) => void | Promise<void>

export interface HostileServer {
  url: string
  requests: SeenRequest[]
  /** Body bytes written per path (summed over requests). */
  written: Map<string, number>
  close: () => Promise<void>
}

export async function startHostileServer(routes: Record<string, Route>): Promise<HostileServer> {
  const requests: SeenRequest[] = []
  const written = new Map<string, number>()
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/'
    requests.push({ method: request.method ?? 'GET', path, authorization: request.headers.authorization })
    const route = routes[path]
    if (route === undefined) {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"name":"NotFound"}')
      return
    }
    void Promise.resolve(route(request, response, (bytes) => written.set(path, (written.get(path) ?? 0) + bytes))).catch(() => response.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    written,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/**
 * Writes `total` bytes of `fill` (after `head`, before `tail`) in 64 KiB pieces, waiting for the
 * socket to drain, and stops as soon as the client closes the connection; then ends the response
 * unless `end: false` (an event stream that goes on).
 */
export async function writeLarge(response: ServerResponse, written: (bytes: number) => void, total: number, options: { head?: string; tail?: string; fill?: number; end?: boolean } = {}): Promise<void> {
  const piece = Buffer.alloc(64 * 1024, options.fill ?? 0x61)
  let closed = false
  const gone = new Promise<void>((resolve) =>
    response.once('close', () => {
      closed = true
      resolve()
    }),
  )
  const write = async (chunk: Buffer | string): Promise<void> => {
    if (closed) return
    written(Buffer.byteLength(chunk))
    if (!response.write(chunk)) await Promise.race([new Promise<void>((resolve) => response.once('drain', resolve)), gone])
  }
  if (options.head !== undefined) await write(options.head)
  for (let sent = 0; sent < total && !closed; sent += piece.length) await write(piece)
  if (options.tail !== undefined) await write(options.tail)
  if (!closed && options.end !== false) response.end()
}
