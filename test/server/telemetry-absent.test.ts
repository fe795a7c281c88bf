import { afterEach, describe, expect, it, vi } from 'vitest'
import { commandRoute, defineChat } from '../../src/index.js'
import { createChatHandler, type ChatHandler } from '../../src/server/index.js'
import { memoryStore } from '../../src/store/index.js'
import { scriptedAdapter } from '../../src/testing/index.js'
import { listen, userMessage, type Listening } from './support/harness.js'

// An app without @opentelemetry/api (an optional peer): the handler's import of it fails as Node's
// does for a package that is not installed, and the handler serves exactly as before, reporting
// nothing. Isolated (vitest.config.ts): the mock must not reach other suites' module graph.

let imports = 0
vi.mock('@opentelemetry/api', () => {
  imports++
  throw Object.assign(new Error("Cannot find package '@opentelemetry/api' imported from chatrail"), { code: 'ERR_MODULE_NOT_FOUND' })
})

let http: Listening | undefined
let handler: ChatHandler | undefined
afterEach(async () => {
  await http?.close()
  await handler?.close()
})

describe('telemetry without @opentelemetry/api', () => {
  it('serves turns, reads and errors as before, and reports nothing', async () => {
    const errors: unknown[] = []
    const definition = defineChat({
      id: 'absent',
      chat: { adapter: scriptedAdapter(['the agent answers']) },
      conversation: { initial: 'idle', context: {}, states: { idle: { on: { start: 'asking' } }, asking: {} }, routes: [commandRoute({ id: 'start', command: '/start', event: 'start', response: 'Which order?' })] },
    })
    handler = createChatHandler({ definition, store: memoryStore(), authenticate: 'none', onError: (error) => errors.push(error) })
    http = await listen(handler)
    const post = (messageId: string, text: string): Promise<Response> =>
      fetch((http as Listening).url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 'c1', messages: [userMessage(messageId, text)], trigger: 'submit-message' }) })
    const deterministic = await post('u1', '/start')
    expect(deterministic.status).toBe(200)
    expect(await deterministic.text()).toContain('Which order?')
    expect(await (await post('u2', 'something else')).text()).toContain('the agent answers')
    const read = await fetch(`${http.url}?id=c1`)
    expect(((await read.json()) as { messages: unknown[] }).messages).toHaveLength(4)
    expect((await fetch(`${http.url}?id=bad id`)).status).toBe(400)
    expect(imports).toBeGreaterThan(0) // the handler did try to load it
    expect(errors).toEqual([])
  })
})
