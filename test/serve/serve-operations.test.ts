import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { pgliteStore } from '../../src/store/index.js'
import { scriptBundle } from '../support/cli-bundle.js'
import { pgliteDataDirFromTemplate } from '../support/pglite-template.js'
import { startServeProcess } from './serve-process.js'

// `chatrail serve` as a real process on PGlite: /health and /ready, and SIGTERM draining through
// handler.close(): no new turns (503), /ready 503 while it drains, a turn still running at the
// deadline stored as failed with its lease released, exit 0.

// Built to plain JavaScript (test/support/cli-bundle.ts): the CLI imports it without tsx, which
// cost each start about a second of CPU. Loading a TypeScript definition is covered in
// serve-command.test.ts; here the subject is draining.
const hangingAgent = await scriptBundle('test/serve/fixtures/hanging-agent.ts')
const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})
const turnBody = (id: string, messageId: string, text: string): string => JSON.stringify({ id, trigger: 'submit-message', messages: [{ id: messageId, role: 'user', parts: [{ type: 'text', text }] }] })

describe('chatrail serve: operations', () => {
  it('serves /health and /ready, and drains on SIGTERM: 503 for new turns and /ready, the hung turn stored as failed, exit 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chatrail-serve-ops-'))
    dirs.push(dir)
    // a copy of a migrated PGlite (test/support/pglite-template.ts): this test is about draining,
    // not the store's first start, which took seconds of initdb before the server listened
    const dataDir = await pgliteDataDirFromTemplate(join(dir, 'store'))
    const server = await startServeProcess([hangingAgent, '--port', '0', '--store', `pglite:${dataDir}`])
    expect(server.stdout().indexOf('listening on')).toBeGreaterThan(-1)
    const health = await fetch(`${server.url}/health`)
    expect(health.status).toBe(200)
    expect(await health.json()).toEqual({ status: 'ok' })
    const ready = await fetch(`${server.url}/ready`)
    expect(ready.status).toBe(200)
    expect(await ready.json()).toEqual({ status: 'ready', store: 'pglite' })
    expect((await fetch(`${server.url}/ready`, { method: 'POST' })).status).toBe(405)

    const response = await fetch(`${server.url}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: turnBody('h1', 'u1', 'why is the sky blue?') })
    const reader = (response.body as ReadableStream<Uint8Array>).getReader()
    let seen = ''
    while (!seen.includes('Let me think')) {
      const { value, done } = await reader.read()
      if (done) break
      seen += new TextDecoder().decode(value)
    }
    const stopped = server.stop('SIGTERM', 60_000)
    // draining: the server still answers, but takes no turn and is not ready
    let draining: Response | undefined
    for (let tries = 0; tries < 200; tries++) {
      draining = await fetch(`${server.url}/ready`)
      if (draining.status === 503) break
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    expect(draining?.status).toBe(503)
    expect(await draining?.json()).toEqual({ status: 'unavailable', reason: 'shutting_down' })
    const refused = await fetch(`${server.url}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: turnBody('h2', 'u1', 'hello') })
    expect(refused.status).toBe(503)
    expect(await refused.json()).toMatchObject({ error: { code: 'shutting_down' } })
    for (let step = await reader.read(); !step.done; step = await reader.read()) seen += new TextDecoder().decode(step.value)
    expect(seen).toContain('"errorText":"SERVER_SHUTDOWN"')
    expect(await stopped).toBe(0)

    // the turn is stored as failed (a retry runs it again) and the conversation is free at once
    const store = pgliteStore({ dataDir })
    try {
      const stored = await store.load('h1')
      expect(stored?.messages.map((message) => [message.content, message.status])).toEqual([['why is the sky blue?', 'complete'], ['Let me think', 'error']])
      expect(stored?.messages[1]?.metadata?.error).toEqual({ code: 'SERVER_SHUTDOWN' })
      expect((await store.claim('h1', 'next', { leaseMs: 30_000 })).status).toBe('claimed')
      expect(await store.load('h2')).toBeUndefined()
    } finally {
      await store.close()
    }
  }, 180_000)
})
