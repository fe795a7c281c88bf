import type { ChatDefinition } from '../../../src/conversation/definition.js'
import type { JsonObject } from '../../../src/conversation/json.js'
import { createDevtoolsHandler, type DevtoolsHandler, type DevtoolsHandlerOptions } from '../../../src/devtools/index.js'
import { createChatHandler, type ChatHandler } from '../../../src/server/index.js'
import type { ConversationStore } from '../../../src/store/index.js'
import { apiChat } from './api-chat.js'

/**
 * The chat handler and the devtools handler over one store, called in process (Web Requests, no
 * socket). Turns are posted as useChat posts them and read to their end.
 */

export const TOKEN = 'devtools-api-token'
export const BASE = 'http://localhost/devtools/api'

export const bearer = (request: Request): string | null => (request.headers.get('authorization') === `Bearer ${TOKEN}` ? 'developer' : null)

export interface ApiHarness {
  readonly chat: ChatHandler
  readonly devtools: DevtoolsHandler
  readonly store: ConversationStore
  turn: (conversationId: string, text: string, options?: { uiEvent?: string }) => Promise<void>
  /** A devtools request with the token. */
  get: (path: string) => Promise<Response>
  json: <T>(path: string) => Promise<T>
  post: (path: string, body: unknown) => Promise<Response>
}

export function apiHarness(store: ConversationStore, options: Partial<DevtoolsHandlerOptions> & { definition?: ChatDefinition<JsonObject>; recordKey?: string } = {}): ApiHarness {
  const definition = options.definition ?? (apiChat as unknown as ChatDefinition<JsonObject>)
  const chat = createChatHandler({ definition, store, authenticate: bearer, ...(options.recordKey === undefined ? {} : { session: { recordKey: options.recordKey } }) })
  const devtools = createDevtoolsHandler({ store, definitions: [definition], authenticate: bearer, ...options })
  let ids = 0
  const headers = { authorization: `Bearer ${TOKEN}` }
  const get = (path: string): Promise<Response> => devtools(new Request(`${BASE}${path}`, { headers }))
  return {
    chat,
    devtools,
    store,
    async turn(conversationId, text, turnOptions = {}) {
      ids += 1
      const message = { id: `u-${conversationId}-${ids}`, role: 'user', parts: [{ type: 'text', text }], ...(turnOptions.uiEvent === undefined ? {} : { metadata: { chatrail: { event: turnOptions.uiEvent } } }) }
      const response = await chat(new Request('http://localhost/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ id: conversationId, trigger: 'submit-message', messages: [message] }),
      }))
      if (!response.ok) throw new Error(`turn ${text}: ${response.status} ${await response.text()}`)
      await response.text()
    },
    get,
    async json<T>(path: string): Promise<T> {
      const response = await get(path)
      if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`)
      return (await response.json()) as T
    },
    post: (path, body) => devtools(new Request(`${BASE}${path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) })),
  }
}

/** Every kind of turn a stored history can tell, ending in `done`. */
export async function allKinds(harness: ApiHarness, id: string): Promise<void> {
  await harness.turn(id, 'hi') // deterministic (greet)
  await harness.turn(id, 'what can you do?') // agentic
  await harness.turn(id, 'crash') // failed (the route throws)
  await harness.turn(id, 'hlep') // repaired
  await harness.turn(id, 'old menu') // fallback
  await harness.turn(id, '/start') // greeting → identify
  await harness.turn(id, '12') // refused (the form's re-prompt)
  await harness.turn(id, '4821') // form (slot filled)
  await harness.turn(id, 'sw1a 1aa') // form: identify → confirmAddress
  await harness.turn(id, 'yes') // confirmAddress → chooseDelivery
  await harness.turn(id, 'Express', { uiEvent: 'express' }) // chooseDelivery → lookup
  await harness.turn(id, 'order') // lookup → done
  await harness.turn(id, 'Express', { uiEvent: 'express' }) // unavailable
}
