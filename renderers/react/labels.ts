import { createContext, useContext } from './react-api.js'
import type { ChatLabels } from '../../src/view/chat-labels.js'

/**
 * The UI's words in React: `ChatLabels` and the English defaults of the entry's own parts
 * (`entryLabels`) are chatrail/view's (chat-labels.ts, entry-labels.ts), shared by every binding;
 * here is only how `<ChatSession labels>` reaches a part: a context and `useLabels`.
 */
export { entryLabels } from '../../src/view/entry-labels.js'
export type { ChatLabels }

/** The app's overrides (`<ChatSession labels>`); every part merges them over its own defaults. */
export const ChatLabelsContext = createContext<Partial<ChatLabels>>({})

/** `defaults` with the surrounding `<ChatSession>`'s overrides applied. */
export function useLabels<T extends Partial<ChatLabels>>(defaults: T): T {
  return { ...defaults, ...useContext(ChatLabelsContext) }
}
