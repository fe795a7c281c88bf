import type { AgentUsage } from '../runstate/agent-chat.js'
import type { FoldStore } from './fold-store.js'
import type { JsonObject } from './record-fields.js'
import { num } from './record-fields.js'

/**
 * Adds one assistant line's `message.usage` to the fold's total. The lines of one API message
 * repeat its usage, so it counts once per message id (the latest value wins).
 */
export function countUsage(store: FoldStore, messageId: string, usage: JsonObject | undefined): void {
  if (usage === undefined) return
  const next: AgentUsage = {
    inputTokens: num(usage.input_tokens) ?? 0,
    outputTokens: num(usage.output_tokens) ?? 0,
    cacheReadTokens: num(usage.cache_read_input_tokens) ?? 0,
    cacheCreationTokens: num(usage.cache_creation_input_tokens) ?? 0,
  }
  const s = store.scalars
  const total = s.usage ?? { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheCreationTokens: 0 }
  // The lines of one API message repeat its usage: count it once (the latest value wins).
  const last = s.usageMessageId === messageId ? s.usageLast : undefined
  s.usage = {
    inputTokens: total.inputTokens + next.inputTokens - (last?.inputTokens ?? 0),
    outputTokens: total.outputTokens + next.outputTokens - (last?.outputTokens ?? 0),
    cacheReadTokens: (total.cacheReadTokens ?? 0) + (next.cacheReadTokens ?? 0) - (last?.cacheReadTokens ?? 0),
    cacheCreationTokens: (total.cacheCreationTokens ?? 0) + (next.cacheCreationTokens ?? 0) - (last?.cacheCreationTokens ?? 0),
  }
  s.usageMessageId = messageId
  s.usageLast = next
}
