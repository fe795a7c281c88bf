/**
 * The English words of the agent-dialog UI chunk (question and plan cards, their summaries): part
 * of `ChatLabels` (labels.ts). The chunk imports nothing from the entry, so `<DialogCard>` hands it
 * the app's overrides as a prop and the chunk merges them over these.
 */
export const dialogLabels = {
  agentProposesPlan: 'The agent proposes a plan',
  agentAsks: 'The agent asks',
  answerElsewhere: 'Answer this in the agent’s own window.',
  planFeedback: 'Feedback for the agent (to reject with changes)',
  approvePlan: 'Approve plan',
  reject: 'Reject',
  rejectWithFeedback: 'Reject with feedback',
  other: 'Other',
  otherAnswerOf: (other: string): string => `${other}: your own answer`,
  otherPlaceholder: 'Type your own answer',
  chooseAny: '(choose any)',
  sending: 'Sending…',
  submitAnswers: 'Submit answers',
  answer: 'Answer',
  plan: 'Plan',
  approved: 'Approved',
  rejected: 'Rejected',
  planAnswered: 'Plan (answered)',
  questionAnswered: 'Question (answered)',
  dismissed: 'dismissed',
  noAnswer: 'no answer',
  showPlan: 'Show plan',
}

export type DialogLabels = typeof dialogLabels
