/**
 * The English words of the component UI chunk (the components catalog's standard views), used
 * where a component's props leave a word out: part of `ChatLabels` (labels.ts), kept here so that
 * only that chunk carries them.
 */
export const componentLabels = {
  options: 'Options',
  chosen: 'chosen',
  chooseOne: 'Choose one',
  confirm: 'Confirm',
  cancel: 'Cancel',
  expired: 'Expired',
  approveAction: 'Approve',
  rejectAction: 'Reject',
  /** The message text an approval request's answer sends (it shows in the history). */
  approvedTitle: (title: string): string => `Approve: ${title}`,
  rejectedTitle: (title: string): string => `Reject: ${title}`,
  retryComponent: 'Retry',
  retried: 'Retried',
  sourcesList: 'Sources',
  toolCallStatus: (name: string, status: string): string => `Tool ${name}: ${status}`,
  table: 'Table',
  form: 'Form',
  chooseField: 'Choose…',
  sent: 'Sent',
  submit: 'Submit',
}

export type ComponentLabels = typeof componentLabels
