import { AnswerParts } from '../contract/answer-parts.js'
import type { ContentPart } from '../contract/message.js'
import type { MessageSource } from '../contract/message-source.js'
import type { RetrievedDocument } from '../contract/memory.js'
import { historyOf } from '../contract/history-view.js'
import { buildAdapterRequest } from './adapter-request.js'
import type { ControllerContext } from './controller-context.js'
import { describeThrown, ErrorCodes, RuntimeError } from './errors.js'
import { consumeStream, errorFromThrown } from './stream-consumer.js'
import { failTurn } from './turn-failure.js'
import { countable, elapsedMs } from './turn-measures.js'
import { SUPERSEDED } from './superseded.js'
import type { Turn } from './turn-tracker.js'

/**
 * One model call streamed into the assistant message `assistantId` (agentskit-contract §2.4–2.5):
 * skills → retrieval (only when `query` is non-empty) → request → `createSource` → chunks.
 * Every failure on the way — a rejecting skill or retriever, a throwing `createSource`, an error
 * chunk, a throwing iterator — ends the turn through `fail`; this function never rejects.
 * Returns true when the turn is still current and succeeded.
 */
export async function runModelTurn(ctx: ControllerContext, turn: Turn, assistantId: string, query: string): Promise<boolean> {
  /** Ends the turn as an error, as data (turn-failure.ts); the caller's promise resolves. */
  const fail = (error: Error): false => failTurn(ctx, turn, assistantId, error)

  const activation = await turn.race(ctx.skills())
  if (activation === SUPERSEDED || !turn.isCurrent()) return false
  if (!activation.ok) return fail(activation.error)

  const config = ctx.config()
  let documents: RetrievedDocument[] | undefined
  if (config.retriever && query) {
    const retriever = config.retriever
    try {
      const retrieved = await turn.race(
        Promise.resolve().then(() => retriever.retrieve({ query, messages: ctx.messages() })),
      )
      if (retrieved === SUPERSEDED) return false
      documents = retrieved
    } catch (thrown) {
      return fail(new RuntimeError({ code: ErrorCodes.AK_RUNTIME_STEP_FAILED, message: `Retriever failed: ${describeThrown(thrown)}`, cause: thrown }))
    }
  }
  if (!turn.isCurrent()) return false

  const started = ctx.clock()
  const request = buildAdapterRequest({
    // The request's array is built only if the adapter reads it, the state's only if someone reads it.
    messages: ctx.store.snapshot().list,
    config,
    systemPrompt: activation.systemPrompt,
    tools: ctx.tools.list(),
    documents,
    createdAt: started,
  })
  let source
  try {
    source = config.adapter.createSource(request)
  } catch (thrown) {
    return fail(errorFromThrown(thrown, 'createSource failed'))
  }
  turn.attach(source)
  // Counted after `createSource` (an adapter may have replaced the array), without building it.
  ctx.emit({ type: 'llm:start', messageCount: historyOf(request).length })

  const answer = new AnswerParts()
  let reasoning = ''
  const sources: MessageSource[] = []
  let lastUsage: { promptTokens: number; completionTokens: number } | undefined
  const patch = (fields: { content?: string; parts?: ContentPart[] }, metadata?: Record<string, unknown>): void => {
    ctx.store.dispatch({ type: 'message-patched', id: assistantId, patch: fields, metadata })
  }
  const outcome = await consumeStream(source, turn, {
    text: (delta) => {
      if (answer.content === '') ctx.emit({ type: 'llm:first-token', latencyMs: elapsedMs(started, ctx.clock()) })
      answer.text(delta)
      const parts = answer.parts
      patch(parts ? { content: answer.content, parts: [...parts] } : { content: answer.content })
    },
    component: (part) => {
      if (answer.content === '') ctx.emit({ type: 'llm:first-token', latencyMs: elapsedMs(started, ctx.clock()) })
      answer.component(part)
      patch({ content: answer.content, parts: [...(answer.parts ?? [])] })
    },
    source: (cited) => {
      // Bounded like every other input (an adapter could cite forever); later ones are dropped.
      if (sources.length >= ctx.kit.maxSources) return
      sources.push(cited)
      patch({}, { sources: [...sources] })
    },
    reasoning: (delta) => {
      reasoning += delta
      patch({}, { reasoning })
    },
    tool_result: (content) => patch({}, { toolResult: content }),
    usage: (usage) => {
      lastUsage = { promptTokens: countable(usage.promptTokens), completionTokens: countable(usage.completionTokens) }
      patch({}, { usage })
      ctx.store.dispatch({ type: 'usage-added', usage })
    },
    toolCall: (payload, metadata) => ctx.kit.withToolHandling((tools) => tools.handleToolCallChunk(ctx, turn, assistantId, payload, metadata)),
    // not loaded: no tool call was recorded, so there is none to settle (tool-loader.ts)
    toolResultOf: (payload, content, metadata) => ctx.kit.loadedToolHandling()?.settleProviderToolCall(ctx, assistantId, payload, content, metadata),
    sourceOf: ctx.kit.sourceOfChunk,
    doneRecord: (record) => void (ctx.doneRecord = { assistantId, record }),
  })

  if (outcome.kind === 'superseded') return false
  if (outcome.kind === 'error') return fail(outcome.error)
  if (!turn.isCurrent()) return false
  ctx.emit({
    type: 'llm:end',
    content: answer.content,
    ...(lastUsage ? { usage: lastUsage } : {}),
    durationMs: elapsedMs(started, ctx.clock()),
  })
  return true
}
