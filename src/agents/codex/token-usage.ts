import type { AgentUsage } from '../runstate/agent-chat.js'
import { isObject } from './rollout-line.js'

/**
 * A `token_count.info.total_token_usage` or `token_usage_record.thread_token_usage` object as
 * chatrail usage (pure). Codex reports OpenAI usage, whose input includes cached tokens;
 * chatrail's `inputTokens` excludes cache reads (they are `cacheReadTokens`), as the Claude reader.
 */
export function usageFrom(value: unknown): AgentUsage | undefined {
  if (!isObject(value) || typeof value.input_tokens !== 'number' || typeof value.output_tokens !== 'number') return undefined
  const cached = typeof value.cached_input_tokens === 'number' ? value.cached_input_tokens : 0
  const written = typeof value.cache_write_input_tokens === 'number' ? value.cache_write_input_tokens : 0
  return {
    inputTokens: Math.max(0, value.input_tokens - cached),
    outputTokens: value.output_tokens,
    cacheReadTokens: cached,
    ...(written > 0 ? { cacheCreationTokens: written } : {}),
  }
}
