import type { Context, Span } from '@opentelemetry/api'
import type { AdapterFactory } from '../../contract/adapter.js'
import { ChatrailError } from '../../contract/errors.js'
import type { StreamChunk, StreamSource } from '../../contract/stream.js'
import { isNoopSpan, type ActiveTelemetry, type CurrentTelemetry } from './active-telemetry.js'
import { ADAPTER_ABORTED, ADAPTER_CHUNKS, ADAPTER_MESSAGES, ERROR_TYPE, errorTypeOf, GEN_AI_USAGE_INPUT_TOKENS, GEN_AI_USAGE_OUTPUT_TOKENS, safeName } from './attributes.js'

/**
 * The definition's agent with a span per call (`chatrail.adapter`, a child of the turn that made
 * it): from `createSource` to the answer's `done` or `error` chunk, the stream's end, or an abort,
 * whichever comes first. It counts the request's messages and the chunks, and adds a `usage`
 * chunk's token counts; an `error` chunk or a throw makes it status ERROR with `error.type` the
 * error's code (`AGENT_ERROR` when it carries none), never the text. The agent's own work (its
 * HTTP calls, under an instrumentation) runs in the span's context. A failure after an abort is
 * the abort's echo, not an error. Only `createSource` is wrapped; every other property (a live
 * agent's run state, `capabilities`) reads through, as in agent-failures.ts.
 */
export function traceAdapter(adapter: AdapterFactory, current: CurrentTelemetry): AdapterFactory {
  return new Proxy(adapter, {
    get(target, key) {
      if (key !== 'createSource') return Reflect.get(target, key, target) as unknown
      return (...args: Parameters<AdapterFactory['createSource']>) => {
        const telemetry = current()
        return telemetry ? tracedSource(telemetry, target, args) : target.createSource(...args)
      }
    },
  })
}

function tracedSource(telemetry: ActiveTelemetry, adapter: AdapterFactory, args: Parameters<AdapterFactory['createSource']>): StreamSource {
  const { api, tracer } = telemetry
  const parent = api.context.active()
  const span = tracer.startSpan('chatrail.adapter', { attributes: { [ADAPTER_MESSAGES]: args[0].messages.length } }, parent)
  // the API's no-op tracer (no SDK): the agent is called as it is
  if (isNoopSpan(telemetry, span)) return adapter.createSource(...args)
  const context = api.trace.setSpan(parent, span)
  const call = new AdapterCall(telemetry, span)
  let source: StreamSource
  try {
    source = api.context.with(context, () => adapter.createSource(...args))
  } catch (error) {
    call.failed(errorTypeOf(error))
    call.end()
    throw error
  }
  return {
    abort: () => {
      call.aborted = true
      call.end()
      source.abort()
    },
    stream: () => observedStream(api, context, source, call),
  }
}

/** One call's span and what is counted of it. */
class AdapterCall {
  aborted = false
  private chunks = 0
  private inputTokens = 0
  private outputTokens = 0
  private ended = false

  constructor(private readonly telemetry: ActiveTelemetry, private readonly span: Span) {}

  observe(chunk: StreamChunk): void {
    this.chunks++
    if (chunk.type === 'usage' && chunk.usage) {
      this.inputTokens += finite(chunk.usage.promptTokens)
      this.outputTokens += finite(chunk.usage.completionTokens)
    }
    if (chunk.type === 'error') {
      const carried = chunk.metadata?.error
      this.failed(ChatrailError.isInstance(carried) ? safeName(carried.code, 'AGENT_ERROR') : 'AGENT_ERROR')
    }
    if (chunk.type === 'done' || chunk.type === 'error') this.end()
  }

  failed(type: string): void {
    if (this.ended || this.aborted || !this.span.isRecording()) return
    this.span.setAttribute(ERROR_TYPE, type)
    this.span.setStatus({ code: this.telemetry.api.SpanStatusCode.ERROR, message: type })
  }

  end(): void {
    if (this.ended) return
    this.ended = true
    if (this.span.isRecording()) {
      this.span.setAttribute(ADAPTER_CHUNKS, this.chunks)
      if (this.aborted) this.span.setAttribute(ADAPTER_ABORTED, true)
      if (this.inputTokens > 0 || this.outputTokens > 0) this.span.setAttributes({ [GEN_AI_USAGE_INPUT_TOKENS]: this.inputTokens, [GEN_AI_USAGE_OUTPUT_TOKENS]: this.outputTokens })
    }
    this.span.end()
  }
}

/** The source's stream, each step taken in the call's context; closing it early closes the source's (as `for await` would). */
async function* observedStream(api: ActiveTelemetry['api'], context: Context, source: StreamSource, call: AdapterCall): AsyncIterableIterator<StreamChunk> {
  const iterator = api.context.with(context, () => source.stream())
  let finished = false
  try {
    for (;;) {
      let step: IteratorResult<StreamChunk>
      try {
        step = await api.context.with(context, () => iterator.next())
      } catch (error) {
        finished = true // a stream that threw is over: nothing to close
        call.failed(errorTypeOf(error))
        throw error
      }
      if (step.done) {
        finished = true
        return
      }
      call.observe(step.value)
      yield step.value
    }
  } finally {
    call.end()
    if (!finished) await iterator.return?.()
  }
}

const finite = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0)
