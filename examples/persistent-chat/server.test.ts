import { rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { pgliteStore, type ConversationStore } from '../../src/store/index.js'
import { deliveryChat } from './definition.js'
import { createChatServer } from './server.js'
import { pgliteDataDirFromTemplate } from '../../test/support/pglite-template.js'

// The example end to end: real HTTP, a real PGlite data dir, and a "restart" (server and store
// closed, then opened again on the same dir) in the middle of a conversation.

// The data dir starts as a copy of a migrated, empty database (test/support/pglite-template.ts):
// the first start of PGlite (initdb, seconds) is not what this test is about.
const dataDir = await pgliteDataDirFromTemplate()
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

async function serve(store: ConversationStore) {
  const server = createChatServer(store, deliveryChat())
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const post = async (id: string, text: string) => {
    const res = await fetch(`${base}/conversations/${id}`, { method: 'POST', body: JSON.stringify({ text }) })
    return { status: res.status, body: (await res.json()) as Record<string, unknown> }
  }
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()))
  return { base, post, close }
}

describe('examples/persistent-chat', () => {
  it('a conversation survives a restart of the server and its PGlite store', async () => {
    const store = pgliteStore({ dataDir })
    const first = await serve(store)
    expect(await first.post('demo', '/start')).toEqual({ status: 200, body: { reply: 'Which day should we deliver?', state: 'asking', context: {}, version: 1 } })
    expect((await first.post('bad id', 'x')).status).toBe(404)
    await first.close()
    await store.close()

    const reopened = pgliteStore({ dataDir })
    const second = await serve(reopened)
    expect(await second.post('demo', 'deliver on 2030-05-01')).toEqual({ status: 200, body: { reply: 'Booked for 2030-05-01.', state: 'booked', context: { deliveryDate: '2030-05-01' }, version: 2 } })
    const history = (await (await fetch(`${second.base}/conversations/demo`)).json()) as { messages: { content: string }[]; version: number }
    expect(history.messages.map((m) => m.content)).toEqual(['/start', 'Which day should we deliver?', 'deliver on 2030-05-01', 'Booked for 2030-05-01.'])
    // A turn already in progress (its lease held) makes a second request wait its turn: 409.
    await reopened.claim('demo', 'someone-else', { leaseMs: 60_000 })
    expect((await second.post('demo', '/start')).status).toBe(409)
    await second.close()
    await reopened.close()
  }, 120_000)
})
