import { describe, expect, it } from 'vitest'
import { startServeHttp } from '../../src/cli/serve/serve-http.js'
import { bearerTokenAuth } from '../../src/cli/serve/token-auth.js'
import { warmUp, WARM_UP_ID } from '../../src/cli/serve/warm-up.js'
import type { PageFiles } from '../../src/cli/serve/page-files.js'
import { pageConfigOf } from '../../src/cli/serve/page-config.js'
import { createChatHandler, createHealthHandlers } from '../../src/server/index.js'
import { memoryStore, type ConversationStore } from '../../src/store/index.js'
import { countingAgent, deliveryDefinition } from '../server/support/harness.js'

// What `chatrail serve` runs before "listening on": over HTTP to itself, the readiness read and
// the handler's read path, through authentication, writing nothing.

function countingStore(): { store: ConversationStore; loads: string[] } {
  const inner = memoryStore()
  const loads: string[] = []
  const store = new Proxy(inner, {
    get(target, key) {
      if (key === 'load') return (id: string) => { loads.push(id); return target.load(id) }
      return Reflect.get(target, key, target) as unknown
    },
  })
  return { store, loads }
}

const noPage: PageFiles = new Map()

async function served(token: string) {
  const { store, loads } = countingStore()
  const authenticate = bearerTokenAuth(token)
  const definition = deliveryDefinition(countingAgent())
  const handler = createChatHandler({ definition, store, authenticate })
  const server = await startServeHttp({ handler, health: createHealthHandlers({ store, handler }), page: noPage, pageConfig: pageConfigOf(definition), authenticate, host: '127.0.0.1', port: 0 })
  return { store, loads, server }
}

describe('warmUp', () => {
  it('reads the store (GET /ready) and runs a GET /api/chat through the server, past the token, writing nothing', async () => {
    const { store, loads, server } = await served('s3cret-token-value')
    const errors: unknown[] = []
    try {
      await warmUp(server.url, 's3cret-token-value', (error) => errors.push(error))
    } finally {
      await server.close()
    }
    expect(errors).toEqual([])
    expect(loads).toEqual(['chatrail-ready-probe', WARM_UP_ID])
    expect((await store.list()).conversations).toEqual([])
  })

  it('a warm-up that is refused says so to onError and does not throw', async () => {
    const { server } = await served('s3cret-token-value')
    const errors: unknown[] = []
    try {
      await warmUp(server.url, 'the-wrong-token-value', (error) => errors.push(error))
    } finally {
      await server.close()
    }
    expect(String(errors[0])).toContain('the warm-up GET answered 401')
  })
})
