import type { AgentUsage } from '../../contract/agent-chat.js'
import type { FoldStore } from './fold-store.js'
import type { JsonObject } from './record-fields.js'
import { describeCount, isTokenCount } from '../runstate/token-count.js'

/**
 * Adds one assistant line's `message.usage` to the fold's total. The lines of one API message
 * repeat its usage, so it counts once per message id (the latest value wins). A usage whose counts
 * are not all non-negative safe integers is not counted and leaves a warning instead.
 */
export function countUsage(store: FoldStore, messageId: string, usage: JsonObject | undefined): void {
  if (usage === undefined) return
  const bad = USAGE_FIELDS.find((field) => usage[field] != null && !isTokenCount(usage[field]))
  if (bad !== undefined) {
    warnUsage(store, `assistant message ${messageId}: usage.${bad} is ${describeCount(usage[bad])}, not a non-negative integer; its usage is not counted.`)
    return
  }
  const next: AgentUsage = {
    inputTokens: count(usage.input_tokens),
    outputTokens: count(usage.output_tokens),
    cacheReadTokens: count(usage.cache_read_input_tokens),
    cacheCreationTokens: count(usage.cache_creation_input_tokens),
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

const USAGE_FIELDS = ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'] as const
const MAX_USAGE_WARNINGS = 5

function count(value: unknown): number {
  return isTokenCount(value) ? value : 0
}

/** Warnings live in the scalars (replaced, never mutated), so a snapshot's rollback undoes them too. */
function warnUsage(store: FoldStore, warning: string): void {
  const s = store.scalars
  const shown = s.usageWarnings ?? []
  s.badUsage = (s.badUsage ?? 0) + 1
  if (shown.length < MAX_USAGE_WARNINGS) s.usageWarnings = [...shown, warning]
}
