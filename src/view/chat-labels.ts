import type { approvalLabels } from './approval-labels.js'
import type { componentLabels } from './component-labels.js'
import type { dialogLabels } from './dialog-labels.js'
import type { entryLabels } from './entry-labels.js'
import type { extrasLabels } from './extras-labels.js'
import type { messageLabels } from './message-labels.js'

type Words<T> = { [K in keyof T]: T[K] extends (...args: never[]) => string ? T[K] : string }

/**
 * Every word a chat UI shows or announces (buttons, accessible names, status words, error texts,
 * dialog and tool cards), English by default. An app passes a partial object (`<ChatSession
 * labels>`, `createChatView(binding, { labels })`): what it leaves out stays English. A few are
 * functions of what they name.
 */
export type ChatLabels = Words<typeof entryLabels & typeof messageLabels & typeof extrasLabels & typeof dialogLabels & typeof componentLabels & typeof approvalLabels>

/** Pure: `defaults` with the app's overrides applied (only the keys `defaults` has are read by its caller). */
export function mergeLabels<T extends Partial<ChatLabels>>(defaults: T, overrides: Partial<ChatLabels> | undefined): T {
  return overrides === undefined ? defaults : { ...defaults, ...overrides }
}
