/**
 * The English words of the message UI chunk (message bodies and their actions, the welcome, the
 * event buttons, the error banner, Jump to latest): part of `ChatLabels` (labels.ts), kept here so
 * that only the lazily loaded chunk carries them.
 */
export const messageLabels = {
  greeting: 'How can I help?',
  suggestions: 'Suggestions',
  actions: 'Actions',
  conversationEnded: 'Conversation ended',
  endNote: 'This conversation has ended.',
  startOver: 'Start over',
  /** After the status words on the collapsed composer: the button that goes to the pending card (dialog-link.tsx). */
  dialogAbove: 'above ↑',
  copyMessage: 'Copy message',
  copyCode: 'Copy code',
  copyCodeIn: (language: string): string => `Copy ${language} code`,
  copied: 'Copied',
  editMessage: 'Edit message',
  saveAndResend: 'Save and resend',
  cancel: 'Cancel',
  regenerate: 'Regenerate',
  stopped: 'Stopped',
  /** The accessible name of the dots while a reply has not started. */
  typing: 'Thinking',
  jumpToLatest: 'Jump to latest',
  versions: 'Versions',
  previousVersion: 'Previous version',
  nextVersion: 'Next version',
  versionOf: (index: number, count: number): string => `Version ${index} of ${count}`,
  retry: 'Retry',
  dismiss: 'Dismiss',
  replyFailed: 'The reply failed.',
  replyFailedHint: 'Retry; if it keeps failing, rephrase your message or start over.',
  agentFellBack: 'The agent could not answer, so the answer above is the fallback.',
  agentFailedWith: (errorClass: string | undefined): string => `The agent failed with ${errorClass ?? 'an error'}.`,
  agentRetryHint: 'Retry to ask the agent once more.',
}

export type MessageLabels = typeof messageLabels
