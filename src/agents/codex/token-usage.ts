import type { AgentUsage } from '../../contract/agent-chat.js'
import { describeCount, isTokenCount } from '../runstate/token-count.js'
import { isObject } from './rollout-line.js'

/**
 * A `token_count.info.total_token_usage` or `token_usage_record.thread_token_usage` object as
 * chatrail usage (pure). Codex reports OpenAI usage, whose input includes cached tokens;
 * chatrail's `inputTokens` excludes cache reads (they are `cacheReadTokens`), as the Claude reader.
 * `undefined` when the object is not a usage at all; `{ invalid }` naming the first count that is
 * not a non-negative integer (the caller leaves the reading out and warns).
 */
export function usageFrom(value: unknown): AgentUsage | { invalid: string } | undefined {
  if (!isObject(value) || value.input_tokens == null || value.output_tokens == null) return undefined
  for (const field of COUNT_FIELDS) {
    const count = value[field]
    if (count != null && !isTokenCount(count)) return { invalid: `${field} is ${describeCount(count)}` }
  }
  const input = value.input_tokens as number
  const cached = isTokenCount(value.cached_input_tokens) ? value.cached_input_tokens : 0
  const written = isTokenCount(value.cache_write_input_tokens) ? value.cache_write_input_tokens : 0
  return {
    inputTokens: Math.max(0, input - cached),
    outputTokens: value.output_tokens as number,
    cacheReadTokens: cached,
    ...(written > 0 ? { cacheCreationTokens: written } : {}),
  }
}

const COUNT_FIELDS = ['input_tokens', 'output_tokens', 'cached_input_tokens', 'cache_write_input_tokens'] as const
