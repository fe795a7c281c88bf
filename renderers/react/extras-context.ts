import { createContext, useContext } from 'react'
import type { ChatLabels } from './labels.js'

/**
 * The app's label overrides as the message extras chunk reads them, handed over by
 * `<MessageExtra>` (message-extras.tsx) from the message UI's own (message-ui-context.ts, which
 * says why a lazy chunk takes these instead of importing them): importing that module from here
 * too would split it into a chunk shared with the message UI, one more download and gzip stream.
 */
export const ExtrasLabels = createContext<Partial<ChatLabels>>({})

/** `defaults` with the surrounding `<ChatSession>`'s overrides applied (labels.ts's `useLabels`, for the extras). */
export function useLabels<T extends Partial<ChatLabels>>(defaults: T): T {
  return { ...defaults, ...useContext(ExtrasLabels) }
}
