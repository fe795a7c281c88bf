/** Dialogs and their outcomes, exactly per seed 001. */

export interface DialogOption {
  label: string
  description?: string
  isOther?: boolean
}

export interface DialogQuestion {
  question: string
  header?: string
  options: DialogOption[]
  multiSelect: boolean
}

export interface DialogAnswer {
  question: string
  chosen: string[]
  otherText?: string
}

export interface DialogOutcome {
  dismissed: boolean
  approved: boolean
  feedback?: string
  results?: DialogAnswer[]
}

export interface Dialog {
  toolId: string
  kind: 'question' | 'plan'
  /** The first question's text, or the plan markdown; never truncated. */
  prompt: string
  options: DialogOption[]
  multiSelect: boolean
  /** Every question, when the dialog asks more than one. */
  questions?: DialogQuestion[]
  /** False when the dialog can only be answered in the agent's own UI. */
  answerable: boolean
  outcome?: DialogOutcome
}
