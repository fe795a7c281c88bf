import { afterEach, describe, expect, it } from 'vitest'
import { aiSdkAdapter, ModelProviderError } from '../../src/ai-sdk/index.js'
import { defineChat, type ChatDefinition } from '../../src/index.js'
import { createChatHandler } from '../../src/server/index.js'
import { memoryStore } from '../../src/store/index.js'
import { scriptedModel, textParts } from '../ai-sdk/mock-model.js'
import { listen, sendTurn, userMessage, type Listening } from './support/harness.js'

// A model's failure reaches the handler's onError (a provider stream error, a rejected model call),
// with or without a fallback answer, and only the code reaches the client.

const definition = (model: ReturnType<typeof scriptedModel>['model'], fallback?: string): ChatDefinition => defineChat({
  id: 'model-failures',
  chat: { adapter: aiSdkAdapter({ model, maxRetries: 0 }) },
  conversation: { initial: 'idle', states: { idle: {} }, routes: [], ...(fallback === undefined ? {} : { fallback: { response: fallback } }) },
})

describe('model failures reach onError', () => {
  let http: Listening
  afterEach(async () => {
    await http.close()
  })

  const serve = async (chat: ChatDefinition): Promise<unknown[]> => {
    const errors: unknown[] = []
    http = await listen(createChatHandler({ definition: chat, store: memoryStore(), authenticate: 'none', onError: (error) => errors.push(error) }))
    return errors
  }

  it('a provider stream error: onError gets the ModelProviderError; the page gets its code', async () => {
    const { model } = scriptedModel([[{ type: 'stream-start', warnings: [] }, { type: 'error', error: new Error('upstream overloaded (secret-request-id)') }]])
    const errors = await serve(definition(model))
    const reply = await sendTurn(http.url, 'm1', [userMessage('u1', 'hello')]).catch((error: unknown) => error)
    expect((reply as Error).message).toBe('PROVIDER_STREAM_ERROR')
    expect(errors).toHaveLength(1)
    expect(ModelProviderError.isInstance(errors[0])).toBe(true)
    expect((errors[0] as ModelProviderError).code).toBe('PROVIDER_STREAM_ERROR')
    expect((errors[0] as Error).message).toContain('upstream overloaded')
  })

  it('a rejected model call answered by the fallback: the page sees the fallback, onError still gets the failure', async () => {
    const errors = await serve(definition(scriptedModel([() => { throw new Error('connection refused') }]).model, 'Sorry, try later.'))
    const reply = await sendTurn(http.url, 'm2', [userMessage('u1', 'hello')])
    expect(reply.text).toBe('Sorry, try later.')
    expect(errors).toHaveLength(1)
    expect((errors[0] as Error).message).toContain('connection refused')
  })

  it('a model that answers reports nothing', async () => {
    const errors = await serve(definition(scriptedModel([textParts('All good.')]).model))
    expect((await sendTurn(http.url, 'm3', [userMessage('u1', 'hello')])).text).toBe('All good.')
    expect(errors).toEqual([])
  })
})
