import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { events, pendingJson } from './fixture-files.js'
import type { Scenario } from './fixture-files.js'

/**
 * An HTTP server that answers the reads the reader and the monitor make (`GET /session`,
 * `/session/status`, `/permission`, `/question`, `/session/:id/message`) with what the real
 * `opencode serve` answered while it waited on a permission or a question (the recorded
 * `pending.json`), so the monitor's use of the server's status is tested without the binary.
 * `updatedAt` places the session's `time.updated` where the test's clock needs it; `withoutRequests`
 * leaves the permission or question out (the server then only says the session is busy); `port`
 * listens where a server that was closed listened (a restart).
 */

export interface ReplayServer {
  url: string
  sessionId: string
  close: () => Promise<void>
}

export async function startReplayServer(scenario: Scenario, options: { updatedAt: number; withoutRequests?: boolean; port?: number }): Promise<ReplayServer> {
  const pending = pendingJson(scenario)
  const info = events(scenario)
    .filter((event) => event.type === 'session.updated')
    .at(-1)?.properties.info as { time: { created: number; updated: number } } & Record<string, unknown>
  const session = { ...info, time: { created: Math.min(info.time.created, options.updatedAt), updated: options.updatedAt } }
  const routes = new Map<string, unknown>([
    ['/session', [session]],
    ['/session/status', pending.status],
    ['/permission', options.withoutRequests ? [] : pending.permissions],
    ['/question', options.withoutRequests ? [] : pending.questions],
    [`/session/${pending.sessionId}/message`, pending.messages],
  ])
  const server = createServer((request, response) => {
    const body = request.method === 'GET' ? routes.get(request.url ?? '') : undefined
    response.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' })
    response.end(JSON.stringify(body ?? { name: 'NotFound' }))
  })
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    sessionId: pending.sessionId,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
