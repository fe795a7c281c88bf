import { asObject, str } from './record-fields.js'

/**
 * True when a parsed JSONL line can only come from a Claude Code transcript (pure): a
 * conversation line (`user` / `assistant` / `system` / `progress` / `attachment` with a `uuid`
 * and a `sessionId` or `message`), or one of its metadata records. Codex rollout lines carry a
 * `payload` envelope instead, so they never match.
 */
export function isClaudeCodeContent(value: unknown): boolean {
  const o = asObject(value)
  const type = str(o?.type)
  if (o === undefined || type === undefined || 'payload' in o) return false
  if (CONVERSATION_TYPES.has(type)) return typeof o.uuid === 'string' && (typeof o.sessionId === 'string' || asObject(o.message) !== undefined)
  return METADATA_TYPES.has(type) && (typeof o.sessionId === 'string' || typeof o.leafUuid === 'string' || typeof o.messageId === 'string' || typeof o.operation === 'string')
}

const CONVERSATION_TYPES = new Set(['user', 'assistant', 'system', 'progress', 'attachment'])
const METADATA_TYPES = new Set(['summary', 'file-history-snapshot', 'queue-operation', 'last-prompt', 'ai-title', 'custom-title', 'agent-name', 'permission-mode', 'mode'])
