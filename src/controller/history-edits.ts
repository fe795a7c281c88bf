import type { Message } from '../contract/message.js'

/** A history rewrite that starts a new model call: keep `kept`, append a fresh assistant, ask `query`. */
export interface RerunPlan {
  kept: Message[]
  query: string
}

export type EditPlan =
  | { kind: 'in-place'; messages: Message[] }
  | { kind: 'truncate'; kept: Message[]; query: string }

/**
 * Pure. `retry()` applies only when history ends in `[user, assistant]`: the assistant is dropped
 * and the user's text asked again. Anything else (e.g. a tool round-trip at the end) → undefined.
 */
export function planRetry(messages: readonly Message[]): RerunPlan | undefined {
  // `regenerate()` of the last message, restricted to a user message right before it.
  return messages[messages.length - 2]?.role === 'user' ? planRegenerate(messages) : undefined
}

/**
 * Pure. `regenerate(id?)`: the target is the assistant with `id` (or the last message when it is an
 * assistant); it and everything after it are dropped, and the nearest earlier user message is
 * asked again. Unknown ids, non-assistant targets, or no earlier user message → undefined.
 */
export function planRegenerate(messages: readonly Message[], messageId?: string): RerunPlan | undefined {
  const index = messageId === undefined ? messages.length - 1 : messages.findIndex((message) => message.id === messageId)
  if (index < 0 || messages[index]?.role !== 'assistant') return undefined
  for (let cursor = index - 1; cursor >= 0; cursor -= 1) {
    const candidate = messages[cursor] as Message
    if (candidate.role === 'user') return { kept: messages.slice(0, index), query: candidate.content }
  }
  return undefined
}

/**
 * Pure. `edit(id, text)`: a user message keeps its id and `createdAt`, takes the new text, and
 * every later message is dropped (`truncate`); any other role is edited in place. Unknown id → undefined.
 */
export function planEdit(messages: readonly Message[], messageId: string, content: string): EditPlan | undefined {
  const index = messages.findIndex((message) => message.id === messageId)
  const target = messages[index]
  if (!target) return undefined
  const edited: Message = { ...target, content }
  if (target.role !== 'user') {
    const next = messages.slice()
    next[index] = edited
    return { kind: 'in-place', messages: next }
  }
  return { kind: 'truncate', kept: [...messages.slice(0, index), edited], query: content }
}
