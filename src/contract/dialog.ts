/**
 * Dialogs an agent opens mid-run (a question with options, a plan to approve) and their outcomes,
 * exactly per seed 001; plus how the user answers one from the chat. Shared by the agents that
 * raise them, the session that mirrors them and the renderers that show them.
 */

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

/** How the user answered a pending dialog from the chat. */
export type DialogAnswerInput =
  | { kind: 'question'; answers: DialogAnswer[] }
  | { kind: 'plan'; approved: boolean; feedback?: string }

/**
 * `live`: the answer reached the running agent. `next-turn`: the agent cannot take it now
 * (headless mode); the caller sends `text` as the next user message.
 */
export type DialogAnswerResult = { delivered: 'live' } | { delivered: 'next-turn'; text: string }
