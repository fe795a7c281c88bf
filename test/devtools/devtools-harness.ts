import { fileURLToPath } from 'node:url'
import { buildDevtoolsPage } from '../../src/cli/serve/build-page.js'
import { pageConfigOf } from '../../src/cli/serve/page-config.js'
import { DEVTOOLS_API_PATH, startServeHttp, type RunningServer } from '../../src/cli/serve/serve-http.js'
import { bearerTokenAuth } from '../../src/cli/serve/token-auth.js'
import { createDevtoolsHandler, type DevtoolsHandler } from '../../src/devtools/index.js'
import { createChatHandler } from '../../src/server/index.js'
import { memoryStore, type ConversationStore } from '../../src/store/index.js'
import { definition } from './fixtures/devtools-chat.js'

/**
 * The devtools browser suites' server: the chat handler and the devtools (page and API) on one
 * `chatrail serve` HTTP server (serve-http.ts, the same route table the command runs), behind a
 * bearer token, over a memory store whose clock never repeats a millisecond (the list's "newest
 * first" is then the order the turns were written in). Records are signed, so the devtools can
 * say "verified". Turns are posted as useChat posts them.
 */

export const TOKEN = 'devtools-browser-token'
export const RECORD_KEY = 'devtools-browser-record-key-0123456789'
export const FIXTURE_MODULE = fileURLToPath(new URL('./fixtures/devtools-chat.ts', import.meta.url))

export interface DevtoolsServer {
  readonly url: string
  readonly store: ConversationStore
  readonly server: RunningServer
  readonly devtools: DevtoolsHandler
  /** Posts one user message (or UI event) to the chat and reads the answer to its end. */
  turn: (conversationId: string, text: string, options?: { uiEvent?: string }) => Promise<void>
  close: () => Promise<void>
}

export async function startDevtoolsServer(): Promise<DevtoolsServer> {
  let last = 0
  const clock = (): number => (last = Math.max(Date.now(), last + 1))
  const store = memoryStore({ clock })
  const authenticate = bearerTokenAuth(TOKEN)
  const handler = createChatHandler({ definition, store, authenticate, session: { recordKey: RECORD_KEY } })
  const devtools = createDevtoolsHandler({
    store,
    definitions: [definition],
    authenticate,
    basePath: DEVTOOLS_API_PATH,
    access: 'all',
    recordKey: RECORD_KEY,
    exportModule: { module: FIXTURE_MODULE, export: 'definition' },
    events: { pollMs: 100 },
  })
  const page = await buildDevtoolsPage()
  const server = await startServeHttp({ handler, page: new Map(), pageConfig: pageConfigOf(definition), authenticate, devtools: { handler: devtools, page }, host: '127.0.0.1', port: 0 })
  let ids = 0
  const turn = async (conversationId: string, text: string, options: { uiEvent?: string } = {}): Promise<void> => {
    ids += 1
    const message = { id: `u-${ids}`, role: 'user', parts: [{ type: 'text', text }], ...(options.uiEvent === undefined ? {} : { metadata: { chatrail: { event: options.uiEvent } } }) }
    const response = await fetch(`${server.url}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ id: conversationId, trigger: 'submit-message', messages: [message] }),
    })
    if (!response.ok) throw new Error(`turn ${text}: ${response.status} ${await response.text()}`)
    await response.text()
  }
  return {
    url: server.url,
    store,
    server,
    devtools,
    turn,
    close: async () => {
      devtools.close()
      await server.close()
      await store.close()
    },
  }
}

/** A conversation with every turn kind the fixture can store, ending in `done`. */
export async function allKindsConversation(server: DevtoolsServer, id: string): Promise<void> {
  await server.turn(id, 'hi') // deterministic (greet)
  await server.turn(id, 'what can you do?') // agentic
  await server.turn(id, 'please break') // the agent breaks off: the fallback answers (agentic)
  await server.turn(id, 'crash') // failed (the route throws)
  await server.turn(id, 'hlep') // a route traced as repaired
  await server.turn(id, 'old menu') // a route traced as fallback
  await server.turn(id, '/start') // deterministic: greeting → identify
  await server.turn(id, '12') // refused (the form's re-prompt)
  await server.turn(id, '4821') // form (slot filled)
  await server.turn(id, 'sw1a 1aa') // form (complete): identify → confirmAddress
  await server.turn(id, 'yes') // confirmAddress → chooseDelivery
  await server.turn(id, 'Express', { uiEvent: 'express' }) // chooseDelivery → lookup
  await server.turn(id, 'order') // lookup → done
  await server.turn(id, 'Express', { uiEvent: 'express' }) // unavailable in done
}

/** The happy path, all deterministic and form turns: greeting → … → done. */
export async function happyConversation(server: DevtoolsServer, id: string): Promise<void> {
  for (const text of ['/start', '4821', 'sw1a 1aa', 'yes']) await server.turn(id, text)
  await server.turn(id, 'Standard', { uiEvent: 'standard' })
  await server.turn(id, 'order')
}
