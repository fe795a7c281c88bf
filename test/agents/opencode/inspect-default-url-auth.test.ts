import { createServer } from 'node:http'
import type { Server } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { runInspect } from '../../../src/cli/inspect.js'

/**
 * `chatrail inspect --agent opencode ses_…` with no --opencode-url asks OpenCode's default address,
 * which any local user can bind while OpenCode is down: it must send that listener no credentials.
 * A URL the user named gets them (the second case shows the listener would see them).
 */

const DEFAULT_PORT = 4096
const seen: (string | undefined)[] = []
let server: Server | undefined
const savedPassword = process.env.OPENCODE_SERVER_PASSWORD

afterEach(async () => {
  seen.length = 0
  if (savedPassword === undefined) delete process.env.OPENCODE_SERVER_PASSWORD
  else process.env.OPENCODE_SERVER_PASSWORD = savedPassword
  // closeAllConnections: the CLI's fetch keeps its connection alive, and close() alone waited for
  // the server's 5 s keep-alive timeout before it resolved.
  server?.closeAllConnections()
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()))
  server = undefined
})

/** A listener of this user's own on the default port that records every Authorization header; undefined when the port is taken. */
async function listenOnDefaultPort(): Promise<Server | undefined> {
  const listener = createServer((request, response) => {
    seen.push(request.headers.authorization)
    response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}')
  })
  return new Promise((resolve) => {
    listener.once('error', () => resolve(undefined))
    listener.listen(DEFAULT_PORT, '127.0.0.1', () => resolve(listener))
  })
}

async function inspect(args: string[]): Promise<number> {
  return runInspect(args, { stdout: () => undefined, stderr: () => undefined })
}

describe('chatrail inspect, OpenCode credentials', () => {
  it('sends none to the default address it was not told about', async (context) => {
    server = await listenOnDefaultPort()
    if (server === undefined) return context.skip(`127.0.0.1:${DEFAULT_PORT} is in use on this machine`)
    process.env.OPENCODE_SERVER_PASSWORD = 'the-users-own-password-not-for-strangers'
    await inspect(['--agent', 'opencode', 'ses_abc'])
    expect(seen.length).toBeGreaterThan(0)
    expect(seen.filter((header) => header !== undefined)).toEqual([])
  })

  it('sends them to a URL the user named', async (context) => {
    server = await listenOnDefaultPort()
    if (server === undefined) return context.skip(`127.0.0.1:${DEFAULT_PORT} is in use on this machine`)
    process.env.OPENCODE_SERVER_PASSWORD = 'the-users-own-password-not-for-strangers'
    await inspect(['--opencode-url', `http://127.0.0.1:${DEFAULT_PORT}`, 'ses_abc'])
    expect(seen.length).toBeGreaterThan(0)
    // (A request of the first case's inspect may still arrive here, without credentials: the check is for this one's.)
    expect(seen).toContain(`Basic ${Buffer.from('opencode:the-users-own-password-not-for-strangers').toString('base64')}`)
  })
})
