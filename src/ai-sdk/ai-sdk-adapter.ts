import { streamText, type LanguageModel, type TextStreamPart, type ToolSet } from 'ai'
import type { AdapterFactory, AdapterRequest } from '../contract/adapter.js'
import type { StreamChunk, StreamSource } from '../contract/stream.js'
import { toModelPrompt } from './model-messages.js'
import { toModelTools } from './model-tools.js'
import { ModelProviderError, providerErrorOf } from './provider-error.js'
import { readStreamPart } from './stream-parts.js'

/**
 * `aiSdkAdapter`: any AI SDK 6 language model as an `AdapterFactory`. One `streamText` call per
 * source, one model step: the model proposes tool calls and the controller runs them (the AI SDK
 * side has no `execute`), then calls the adapter again with the results, so a tool runs once.
 * `chatrail_transition` is a tool like any other here; the session judges the proposal.
 */
export interface AiSdkAdapterOptions {
  /** Any AI SDK language model: `anthropic('claude-…')`, `openai('gpt-…')`, a gateway id string. */
  readonly model: LanguageModel
  /** Goes before the request's own system messages. */
  readonly system?: string
  /** Defaults for what the request's `context` does not set. */
  readonly temperature?: number
  readonly maxOutputTokens?: number
  /** The AI SDK's retries of a failed call (429, 5xx). Default 2, as `streamText`'s. */
  readonly maxRetries?: number
  /** Longest silence between two stream parts before the turn fails with `PROVIDER_TIMEOUT`. Default 60 s. */
  readonly chunkTimeoutMs?: number
  /** Extra HTTP headers for the provider. */
  readonly headers?: Record<string, string>
  /** Passed to `streamText` as is (`{ anthropic: { thinking: … } }`). */
  readonly providerOptions?: Parameters<typeof streamText>[0]['providerOptions']
}

const DEFAULT_CHUNK_TIMEOUT_MS = 60_000

export function aiSdkAdapter(options: AiSdkAdapterOptions): AdapterFactory {
  if (typeof options !== 'object' || options === null || options.model === undefined || options.model === null) {
    throw new TypeError('aiSdkAdapter: pass { model }, an AI SDK language model (e.g. anthropic("claude-sonnet-4-5") from @ai-sdk/anthropic).')
  }
  const chunkTimeoutMs = options.chunkTimeoutMs ?? DEFAULT_CHUNK_TIMEOUT_MS
  if (!Number.isSafeInteger(chunkTimeoutMs) || chunkTimeoutMs <= 0) throw new TypeError(`aiSdkAdapter: chunkTimeoutMs must be a positive integer (got ${String(options.chunkTimeoutMs)}).`)
  return {
    createSource: (request) => createModelSource(options, chunkTimeoutMs, request),
    capabilities: { streaming: true, tools: true, reasoning: true, usage: true },
  }
}

function createModelSource(options: AiSdkAdapterOptions, chunkTimeoutMs: number, request: AdapterRequest): StreamSource {
  const controller = new AbortController()
  const abort = (): void => {
    if (!controller.signal.aborted) controller.abort()
  }
  return { stream: () => streamModel(options, chunkTimeoutMs, request, controller.signal), abort }
}

const errorChunk = (error: ModelProviderError): StreamChunk => ({
  type: 'error',
  content: error.message,
  metadata: { error, code: error.code, ...(error.status === undefined ? {} : { status: error.status }) },
})

async function* streamModel(options: AiSdkAdapterOptions, chunkTimeoutMs: number, request: AdapterRequest, signal: AbortSignal): AsyncGenerator<StreamChunk> {
  if (signal.aborted) return
  const { system, messages } = toModelPrompt(request, options.system)
  const tools = toModelTools(request.context?.tools)
  const temperature = request.context?.temperature ?? options.temperature
  const maxOutputTokens = request.context?.maxTokens ?? options.maxOutputTokens
  let parts: AsyncIterable<TextStreamPart<ToolSet>>
  try {
    const result = streamText({
      model: options.model,
      messages,
      ...(system === undefined ? {} : { system }),
      ...(tools === undefined ? {} : { tools }),
      ...(temperature === undefined ? {} : { temperature }),
      ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
      ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
      ...(options.headers === undefined ? {} : { headers: options.headers }),
      ...(options.providerOptions === undefined ? {} : { providerOptions: options.providerOptions }),
      abortSignal: signal,
      timeout: { chunkMs: chunkTimeoutMs },
      // failures arrive as `error` parts below; the default handler would only log them
      onError: () => undefined,
    })
    parts = result.fullStream
  } catch (error) {
    yield errorChunk(providerErrorOf(error))
    return
  }
  try {
    for await (const part of parts) {
      if (signal.aborted) return
      const reading = readStreamPart(part)
      if (reading.kind === 'chunks') {
        yield* reading.chunks
        continue
      }
      if (reading.kind === 'finish') {
        yield* reading.chunks
        yield { type: 'done', metadata: { finishReason: reading.finishReason } }
        return
      }
      if (reading.kind === 'abort') {
        // not ours: the AI SDK gave up waiting for the next part
        yield errorChunk(new ModelProviderError({ code: 'PROVIDER_TIMEOUT', message: `The model stream sent nothing for ${chunkTimeoutMs} ms.` }))
        return
      }
      yield errorChunk(providerErrorOf(reading.error))
      return
    }
  } catch (error) {
    if (signal.aborted) return
    yield errorChunk(providerErrorOf(error))
    return
  }
  if (!signal.aborted) yield errorChunk(new ModelProviderError({ code: 'PROVIDER_STREAM_ERROR', message: 'The model stream ended without a finish.' }))
}
