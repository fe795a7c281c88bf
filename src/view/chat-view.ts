import type { JsonObject } from '../conversation/index.js'
import { createChatViewStore } from './chat-view-store.js'
import type { ChatView, ChatViewBinding, ChatViewOptions } from './chat-view-store.js'
import { noApprovalSource, presentationOf, waitingApprovalsWith } from './presentation-kit.js'
import type { PresentationRules, PresentationRulesSource } from './presentation-rules.js'

export type { ChatView, ChatViewBinding, ChatViewOptions, ChatViewSnapshot, StateBadge, ViewLabels } from './chat-view-store.js'

// the kit's exports by name, not as a namespace object (a bundle would build one for it)
const kit: PresentationRules = { noApprovalSource, presentationOf, waitingApprovalsWith }
const loaded = Promise.resolve(kit)
/** The rules in hand: nothing to wait for. */
const presentation: PresentationRulesSource = { current: () => kit, load: () => loaded }

/**
 * `createChatView(binding, options?)`: everything a chat UI decides, once, as a plain external
 * store (`subscribe` / `getSnapshot`, no framework; chat-view-store.ts), with every rule in hand:
 * its first snapshot is whole (`presentationReady`). Vue, Svelte and a UI of an app's own mount
 * this; chatrail/react mounts `createLazyChatView`, which loads the presentation rules with its
 * lazily loaded message UI.
 */
export function createChatView<Ctx extends JsonObject>(binding: ChatViewBinding<Ctx>, options: ChatViewOptions = {}): ChatView<Ctx> {
  return createChatViewStore(binding, options, presentation)
}
