import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from '@ai-sdk/provider'
import { MockLanguageModelV3 } from 'ai/test'

/** The AI SDK's own mock model (`ai/test`), scripted one stream per call, for unit tests. */

export const usage = { inputTokens: { total: 11, noCache: 11, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 7, text: 7, reasoning: 0 } }

export const textParts = (text: string, finish: 'stop' | 'tool-calls' = 'stop'): LanguageModelV3StreamPart[] => [
  { type: 'stream-start', warnings: [] },
  { type: 'text-start', id: 't1' },
  { type: 'text-delta', id: 't1', delta: text.slice(0, 3) },
  { type: 'text-delta', id: 't1', delta: text.slice(3) },
  { type: 'text-end', id: 't1' },
  { type: 'finish', finishReason: { unified: finish, raw: finish }, usage },
]

export const toolCallParts = (toolName: string, input: Record<string, unknown>, toolCallId = 'call-1'): LanguageModelV3StreamPart[] => [
  { type: 'stream-start', warnings: [] },
  { type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) },
  { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage },
]

/** A stream that sends `parts` and then stays open until the call's abort signal fires. */
export function hangingStream(parts: LanguageModelV3StreamPart[], signal: AbortSignal | undefined): ReadableStream<LanguageModelV3StreamPart> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part)
      signal?.addEventListener('abort', () => controller.error(signal.reason), { once: true })
    },
  })
}

export interface ScriptedModel {
  model: MockLanguageModelV3
  calls: LanguageModelV3CallOptions[]
}

/** One scripted stream per call, in order; a call past the script fails the test loudly. */
export function scriptedModel(script: Array<LanguageModelV3StreamPart[] | ((options: LanguageModelV3CallOptions) => ReadableStream<LanguageModelV3StreamPart>)>): ScriptedModel {
  const calls: LanguageModelV3CallOptions[] = []
  const model = new MockLanguageModelV3({
    doStream: async (options) => {
      calls.push(options)
      const step = script[calls.length - 1]
      if (step === undefined) throw new Error(`the mock model was called ${calls.length} times; the script has ${script.length} streams`)
      const stream = typeof step === 'function' ? step(options) : new ReadableStream<LanguageModelV3StreamPart>({
        start(controller) {
          for (const part of step) controller.enqueue(part)
          controller.close()
        },
      })
      return { stream }
    },
  })
  return { model, calls }
}
