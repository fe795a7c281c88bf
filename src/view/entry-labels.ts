/**
 * The English words of a chat UI's first screen (the status line, the composer, a dialog card's
 * placeholder, a message before the message UI is in): part of `ChatLabels` (chat-labels.ts).
 * The rest sit beside the code that shows them (message-labels.ts, extras-labels.ts,
 * dialog-labels.ts, component-labels.ts, approval-labels.ts), so that chatrail/react's entry does
 * not carry the words of code it loads lazily.
 */
export const entryLabels = {
  title: 'Chat',
  messages: 'Messages',
  message: 'Message',
  placeholder: 'Type a message…',
  send: 'Send',
  stop: 'Stop',
  waitingElsewhere: 'Waiting for an answer in the agent’s window',
  waitingReview: 'Waiting for your review',
  waitingAnswer: 'Waiting for your answer',
  working: 'Working…',
  failed: 'Something went wrong',
  finished: 'Finished',
  ready: 'Ready',
  you: 'You',
  assistant: 'Assistant',
  system: 'System',
  tool: 'Tool',
  loadingPlan: 'Loading plan…',
  loadingQuestion: 'Loading question…',
  planNotShown: 'The plan could not be shown:',
  questionNotShown: 'The question could not be shown:',
  tryAgain: 'Try again',
}
