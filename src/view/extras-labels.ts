import type { ToolCallStatus } from '../contract/message.js'

/**
 * The English words of the message extras chunk (tool call cards, "Thinking", sources): part of
 * `ChatLabels` (labels.ts), kept here so that only that chunk carries them.
 */
export const extrasLabels = {
  toolStatus: (status: ToolCallStatus): string => ({
    pending: 'Queued',
    running: 'Running',
    complete: 'Done',
    error: 'Failed',
    requires_confirmation: 'Needs approval',
  })[status],
  toolCard: (name: string): string => `Tool ${name}`,
  toolArguments: 'Arguments',
  toolResult: 'Result',
  toolError: 'Error',
  approve: 'Approve',
  deny: 'Deny',
  waitingForApproval: 'Waiting for approval',
  showMore: 'Show more',
  showLess: 'Show less',
  thinking: 'Thinking',
  thinkingNow: 'Thinking…',
  sources: 'Sources',
}

export type ExtrasLabels = typeof extrasLabels
