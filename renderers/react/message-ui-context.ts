import { createContext, useContext } from 'react'
import { ChatrailError } from '../../src/contract/errors.js'
import type { ComponentHost } from './component-host.js'
import type { sourcesOf } from '../../src/view/reply-sources.js'
import type { loadComponentRules } from '../../src/view/component-rules.js'
import type { humanizeEvent } from '../../src/view/event-routes.js'
import type { lazyChunk } from './lazy-chunk.js'
import type { ChatLabels } from './labels.js'

/**
 * What the entry hands the lazily loaded UI (the message UI chunk, and the extras and component
 * UI chunks it loads): the app's label overrides (`<ChatSession labels>`), `<MessageList>`'s
 * component host and the entry's helpers (`MessageUIKit`: the lazy-chunk loader, the component rules' loader, a reply's sources). The view model's helpers
 * (event bar, failures, answers) are chatrail/view's, an entry of its own both import.
 * `<MessageUIPart>` (message-ui-part.tsx) provides them around everything the chunk draws, from
 * the entry's own contexts (labels.ts, component-host.ts). The lazy modules read
 * these instead of importing the entry's: a module imported by both would be split off by the
 * bundler into a chunk shared with the entry, one more download and gzip stream for the first
 * screen (the kit pattern of src/conversation/action-kit.ts). They take only `import type` from
 * the entry's modules.
 */
export const MessageUILabels = createContext<Partial<ChatLabels>>({})

export const MessageUIHost = createContext<ComponentHost | null>(null)

/** The entry's helpers the lazy UI calls (lazy-chunk.ts, for the chunks the message UI loads in turn): the entry's message-ui-kit.ts. */
export interface MessageUIKit {
  readonly humanizeEvent: typeof humanizeEvent
  readonly lazyChunk: typeof lazyChunk
  /** The view's component rules, loaded with the component UI (component-ui-loader.ts). */
  readonly loadComponentRules: typeof loadComponentRules
  /** The sources a reply cites (the controller's entry exports it). */
  readonly sourcesOf: typeof sourcesOf
}

export const MessageUIKitContext = createContext<MessageUIKit | null>(null)

/** The kit `<MessageUIPart>` hands over; a part of the message UI drawn any other way has none. */
export function useMessageUIKit(): MessageUIKit {
  const kit = useContext(MessageUIKitContext)
  if (kit === null) {
    throw new ChatrailError({
      code: 'NO_MESSAGE_UI_KIT',
      message: 'A part of the message UI chunk rendered without the entry\'s kit',
      hint: 'Render the message UI through <MessageUIPart> (message-ui-part.tsx), which provides it.',
    })
  }
  return kit
}

/** `defaults` with the surrounding `<ChatSession>`'s overrides applied (labels.ts's `useLabels`, for the lazy UI). */
export function useLabels<T extends Partial<ChatLabels>>(defaults: T): T {
  return { ...defaults, ...useContext(MessageUILabels) }
}
