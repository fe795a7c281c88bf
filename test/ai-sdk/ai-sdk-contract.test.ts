import { createAnthropic } from '@ai-sdk/anthropic'
import { createOpenAI } from '@ai-sdk/openai'
import { afterAll, beforeAll } from 'vitest'
import { aiSdkAdapter } from '../../src/ai-sdk/index.js'
import type { AdapterRequest } from '../../src/contract/adapter.js'
import { runAdapterContract } from '../../src/testing/vitest.js'
import { startAnthropicServer, type AnthropicServer } from '../support/anthropic-server.js'
import { respond, say, startOpenAIServer, type OpenAIServer } from '../support/openai-server.js'

/**
 * `runAdapterContract` for aiSdkAdapter over the real `@ai-sdk/anthropic` and `@ai-sdk/openai`
 * providers, pointed by `baseURL` at the scripted model servers on 127.0.0.1: real HTTP, real SSE
 * parsing. A1's laziness is observed as requests reaching the server; A9's failing factory gets an
 * HTTP error from its own server (retries off, so it fails at once).
 */

let anthropicServer: AnthropicServer
let failingAnthropic: AnthropicServer
let openaiServer: OpenAIServer
let failingOpenAI: OpenAIServer

beforeAll(async () => {
  anthropicServer = await startAnthropicServer({ turns: [], sideText: 'Hello from the contract.' })
  failingAnthropic = await startAnthropicServer({ turns: [], fallback: { error: { status: 529, type: 'overloaded_error', message: 'scripted overload' } } })
  openaiServer = await startOpenAIServer()
  failingOpenAI = await startOpenAIServer()
})

afterAll(async () => {
  await Promise.all([anthropicServer.close(), failingAnthropic.close(), openaiServer.close(), failingOpenAI.close()])
})

const anthropicModel = (server: AnthropicServer) => createAnthropic({ baseURL: `${server.url}/v1`, apiKey: 'scripted-key' })('claude-sonnet-4-5')
const openaiModel = (server: OpenAIServer) => createOpenAI({ baseURL: server.baseUrl, apiKey: 'scripted-key' })('gpt-4.1-mini')

// the scripted Anthropic server answers requests that carry tools from its script (here: the failure)
const withTool = (): AdapterRequest => ({
  messages: [{ id: 'contract-user-1', role: 'user', content: 'Say hello', status: 'complete', createdAt: new Date(0) }],
  context: { tools: [{ name: 'noop', schema: { type: 'object', properties: {} } }] },
})

runAdapterContract('aiSdkAdapter (@ai-sdk/anthropic, scripted server)', () => aiSdkAdapter({ model: anthropicModel(anthropicServer), maxRetries: 0 }), {
  workCount: () => anthropicServer.requests.length,
  failing: () => ({ factory: aiSdkAdapter({ model: anthropicModel(failingAnthropic), maxRetries: 0 }), request: withTool() }),
})

runAdapterContract(
  'aiSdkAdapter (@ai-sdk/openai Responses, scripted server)',
  () => {
    // each test streams at most two sources; abort tests leave a response unconsumed, so keep spares
    for (let i = 0; i < 4; i += 1) openaiServer.push(respond(say('Hello from the contract.')))
    return aiSdkAdapter({ model: openaiModel(openaiServer), maxRetries: 0 })
  },
  {
    workCount: () => openaiServer.requests.length,
    failing: () => {
      failingOpenAI.push({ type: 'http_error', status: 500, message: 'scripted failure' })
      return { factory: aiSdkAdapter({ model: openaiModel(failingOpenAI), maxRetries: 0 }) }
    },
  },
)
