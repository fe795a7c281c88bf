import { afterEach, describe, expect, it } from 'vitest'
import { respond, run, say, startOpenAIServer, think } from '../../support/openai-server.js'
import type { OpenAIServer } from '../../support/openai-server.js'

let server: OpenAIServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const post = (body: unknown = { model: 'm', input: [] }, signal?: AbortSignal) =>
  fetch(`${server?.baseUrl}/responses`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' }, ...(signal ? { signal } : {}) })

/** `event:` names and `data:` payloads of an SSE body. */
function events(text: string): { event: string; data: Record<string, unknown> }[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? ''
      const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? '{}') as Record<string, unknown>
      return { event, data }
    })
}

describe('scripted OpenAI Responses server (test support)', () => {
  it('streams reasoning, message and function_call items the way the API does, then usage', async () => {
    server = await startOpenAIServer([{ type: 'respond', items: [think('a', 'b'), say('Hello there, world!', 'final_answer'), run('ls -la', 'call_x')], usage: { inputTokens: 7, outputTokens: 3, cachedTokens: 2 } }])
    const response = await post({ model: 'm', input: [{ type: 'message', role: 'user', content: [] }] })
    expect(response.headers.get('content-type')).toBe('text/event-stream')
    const stream = events(await response.text())
    expect(stream[0]?.event).toBe('response.created')
    const done = stream.filter((entry) => entry.event === 'response.output_item.done').map((entry) => entry.data.item as Record<string, unknown>)
    expect(done.map((item) => item.type)).toEqual(['reasoning', 'message', 'function_call'])
    expect(done[2]).toMatchObject({ name: 'exec_command', arguments: '{"cmd":"ls -la"}', call_id: 'call_x' })
    const deltas = stream.filter((entry) => entry.event === 'response.output_text.delta').map((entry) => entry.data.delta)
    expect(deltas.join('')).toBe('Hello there, world!')
    expect(deltas.length).toBeGreaterThan(1)
    expect(stream.at(-1)).toMatchObject({ event: 'response.completed', data: { response: { usage: { input_tokens: 7, output_tokens: 3, input_tokens_details: { cached_tokens: 2 } } } } })
    expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/v1/responses', scriptIndex: 0, body: { model: 'm' } })
  })

  it('answers HTTP errors and failed streams as scripted', async () => {
    server = await startOpenAIServer([{ type: 'http_error', status: 429, message: 'slow down', code: 'rate_limit_exceeded' }, { type: 'stream_failed', code: 'server_error', message: 'broke' }])
    const limited = await post()
    expect(limited.status).toBe(429)
    expect(await limited.json()).toEqual({ error: { message: 'slow down', type: 'server_error', code: 'rate_limit_exceeded' } })
    expect(events(await (await post()).text()).map((entry) => entry.event)).toEqual(['response.created', 'response.failed'])
  })

  it('hangs after response.created until the client goes away, and records script exhaustion and unknown paths as problems', async () => {
    server = await startOpenAIServer([{ type: 'hang' }])
    const controller = new AbortController()
    const response = await post(undefined, controller.signal)
    const reader = response.body?.getReader()
    const first = new TextDecoder().decode((await reader?.read())?.value)
    expect(first).toContain('response.created')
    const next = Promise.race([reader?.read().then(() => 'more', () => 'closed'), new Promise((resolve) => setTimeout(() => resolve('still open'), 300))])
    expect(await next).toBe('still open')
    controller.abort()
    expect((await post()).status).toBe(500)
    expect((await fetch(`${server.baseUrl}/models`)).status).toBe(404)
    expect(server.problems).toEqual(['script exhausted at request 2 (/v1/responses)', 'unexpected request GET /v1/models'])
  })

  it('pauses gapMs between items, and push() extends the script', async () => {
    server = await startOpenAIServer()
    server.push({ type: 'respond', items: [say('one'), say('two')], gapMs: 250 }, respond(say('three')))
    expect(server.remaining()).toBe(2)
    const started = performance.now()
    await (await post()).text()
    expect(performance.now() - started).toBeGreaterThanOrEqual(240)
    expect(events(await (await post()).text()).some((entry) => entry.event === 'response.output_text.delta' && entry.data.delta === 'three')).toBe(true)
    expect(server.remaining()).toBe(0)
  })
})
