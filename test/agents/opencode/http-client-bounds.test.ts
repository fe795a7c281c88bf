import type { ServerResponse } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { createOpencodeClient } from '../../../src/agents/opencode/http-client.js'
import { OpencodeServerError } from '../../../src/agents/opencode/opencode-errors.js'
import { watchChat } from '../../../src/agents/opencode/watch-chat.js'
import type { AgentChat } from '../../../src/contract/agent-chat.js'
import { startHostileServer, writeLarge } from './hostile-server.js'
import type { HostileServer } from './hostile-server.js'

/**
 * Issue 28 items 8 and 9 against real HTTP servers on 127.0.0.1: the OpenCode client caps response
 * bodies (a clear error naming the URL and the cap, the rest never read), follows only same-origin
 * redirects (a bounded number), and `watchChat` survives a hostile event stream: an event over the
 * cap is skipped with a warning on the chat and the events after it still arrive.
 */

const MiB = 1024 * 1024
const servers: HostileServer[] = []
const start = async (...args: Parameters<typeof startHostileServer>): Promise<HostileServer> => {
  const server = await startHostileServer(...args)
  servers.push(server)
  return server
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

async function failure(promise: Promise<unknown>): Promise<OpencodeServerError> {
  const caught = await promise.then(
    () => undefined,
    (error: unknown) => error,
  )
  expect(OpencodeServerError.isInstance(caught)).toBe(true)
  return caught as OpencodeServerError
}

describe('response bodies are capped', () => {
  it('a JSON body over the 32 MiB default is refused, naming the URL and the cap, and not read to its end', async () => {
    const server = await start({
      '/session': (_request, response, written) => {
        response.writeHead(200, { 'content-type': 'application/json' })
        return writeLarge(response, written, 256 * MiB, { head: '["', tail: '"]' })
      },
    })
    const error = await failure(createOpencodeClient({ baseUrl: server.url, auth: null }).get('/session'))
    expect(error.code).toBe('OPENCODE_RESPONSE_TOO_LARGE')
    expect(error.message).toContain(`${server.url}/session`)
    expect(error.message).toContain('33,554,432')
    expect(error.hint).toContain('maxBodyBytes')
    // The client hung up: the server could not write the 256 MiB (socket buffers hold a few MiB).
    await expect.poll(() => server.requests.length).toBe(1)
    expect(server.written.get('/session') ?? 0).toBeLessThan(128 * MiB)
  }, 60_000)

  it('the cap is configurable, and a Content-Length over it is refused before reading', async () => {
    const body = JSON.stringify({ pad: 'x'.repeat(4096) })
    const server = await start({ '/session/status': (_request, response) => void response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) }).end(body) })
    const error = await failure(createOpencodeClient({ baseUrl: server.url, auth: null, maxBodyBytes: 1024 }).get('/session/status'))
    expect(error.code).toBe('OPENCODE_RESPONSE_TOO_LARGE')
    expect(error.message).toContain('1,024')
    expect(await createOpencodeClient({ baseUrl: server.url, auth: null, maxBodyBytes: 8192 }).get('/session/status')).toEqual({ pad: 'x'.repeat(4096) })
  })

  it('an error status with a huge body is reported from its first bytes, never read whole', async () => {
    const server = await start({
      '/question': (_request, response, written) => {
        response.writeHead(500, { 'content-type': 'text/plain' })
        return writeLarge(response, written, 256 * MiB, { head: 'boom: ', fill: 0x62 })
      },
    })
    const error = await failure(createOpencodeClient({ baseUrl: server.url, auth: null }).get('/question'))
    expect(error).toMatchObject({ code: 'OPENCODE_HTTP_ERROR', status: 500 })
    expect(error.message).toContain('boom: bbb')
    expect(error.message.length).toBeLessThan(400)
    expect(server.written.get('/question') ?? 0).toBeLessThan(128 * MiB)
  }, 60_000)
})

describe('redirects', () => {
  it('a redirect to another origin is refused: the other server never hears from the client', async () => {
    const elsewhere = await start({ '/session': (_request, response) => void response.writeHead(200, { 'content-type': 'application/json' }).end('[{"id":"ses_forged","title":"rm -rf ~"}]') })
    const server = await start({ '/session': (_request, response) => void response.writeHead(302, { location: `${elsewhere.url}/session` }).end() })
    const error = await failure(createOpencodeClient({ baseUrl: server.url, auth: { password: 'secret' } }).get('/session'))
    expect(error.code).toBe('OPENCODE_REDIRECT_REFUSED')
    expect(error.message).toContain(`${elsewhere.url}/session`)
    expect(elsewhere.requests).toEqual([])
    expect(server.requests).toEqual([{ method: 'GET', path: '/session', authorization: `Basic ${Buffer.from('opencode:secret').toString('base64')}` }])
  })

  it('the event stream refuses a cross-origin redirect too', async () => {
    const elsewhere = await start({ '/event': (_request, response) => void response.writeHead(200, { 'content-type': 'text/event-stream' }).write('data: {"type":"server.connected"}\n\n') })
    const server = await start({ '/event': (_request, response) => void response.writeHead(307, { location: `${elsewhere.url}/event` }).end() })
    const error = await failure(createOpencodeClient({ baseUrl: server.url, auth: null }).subscribe(() => undefined, new AbortController().signal))
    expect(error.code).toBe('OPENCODE_REDIRECT_REFUSED')
    expect(elsewhere.requests).toEqual([])
  })

  it('same-origin redirects are followed (307 keeps the POST body), at most 5 of them', async () => {
    let posted = ''
    const server = await start({
      '/old': (_request, response) => void response.writeHead(307, { location: '/new' }).end(),
      '/new': (request, response) => {
        request.setEncoding('utf8')
        request.on('data', (chunk: string) => (posted += chunk))
        request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'))
      },
      '/loop': (_request, response) => void response.writeHead(302, { location: '/loop' }).end(),
    })
    const client = createOpencodeClient({ baseUrl: server.url, auth: null })
    expect(await client.post('/old', { hello: 'world' })).toEqual({ ok: true })
    expect(posted).toBe('{"hello":"world"}')
    const error = await failure(client.get('/loop'))
    expect(error.code).toBe('OPENCODE_REDIRECT_REFUSED')
    expect(error.message).toContain('more than 5 redirects')
    expect(server.requests.filter((request) => request.path === '/loop')).toHaveLength(6)
  })
})

describe('watchChat against a hostile event stream', () => {
  it('an event over the cap is skipped with a warning on the chat; the events after it still arrive', async () => {
    const sessionId = 'ses_hostile1'
    const json = (body: unknown) => (_request: unknown, response: ServerResponse) => void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    const server = await start({
      [`/session/${sessionId}/message`]: json([]),
      '/session/status': json({}),
      '/permission': json([]),
      '/question': json([]),
      '/event': async (_request, response, written) => {
        response.writeHead(200, { 'content-type': 'text/event-stream' })
        response.write('data: {"type":"server.connected","properties":{}}\n\n')
        // Let the watcher subscribe and resync first, then the 64 MiB line, then a real event.
        await new Promise((resolve) => setTimeout(resolve, 200))
        await writeLarge(response, written, 64 * MiB, { head: 'data: {"type":"session.status","properties":{"pad":"', tail: '"}}\n\n', end: false })
        response.write(`data: ${JSON.stringify({ type: 'session.status', properties: { sessionID: sessionId, status: { type: 'busy' } } })}\n\n`)
      },
    })
    const seen: AgentChat[] = []
    const watcher = watchChat({ baseUrl: server.url, sessionId, auth: { password: 'x' }, onChange: (chat) => seen.push(chat) })
    try {
      await watcher.ready
      await expect.poll(() => watcher.current()?.state, { timeout: 60_000, interval: 50 }).toBe('working')
      expect(watcher.current()?.warnings).toEqual([expect.stringMatching(/^OpenCode event stream of http:\/\/127\.0\.0\.1:\d+\/event: skipped an event of 67,108,9\d\d bytes: over the 16,777,216-byte cap \(maxEventBytes\)$/)])
      expect(seen.at(0)?.state).toBe('idle')
    } finally {
      watcher.close()
    }
  }, 90_000)
})
