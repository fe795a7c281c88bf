import { rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { DefaultChatTransport, readUIMessageStream, type UIMessage } from 'ai'
import { afterAll, describe, expect, it } from 'vitest'
import type { ChatrailPartData } from '../../src/server/index.js'
import { pgliteStore, type ConversationStore } from '../../src/store/index.js'
import { createSupportServer } from './server.js'
import { pgliteDataDirFromTemplate } from '../../test/support/pglite-template.js'

// The example end to end: real HTTP, a real PGlite data dir, turns sent with the AI SDK's own
// DefaultChatTransport (what `useChat` uses), and a restart of server and store mid-conversation.

type Message = UIMessage<unknown, { chatrail: ChatrailPartData }>
// The data dir starts as a copy of a migrated, empty database (test/support/pglite-template.ts):
// the first start of PGlite (initdb, seconds) is not what this test is about.
const dataDir = await pgliteDataDirFromTemplate()
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

async function serve(store: ConversationStore) {
  const { server, agent } = await createSupportServer(store)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const transport = new DefaultChatTransport<Message>({ api: `${base}/api/chat` })
  /** One turn as useChat sends it; resolves with the assembled assistant message. */
  const send = async (chatId: string, id: string, text: string): Promise<{ text: string; chatrail: ChatrailPartData | undefined }> => {
    const stream = await transport.sendMessages({
      chatId, trigger: 'submit-message', messageId: undefined, abortSignal: undefined,
      messages: [{ id, role: 'user', parts: [{ type: 'text', text }] }],
    })
    let last: Message | undefined
    for await (const message of readUIMessageStream<Message>({ stream })) last = message
    const parts = last?.parts ?? []
    return {
      text: parts.map((part) => (part.type === 'text' ? part.text : '')).join(''),
      chatrail: parts.flatMap((part) => (part.type === 'data-chatrail' ? [part.data] : [])).at(-1),
    }
  }
  const close = (): Promise<void> => new Promise((resolve) => {
    server.close(() => resolve())
    server.closeIdleConnections()
  })
  return { base, send, close, agent }
}

describe('examples/server-support', () => {
  it('serves the page, answers useChat turns, and keeps the conversation across a restart', async () => {
    const store = pgliteStore({ dataDir })
    const first = await serve(store)
    const page = await fetch(`${first.base}/`)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('<script type="module" src="./assets/page.js">')
    expect((await fetch(`${first.base}/assets/page.js`)).headers.get('content-type')).toBe('text/javascript; charset=utf-8')

    const started = await first.send('demo', 'u1', '/start')
    expect(started.text).toBe('Sure. What is your order number? (for example #12345)')
    expect(started.chatrail).toMatchObject({ state: 'collecting', trace: { kind: 'deterministic' } })
    const agentic = await first.send('demo', 'u2', 'where is my parcel?')
    expect(agentic.text).toContain('(agent) I looked into “where is my parcel?”')
    expect(first.agent.calls()).toBe(1)
    await first.close()
    await store.close()

    const reopened = pgliteStore({ dataDir })
    const second = await serve(reopened)
    const restored = (await (await fetch(`${second.base}/api/chat?id=demo`)).json()) as { messages: Array<{ role: string }>; chatrail: { state: string } }
    expect(restored.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant'])
    expect(restored.chatrail.state).toBe('collecting')
    const order = await second.send('demo', 'u3', 'it is #12345')
    expect(order.chatrail?.state).toBe('confirming')
    expect(second.agent.calls()).toBe(0)
    await second.close()
    await reopened.close()
  }, 180_000)
})
