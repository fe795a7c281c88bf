/**
 * One step of a scripted conversation, as `runConversation` and `*.conv.yaml` files take them.
 * Turn numbers in `regenerate` and `edit` are 1-based positions in the step list (the same numbers
 * the reports print), and must name a `user` or `event` step. `U`: the definition's UI-event names
 * (`runConversation` checks `event` against them).
 */
export type ConversationStep<U extends string = string> =
  | { user: string; metadata?: Record<string, unknown> }
  | { event: U; label?: string }
  | { retry: true }
  | { regenerate: true | { turn: number } }
  | { edit: { turn: number; text: string } }
  /** Stops the previous step's stream once its first chunk arrived (that step is then not awaited to the end). */
  | { stop: true }

export type ConversationStepKind = 'user' | 'event' | 'retry' | 'regenerate' | 'edit' | 'stop'

export const conversationStepKinds: readonly ConversationStepKind[] = ['user', 'event', 'retry', 'regenerate', 'edit', 'stop']

export function stepKind(step: ConversationStep): ConversationStepKind {
  if ('user' in step) return 'user'
  if ('event' in step) return 'event'
  if ('retry' in step) return 'retry'
  if ('regenerate' in step) return 'regenerate'
  if ('edit' in step) return 'edit'
  return 'stop'
}

/** A one-line label for reports: `user "/start"`, `event open-ticket`, `edit turn 1 → "hi"`. */
export function describeStep(step: ConversationStep): string {
  if ('user' in step) return `user ${JSON.stringify(step.user)}`
  if ('event' in step) return step.label === undefined ? `event ${step.event}` : `event ${step.event} (${JSON.stringify(step.label)})`
  if ('retry' in step) return 'retry'
  if ('regenerate' in step) return step.regenerate === true ? 'regenerate' : `regenerate turn ${step.regenerate.turn}`
  if ('edit' in step) return `edit turn ${step.edit.turn} → ${JSON.stringify(step.edit.text)}`
  return 'stop'
}

/** Whether a step sends a new user message (and so can be the target of `edit` or `regenerate`). */
export function sendsUserMessage(step: ConversationStep): boolean {
  return 'user' in step || 'event' in step
}
