import { createContext, useContext } from './react-api.js'
import type { approvalLabels } from '../../src/view/approval-labels.js'
import type { componentLabels } from '../../src/view/component-labels.js'
import type { dialogLabels } from '../../src/view/dialog-labels.js'
import type { extrasLabels } from '../../src/view/extras-labels.js'
import type { messageLabels } from '../../src/view/message-labels.js'

/**
 * The English words of the entry's own parts (the status line, the composer, a dialog card's
 * placeholder, a message before the message UI is in). The rest of the UI's words sit beside the
 * chunk that shows them (message-labels.ts, extras-labels.ts, dialog-labels.ts,
 * component-labels.ts, approval-labels.ts), so that the entry does not carry the words of code it loads lazily;
 * together they are `ChatLabels`.
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

type Words<T> = { [K in keyof T]: T[K] extends (...args: never[]) => string ? T[K] : string }

/**
 * Every word the React UI shows or announces (buttons, accessible names, status words, error
 * texts, dialog and tool cards), English by default. Pass a partial object as `<ChatSession
 * labels>`: what it leaves out stays English. A few are functions of what they name.
 */
export type ChatLabels = Words<typeof entryLabels & typeof messageLabels & typeof extrasLabels & typeof dialogLabels & typeof componentLabels & typeof approvalLabels>

/** The app's overrides (`<ChatSession labels>`); every part merges them over its own defaults. */
export const ChatLabelsContext = createContext<Partial<ChatLabels>>({})

/** `defaults` with the surrounding `<ChatSession>`'s overrides applied. */
export function useLabels<T extends Partial<ChatLabels>>(defaults: T): T {
  return { ...defaults, ...useContext(ChatLabelsContext) }
}
