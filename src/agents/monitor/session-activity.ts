import type { AgentMessage } from '../../contract/agent-chat.js'
import type { SessionActivity } from './monitor-entry.js'

const MAX_LABEL = 60

/**
 * Pure. What the session did last, from the reader's newest message: a tool by its name, a dialog
 * by its prompt, text by its first line. Agent-neutral: it reads the shared `AgentMessage` only.
 */
export function activityOf(message: AgentMessage | undefined): SessionActivity | undefined {
  if (message === undefined) return undefined
  switch (message.kind) {
    case 'tool':
      return message.tool === undefined ? undefined : { kind: 'tool', label: shorten(message.tool.name) }
    case 'dialog':
      return { kind: 'dialog', label: shorten(message.dialog?.prompt ?? 'a dialog') }
    case 'thinking':
      return { kind: 'thinking', label: shorten(message.text ?? '') }
    case 'lifecycle':
      return { kind: 'lifecycle', label: shorten(message.text ?? '') }
    case 'text':
      return { kind: message.role === 'user' ? 'prompt' : 'reply', label: shorten(message.text ?? '') }
  }
}

/** Pure. The first non-blank line, cut to `max` characters with an ellipsis. */
export function shorten(text: string, max = MAX_LABEL): string {
  const line = text.split('\n').find((part) => part.trim() !== '')?.trim() ?? ''
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}
