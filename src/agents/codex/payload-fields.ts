import { isObject, stringField } from './rollout-line.js'
import type { Json } from './rollout-line.js'
import type { ToolPatch } from './tool-outcome.js'

/** Readers for rollout payload fields whose shape changed between releases (all pure). */

/** Reasoning `summary: [{type:"summary_text", text}]` → the texts. */
export function summaryTexts(summary: unknown): string[] {
  if (!Array.isArray(summary)) return []
  return summary.flatMap((part) => (isObject(part) && typeof part.text === 'string' ? [part.text] : []))
}

/** TurnItem `summary_text: string[]`. */
export function stringArray(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : []
}

/** `arguments` is a JSON string; a string that is not JSON is kept as it is. */
export function parseArguments(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw ?? {}
  try {
    return JSON.parse(raw) as unknown
  } catch {
    return raw
  }
}

/** A call item's own `status` when it already says the call failed. */
export function failedStatus(item: Json): ToolPatch['status'] {
  const status = stringField(item, 'status')
  return status === 'failed' || status === 'incomplete' ? 'error' : undefined
}

/** `codex_error_info` is a string (`"server_overloaded"`) or a one-key object (`{"http_connection_failed":{…}}`). */
export function errorKind(info: unknown): string | undefined {
  if (typeof info === 'string') return info
  if (isObject(info)) return Object.keys(info)[0]
  return undefined
}

/**
 * An error message as a person should read it: Codex records a provider's error body as the
 * message (`{"error":{"message":"…","type":…}}`); its inner `error.message` (or `message`) is
 * what was said. Anything else is kept as it is.
 */
export function readableErrorMessage(message: string): string {
  if (!message.startsWith('{')) return message
  try {
    const parsed: unknown = JSON.parse(message)
    if (!isObject(parsed)) return message
    const inner = isObject(parsed.error) ? stringField(parsed.error, 'message') : undefined
    return inner ?? stringField(parsed, 'message') ?? message
  } catch {
    return message
  }
}
