import { context, metrics, trace, SpanKind, SpanStatusCode, type Attributes } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader, type DataPoint, type Histogram } from '@opentelemetry/sdk-metrics'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base'
import { build } from 'esbuild'
import fc from 'fast-check'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { StreamChunk } from '../../src/contract/stream.js'
import { commandRoute, defineChat, type ChatDefinition } from '../../src/index.js'
import { createChatHandler, type ChatHandler, type ChatTelemetryOptions } from '../../src/server/index.js'
import { createHandlerTelemetry } from '../../src/server/telemetry/handler-telemetry.js'
import { memoryStore, StoreUnavailableError, type ConversationStore } from '../../src/store/index.js'
import { scriptedAdapter, type ScriptedAdapter } from '../../src/testing/index.js'
import { eventually, listen, sendTurn, userMessage, type Listening } from './support/harness.js'

// Issue 29: OpenTelemetry spans and metrics of createChatHandler, read with the SDK's in-memory
// exporters, over real HTTP (the handler behind node:http, the AI SDK's transport as the client).

/** Text a user types, an agent repeats, a tool reads and a store's error quotes: it must reach no span and no metric. */
const SECRET = 'zebra-quokka-7731'

type Ctx = Record<string, never>

function definition(adapter: ScriptedAdapter | { createSource: ScriptedAdapter['createSource'] }): ChatDefinition<Ctx> {
  return defineChat<Ctx>({
    id: 'orders',
    chat: { adapter },
    conversation: {
      initial: 'idle',
      context: {},
      states: { idle: { on: { start: 'asking' } }, asking: { on: { reset: 'idle' } } },
      routes: [commandRoute({ id: 'start', command: '/start', event: 'start', response: 'Which order?' })],
    },
  })
}

/** An agentic answer that calls two tools (one fails), reports usage, and repeats the user's text everywhere it can. */
const agenticReply: StreamChunk[] = [
  { type: 'text', content: `You said ${SECRET}. ` },
  { type: 'tool_call', toolCall: { id: 'call-1', name: 'lookup_order', args: JSON.stringify({ query: SECRET }) } },
  { type: 'tool_result', toolCall: { id: 'call-1', name: 'lookup_order', args: '', result: `found ${SECRET}` } },
  { type: 'tool_call', toolCall: { id: 'call-2', name: 'refund', args: JSON.stringify({ reason: SECRET }) } },
  { type: 'tool_result', toolCall: { id: 'call-2', name: 'refund', args: '', result: `refused: ${SECRET}` }, metadata: { isError: true } },
  { type: 'usage', usage: { promptTokens: 12, completionTokens: 7, totalTokens: 19 } },
  { type: 'text', content: 'Done.' },
  { type: 'done' },
]

const contextManager = new AsyncLocalStorageContextManager()
let spans: InMemorySpanExporter
let tracerProvider: BasicTracerProvider
let metricExporter: InMemoryMetricExporter
let reader: PeriodicExportingMetricReader
let meterProvider: MeterProvider
let telemetry: ChatTelemetryOptions
let http: Listening | undefined
let handler: ChatHandler | undefined

beforeAll(() => {
  // the context manager every OpenTelemetry setup for Node registers (NodeSDK does): it carries the
  // active span across awaits, so the store's and the agent's spans nest under the turn
  context.setGlobalContextManager(contextManager.enable())
})
afterAll(() => {
  context.disable()
})

beforeEach(() => {
  spans = new InMemorySpanExporter()
  tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] })
  metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE)
  reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 })
  meterProvider = new MeterProvider({ readers: [reader] })
  // injected, not global: other suites in this worker see no provider
  telemetry = { tracer: tracerProvider.getTracer('test'), meter: meterProvider.getMeter('test') }
})
afterEach(async () => {
  await http?.close()
  await handler?.close({ deadlineMs: 1000 })
  http = undefined
  handler = undefined
  await tracerProvider.shutdown()
  await meterProvider.shutdown()
})

async function serve(adapter: Parameters<typeof definition>[0], store: ConversationStore = memoryStore(), onError: (error: unknown) => void = () => undefined): Promise<Listening> {
  handler = createChatHandler({ definition: definition(adapter), store, authenticate: 'none', telemetry, onError })
  http = await listen(handler)
  return http
}

const named = (name: string): ReadableSpan[] => spans.getFinishedSpans().filter((span) => span.name === name)
const one = (name: string): ReadableSpan => {
  const found = named(name)
  expect(found.map((span) => span.name)).toEqual([name])
  return found[0] as ReadableSpan
}
const parentOf = (span: ReadableSpan): string | undefined => span.parentSpanContext?.spanId
const idOf = (span: ReadableSpan): string => span.spanContext().spanId

/** A turn POSTed as useChat sends it, read whole (its error part included: `sendTurn` throws at one). */
async function postTurn(url: string, conversationId: string, messageId: string, text: string): Promise<string> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: conversationId, messages: [userMessage(messageId, text)], trigger: 'submit-message' }) })
  return response.text()
}

/** The request span of a turn ends with the turn, after the response's body closed. */
const turnEnded = (count = 1): Promise<void> => eventually(async () => named('POST /api/chat').length >= count && named('chatrail.turn').length >= count)

async function metricPoints(name: string): Promise<DataPoint<unknown>[]> {
  await reader.forceFlush()
  const latest = metricExporter.getMetrics().at(-1)
  const metric = latest?.scopeMetrics.flatMap((scope) => scope.metrics).find((candidate) => candidate.descriptor.name === name)
  return (metric?.dataPoints ?? []) as DataPoint<unknown>[]
}

/** Everything a span carries that could hold text: its name, attributes, events (and theirs), links and status message. */
function textsOf(span: ReadableSpan): string[] {
  const values = (attributes: Attributes | undefined): string[] => Object.entries(attributes ?? {}).flatMap(([key, value]) => [key, JSON.stringify(value) ?? ''])
  return [
    span.name,
    ...values(span.attributes),
    ...span.events.flatMap((event) => [event.name, ...values(event.attributes)]),
    ...span.links.flatMap((link) => values(link.attributes)),
    span.status.message ?? '',
    ...values(span.resource.attributes),
  ]
}

describe('telemetry: spans', () => {
  it('a deterministic turn: request → turn → the store writes; the route decision and the states; no adapter call', async () => {
    const agent = scriptedAdapter(['unused'])
    const { url } = await serve(agent)
    const reply = await sendTurn(url, 'c1', [userMessage('u1', '/start')])
    expect(reply.text).toBe('Which order?')
    await turnEnded()
    const request = one('POST /api/chat')
    expect(request.kind).toBe(SpanKind.SERVER)
    expect(request.attributes).toMatchObject({ 'http.request.method': 'POST', 'http.route': '/api/chat', 'url.path': '/api/chat', 'url.scheme': 'http', 'http.response.status_code': 200, 'chatrail.conversation.id': 'c1' })
    expect(request.status.code).toBe(SpanStatusCode.UNSET)
    const turn = one('chatrail.turn')
    expect(parentOf(turn)).toBe(idOf(request))
    // the request's span outlives the response's headers: it ends with its turn, after it (the
    // exporter gets each span as it ends; end times of two spans are not comparable to the
    // millisecond, the SDK aligns each span's clock with Date.now when it starts)
    const ended = spans.getFinishedSpans()
    expect(ended.indexOf(request)).toBeGreaterThan(ended.indexOf(turn))
    expect(turn.attributes).toMatchObject({
      'chatrail.conversation.id': 'c1',
      'chatrail.turn.kind': 'deterministic',
      'chatrail.turn.outcome': 'ok',
      'chatrail.turn.plan': 'new',
      'chatrail.turn.replayed': false,
      'chatrail.turn.finish_reason': 'stop',
      'chatrail.route.id': 'start',
      'chatrail.turn.event': 'start',
      'chatrail.state.before': 'idle',
      'chatrail.state.after': 'asking',
    })
    expect(String(turn.attributes['chatrail.turn.id'])).toMatch(/^c1:/)
    // the first read and the claim belong to the request; the turn's one write to the turn
    expect(parentOf(one('chatrail.store.load'))).toBe(idOf(request))
    const claim = one('chatrail.store.claim')
    expect(parentOf(claim)).toBe(idOf(request))
    expect(claim.attributes).toMatchObject({ 'chatrail.store.operation': 'claim', 'chatrail.store.kind': 'memory', 'chatrail.store.result': 'claimed', 'chatrail.conversation.id': 'c1' })
    const append = one('chatrail.store.append')
    expect(parentOf(append)).toBe(idOf(turn))
    expect(append.attributes).toMatchObject({ 'chatrail.store.result': 'appended' })
    expect(named('chatrail.adapter')).toEqual([])
    expect(agent.calls).toHaveLength(0)
    // every span of the request is in one trace
    expect(new Set(spans.getFinishedSpans().map((span) => span.spanContext().traceId)).size).toBe(1)
  })

  it('a regenerate of a deterministic answer is a replayed turn, still a child of its request', async () => {
    const { url } = await serve(scriptedAdapter(['unused']))
    const first = await sendTurn(url, 'c1r', [userMessage('u1', '/start')])
    await turnEnded(1)
    await sendTurn(url, 'c1r', [userMessage('u1', '/start')], { trigger: 'regenerate-message', messageId: first.message?.id })
    await turnEnded(2)
    const [, replay] = named('chatrail.turn')
    expect(replay?.attributes).toMatchObject({ 'chatrail.turn.plan': 'regenerate', 'chatrail.turn.kind': 'deterministic', 'chatrail.turn.replayed': true, 'chatrail.route.id': 'start', 'chatrail.state.after': 'asking' })
    expect(named('POST /api/chat').map(idOf)).toContain(parentOf(replay as ReadableSpan))
  })

  it('an agentic turn: the adapter call and each tool are children of the turn; tokens and counts, never the text', async () => {
    const agent = scriptedAdapter([agenticReply])
    const { url } = await serve(agent)
    const reply = await sendTurn(url, 'c2', [userMessage('u1', `where is ${SECRET}?`)])
    expect(reply.text).toContain(SECRET) // the client gets it all; the telemetry none of it
    await turnEnded()
    const turn = one('chatrail.turn')
    expect(turn.attributes).toMatchObject({ 'chatrail.turn.kind': 'agentic', 'chatrail.turn.outcome': 'ok', 'chatrail.state.before': 'idle', 'chatrail.state.after': 'idle' })
    expect(turn.attributes['chatrail.route.id']).toBeUndefined()
    const adapter = one('chatrail.adapter')
    expect(parentOf(adapter)).toBe(idOf(turn))
    expect(adapter.attributes).toMatchObject({ 'chatrail.adapter.messages': 1, 'chatrail.adapter.chunks': agenticReply.length, 'gen_ai.usage.input_tokens': 12, 'gen_ai.usage.output_tokens': 7 })
    expect(adapter.status.code).toBe(SpanStatusCode.UNSET)
    const lookup = one('execute_tool lookup_order')
    expect(parentOf(lookup)).toBe(idOf(turn))
    expect(lookup.attributes).toEqual({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'lookup_order', 'gen_ai.tool.call.id': 'call-1' })
    expect(lookup.status.code).toBe(SpanStatusCode.UNSET)
    const refund = one('execute_tool refund')
    expect(refund.status).toEqual({ code: SpanStatusCode.ERROR, message: 'tool_error' })
    expect(refund.attributes['error.type']).toBe('tool_error')
    // the tools ended while the agent's call was still streaming
    const ended = spans.getFinishedSpans()
    expect(ended.indexOf(refund)).toBeLessThan(ended.indexOf(adapter))
  })

  it('a failed agent: the adapter span and the turn are status ERROR with the code, not the message', async () => {
    const failing = scriptedAdapter([[{ type: 'text', content: 'partial ' }, { type: 'error', content: `provider said: ${SECRET}`, metadata: { error: new Error(`400: ${SECRET}`) } }]])
    const errors: unknown[] = []
    const { url } = await serve(failing, memoryStore(), (error) => errors.push(error))
    expect(await postTurn(url, 'c3', 'u1', `refund ${SECRET}`)).toContain('"errorText":"AGENT_ERROR"')
    await turnEnded()
    expect(errors.length).toBeGreaterThan(0) // the operator still gets the whole error, through onError
    const adapter = one('chatrail.adapter')
    expect(adapter.status).toEqual({ code: SpanStatusCode.ERROR, message: 'AGENT_ERROR' })
    const turn = one('chatrail.turn')
    expect(turn.status.code).toBe(SpanStatusCode.ERROR)
    expect(turn.attributes).toMatchObject({ 'chatrail.turn.finish_reason': 'error', 'error.type': 'AGENT_ERROR' })
    for (const span of spans.getFinishedSpans()) expect(textsOf(span).filter((text) => text.includes(SECRET)), span.name).toEqual([])
  })

  it('a failing store operation: its span is ERROR with the error\'s class or code, the turn ends STORE_FAILED with no state after', async () => {
    const store = memoryStore()
    const failingAppend: ConversationStore = new Proxy(store, {
      get(target, key) {
        // a database error that quotes the value it refused: the message must go nowhere
        if (key === 'append') return () => Promise.reject(new Error(`invalid input: ${SECRET}`))
        return Reflect.get(target, key, target) as unknown
      },
    })
    const { url } = await serve(scriptedAdapter(['unused']), failingAppend)
    expect(await postTurn(url, 'c4', 'u1', '/start')).toContain('"errorText":"STORE_FAILED"')
    await turnEnded()
    const append = one('chatrail.store.append')
    expect(append.status).toEqual({ code: SpanStatusCode.ERROR, message: 'Error' })
    expect(append.attributes['error.type']).toBe('Error')
    expect(append.events).toEqual([]) // no exception event: its message is the error's text
    const turn = one('chatrail.turn')
    expect(turn.status).toEqual({ code: SpanStatusCode.ERROR, message: 'STORE_FAILED' })
    // what was decided is still known (from the session's trace); nothing was stored, so no state after
    expect(turn.attributes).toMatchObject({ 'chatrail.turn.kind': 'deterministic', 'chatrail.route.id': 'start', 'chatrail.state.before': 'idle', 'error.type': 'STORE_FAILED' })
    expect(turn.attributes['chatrail.state.after']).toBeUndefined()
    const duration = (await metricPoints('chatrail.store.operation.duration')).find((point) => point.attributes['chatrail.store.operation'] === 'append')
    expect(duration?.attributes).toEqual({ 'chatrail.store.operation': 'append', 'chatrail.store.kind': 'memory', 'error.type': 'Error' })
  })

  it('a store that is down: the read\'s span carries STORE_UNAVAILABLE, the request is a 5xx ERROR named by its code', async () => {
    const down: ConversationStore = new Proxy(memoryStore(), {
      get(target, key) {
        if (key === 'load') return () => Promise.reject(new StoreUnavailableError('load', new Error(`connect ECONNREFUSED ${SECRET}`)))
        return Reflect.get(target, key, target) as unknown
      },
    })
    const { url } = await serve(scriptedAdapter(['unused']), down)
    const response = await fetch(`${url}?id=c5`)
    expect(response.status).toBe(503)
    await eventually(async () => named('GET /api/chat').length === 1)
    const load = one('chatrail.store.load')
    expect(load.status).toEqual({ code: SpanStatusCode.ERROR, message: 'STORE_UNAVAILABLE' })
    const request = one('GET /api/chat')
    expect(parentOf(load)).toBe(idOf(request))
    expect(request.status).toEqual({ code: SpanStatusCode.ERROR, message: 'store_unavailable' })
    expect(request.attributes).toMatchObject({ 'http.response.status_code': 503, 'error.type': 'store_unavailable', 'chatrail.error.code': 'store_unavailable', 'chatrail.conversation.id': 'c5' })
    for (const span of spans.getFinishedSpans()) expect(textsOf(span).filter((text) => text.includes(SECRET)), span.name).toEqual([])
  })

  it('a 409: counted as a busy answer; its span names the code and keeps status UNSET (a client error)', async () => {
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const slow = scriptedAdapter([async function* () {
      yield { type: 'text', content: 'thinking…' } satisfies StreamChunk
      await gate
      yield { type: 'done' } satisfies StreamChunk
    }()])
    const { url } = await serve(slow)
    const body = (messageId: string): string => JSON.stringify({ id: 'c6', messages: [userMessage(messageId, `hello ${SECRET}`)], trigger: 'submit-message' })
    const first = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body('u1') })
    expect(first.status).toBe(200)
    const busy = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body('u2') })
    expect(busy.status).toBe(409)
    release()
    await first.text()
    await turnEnded(1)
    await eventually(async () => named('POST /api/chat').length === 2)
    const refused = named('POST /api/chat').find((span) => span.attributes['http.response.status_code'] === 409) as ReadableSpan
    expect(refused.status.code).toBe(SpanStatusCode.UNSET)
    expect(refused.attributes).toMatchObject({ 'chatrail.error.code': 'conversation_busy' })
    expect(refused.attributes['error.type']).toBeUndefined()
    expect(named('chatrail.store.claim').map((span) => span.attributes['chatrail.store.result']).sort()).toEqual(['busy', 'claimed'])
    const [busyAnswers] = await metricPoints('chatrail.busy_responses')
    expect(busyAnswers?.value).toBe(1)
  })

  it('a method HTTP does not define is _OTHER, never the client\'s word', async () => {
    handler = createChatHandler({ definition: definition(scriptedAdapter(['unused'])), store: memoryStore(), authenticate: 'none', telemetry })
    expect((await handler(new Request('http://localhost/api/chat', { method: SECRET }))).status).toBe(405)
    const request = one('HTTP /api/chat')
    expect(request.attributes).toMatchObject({ 'http.request.method': '_OTHER', 'http.response.status_code': 405, 'chatrail.error.code': 'method_not_allowed' })
    expect(textsOf(request).filter((text) => text.includes(SECRET))).toEqual([])
  })

  it('a resumed stream\'s route names its id as {id}', async () => {
    const { url } = await serve(scriptedAdapter(['unused']))
    await fetch(`${url}/c7/stream`)
    await eventually(async () => named('GET /api/chat/{id}/stream').length === 1)
    expect(one('GET /api/chat/{id}/stream').attributes).toMatchObject({ 'http.route': '/api/chat/{id}/stream', 'url.path': '/api/chat/c7/stream', 'chatrail.conversation.id': 'c7' })
  })

  it('under a span already active (an HTTP instrumentation\'s), the request span is its INTERNAL child', async () => {
    handler = createChatHandler({ definition: definition(scriptedAdapter(['unused'])), store: memoryStore(), authenticate: 'none', telemetry })
    const outer = (telemetry.tracer as NonNullable<ChatTelemetryOptions['tracer']>).startSpan('GET')
    const response = await context.with(trace.setSpan(context.active(), outer), () => (handler as ChatHandler)(new Request('http://localhost/chat?id=c8')))
    expect(response.status).toBe(200)
    outer.end()
    const request = one('GET /chat')
    expect(request.kind).toBe(SpanKind.INTERNAL)
    expect(parentOf(request)).toBe(outer.spanContext().spanId)
  })
})

describe('telemetry: metrics and user text', () => {
  it('counts turns by kind and records store latency; no user text in any span or metric attribute', async () => {
    const agent = scriptedAdapter([agenticReply])
    const { url } = await serve(agent)
    await sendTurn(url, 'c9', [userMessage('u1', '/start')])
    await sendTurn(url, 'c9', [userMessage('u1', '/start'), userMessage('u2', `my order is ${SECRET}`)])
    await sendTurn(url, 'c10', [userMessage('u3', `${SECRET} again`)])
    await turnEnded(3)
    const turns = await metricPoints('chatrail.turns')
    const byKind = Object.fromEntries(turns.map((point) => [String(point.attributes['chatrail.turn.kind']), point.value]))
    expect(byKind).toEqual({ deterministic: 1, agentic: 2 })
    expect(turns.every((point) => point.attributes['chatrail.turn.outcome'] === 'ok')).toBe(true)
    const durations = await metricPoints('chatrail.turn.duration')
    expect(durations.reduce((sum, point) => sum + (point.value as Histogram).count, 0)).toBe(3)
    const store = await metricPoints('chatrail.store.operation.duration')
    const appends = store.find((point) => point.attributes['chatrail.store.operation'] === 'append')?.value as Histogram | undefined
    expect(appends?.count).toBe(3)
    expect(appends?.min).toBeGreaterThanOrEqual(0)
    expect(appends?.max).toBeLessThan(10) // seconds, not milliseconds
    const all = spans.getFinishedSpans()
    expect(all.length).toBeGreaterThan(10)
    for (const span of all) expect(textsOf(span).filter((text) => text.includes(SECRET)), span.name).toEqual([])
    await reader.forceFlush()
    const metricText = JSON.stringify(metricExporter.getMetrics(), (_key, value: unknown) => (typeof value === 'bigint' ? String(value) : value))
    expect(metricText).toContain('chatrail.turns') // the check reads the real export
    expect(metricText).not.toContain(SECRET)
  })
})

describe('telemetry: on, off and absent', () => {
  it('defaults to the global API: a provider registered globally gets the spans', async () => {
    const globalSpans = new InMemorySpanExporter()
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(globalSpans)] })
    trace.setGlobalTracerProvider(provider)
    try {
      handler = createChatHandler({ definition: definition(scriptedAdapter(['unused'])), store: memoryStore(), authenticate: 'none' })
      http = await listen(handler)
      await sendTurn(http.url, 'c11', [userMessage('u1', '/start')])
      await eventually(async () => globalSpans.getFinishedSpans().some((span) => span.name === 'chatrail.turn'))
      expect(globalSpans.getFinishedSpans().find((span) => span.name === 'chatrail.turn')?.instrumentationScope.name).toBe('chatrail')
    } finally {
      trace.disable()
      metrics.disable()
      await provider.shutdown()
    }
  })

  it('telemetry: false never loads the API and changes nothing', async () => {
    let loads = 0
    const off = createHandlerTelemetry(false, () => undefined, async () => {
      loads++
      return undefined
    })
    const store = memoryStore()
    expect(off.store(store)).toBe(store)
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(loads).toBe(0)
    handler = createChatHandler({ definition: definition(scriptedAdapter(['unused'])), store: memoryStore(), authenticate: 'none', telemetry: false })
    http = await listen(handler)
    // a global provider would see spans if the handler made any
    const globalSpans = new InMemorySpanExporter()
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(globalSpans)] })
    trace.setGlobalTracerProvider(provider)
    try {
      expect((await sendTurn(http.url, 'c12', [userMessage('u1', '/start')])).text).toBe('Which order?')
      expect(globalSpans.getFinishedSpans()).toEqual([])
    } finally {
      trace.disable()
      await provider.shutdown()
    }
  })

  it('without @opentelemetry/api installed: nothing is traced, nothing fails, the store is used as it is', async () => {
    const errors: unknown[] = []
    const absent = createHandlerTelemetry(undefined, (error) => errors.push(error), async () => undefined)
    const store = memoryStore()
    const wrapped = absent.store(store)
    expect(await absent.request(new Request('http://localhost/chat'), async () => new Response('ok'))).toBeInstanceOf(Response)
    expect(await wrapped.claim('c13', 't1', { leaseMs: 1000 })).toMatchObject({ status: 'claimed' })
    expect(wrapped.kind).toBe('memory')
    expect(wrapped.appendTurnParts).toBeTypeOf('function')
    const turn = absent.turn(new Request('http://localhost/chat'), { conversationId: 'c13', turnId: 'c13:1', plan: 'new', stateBefore: () => 'idle', trace: () => undefined })
    expect(turn.run(() => 42)).toBe(42)
    expect(errors).toEqual([])
    expect(spans.getFinishedSpans()).toEqual([])
  })

  it('an API that fails to load is reported to onError once, and the handler serves without telemetry', async () => {
    const errors: unknown[] = []
    const broken = createHandlerTelemetry({}, (error) => errors.push(error), () => Promise.reject(new Error('broken install')))
    const response = await broken.request(new Request('http://localhost/chat'), async () => new Response('served'))
    expect(await response.text()).toBe('served')
    expect(errors).toHaveLength(1)
  })

  it('a meter that fails to make its instruments is reported, and the handler serves without telemetry', async () => {
    const errors: unknown[] = []
    const meter = { createCounter: () => { throw new Error('broken meter') } } as unknown as NonNullable<ChatTelemetryOptions['meter']>
    handler = createChatHandler({ definition: definition(scriptedAdapter(['unused'])), store: memoryStore(), authenticate: 'none', telemetry: { ...telemetry, meter }, onError: (error) => errors.push(error) })
    http = await listen(handler)
    expect((await sendTurn(http.url, 'c14', [userMessage('u1', '/start')])).text).toBe('Which order?')
    expect(errors).toEqual([new Error('broken meter')])
    expect(spans.getFinishedSpans()).toEqual([])
  })

  it('keeps a store\'s optional operations absent and its own additions callable, bound to it', async () => {
    const active = createHandlerTelemetry(telemetry, () => undefined)
    const bare = memoryStore()
    const withoutParts = { ...bare, appendTurnParts: undefined, readTurnParts: undefined, extra(this: unknown) { return this } } as ConversationStore & { extra: () => unknown }
    const wrapped = active.store(withoutParts) as typeof withoutParts
    expect(wrapped.appendTurnParts).toBeUndefined()
    expect(wrapped.extra()).toBe(withoutParts)
    expect(wrapped.load).toBe(wrapped.load) // one wrapper per operation
  })

  it('the traced store answers exactly as the store it wraps, whatever the operations (spans recorded)', async () => {
    type Step =
      | { readonly op: 'append'; readonly id: string; readonly expected: number; readonly text: string }
      | { readonly op: 'claim' | 'load' | 'delete' | 'takeSignals' | 'signal'; readonly id: string }
      | { readonly op: 'release' | 'renew'; readonly id: string; readonly token: number }
    const id = fc.constantFrom('a', 'b')
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.record({ op: fc.constant('append' as const), id, expected: fc.nat(3), text: fc.string({ maxLength: 8 }) }),
      fc.record({ op: fc.constantFrom('claim' as const, 'load' as const, 'delete' as const, 'takeSignals' as const, 'signal' as const), id }),
      fc.record({ op: fc.constantFrom('release' as const, 'renew' as const), id, token: fc.nat(3) }),
    )
    const traced = createHandlerTelemetry(telemetry, () => undefined)
    await traced.request(new Request('http://localhost/'), async () => new Response()) // the API has loaded
    await fc.assert(fc.asyncProperty(fc.array(step, { maxLength: 25 }), async (steps) => {
      let now = 0
      const clock = (): number => now
      const plain = memoryStore({ clock })
      const wrapped = traced.store(memoryStore({ clock }))
      const outcome = async (store: ConversationStore, s: Step, n: number): Promise<unknown> => {
        try {
          const lease = 'token' in s ? { conversationId: s.id, turnId: 't', token: s.token, expiresAt: new Date(now + 1000) } : undefined
          switch (s.op) {
            case 'append': return await store.append(s.id, { expectedVersion: s.expected, definition: { id: 'd', revision: 1 }, messages: [{ id: `m${n}`, role: 'user', content: s.text, status: 'complete', createdAt: new Date(now) }] })
            case 'claim': return await store.claim(s.id, `t${n}`, { leaseMs: 1000 })
            case 'load': return await store.load(s.id)
            case 'delete': return await store.delete(s.id)
            case 'takeSignals': return await store.takeSignals({ conversationId: s.id, token: 1 })
            case 'signal': return await store.signal(s.id, { type: 'stop' })
            case 'release': return await store.release(lease as NonNullable<typeof lease>, 'completed')
            case 'renew': return await store.renew(lease as NonNullable<typeof lease>, { leaseMs: 1000 })
          }
        } catch (error) {
          return { threw: (error as { code?: unknown }).code ?? String(error) }
        }
      }
      for (const [n, s] of steps.entries()) {
        now += 100
        expect(await outcome(wrapped, s, n)).toEqual(await outcome(plain, s, n))
      }
    }), { numRuns: 60 })
    expect(named('chatrail.store.load').length + named('chatrail.store.append').length).toBeGreaterThan(0) // the traced path ran
  })

  it('refuses a telemetry option that is neither an object nor false', () => {
    expect(() => createChatHandler({ definition: definition(scriptedAdapter(['unused'])), store: memoryStore(), authenticate: 'none', telemetry: true as unknown as false })).toThrow(/telemetry must be \{ tracer\?, meter\? \} or false/)
  })
})

describe('telemetry: the bundle', () => {
  it('chatrail/server imports @opentelemetry/api only dynamically (an app without it bundles and runs)', async () => {
    const result = await build({
      entryPoints: ['src/server/index.ts'], bundle: true, write: false, metafile: true, platform: 'neutral', format: 'esm', logLevel: 'silent',
      external: ['zod', 'zod/*', 'eventsource-parser', 'yaml', 'fzstd', 'node:*', '@opentelemetry/api'],
    })
    const imports = Object.values(result.metafile.outputs).flatMap((output) => output.imports).filter((imported) => imported.path === '@opentelemetry/api')
    expect(imports.length).toBeGreaterThan(0)
    expect(imports.map((imported) => imported.kind)).toEqual(imports.map(() => 'dynamic-import'))
  })
})
