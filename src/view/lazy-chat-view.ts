import type { JsonObject } from '../conversation/index.js'
import { createChatViewStore } from './chat-view-store.js'
import type { ChatView, ChatViewBinding, ChatViewOptions } from './chat-view-store.js'
import { lazyPresentationRules } from './presentation-loader.js'

/**
 * `createLazyChatView(binding, options?)`: `createChatView` whose presentation rules (the event
 * bar, the chips, the failure, the regenerable reply, the versions walked, the confirmations
 * waiting: presentation-kit.ts) load on its first subscribe instead of with the page. A mount
 * whose UI for those parts loads lazily anyway (chatrail/react's message UI) keeps them out of
 * its first screen this way; until they are in, `presentationReady` is false and those fields are
 * empty (no button, no chip, no failure shown).
 */
export function createLazyChatView<Ctx extends JsonObject>(binding: ChatViewBinding<Ctx>, options: ChatViewOptions = {}): ChatView<Ctx> {
  return createChatViewStore(binding, options, lazyPresentationRules)
}
