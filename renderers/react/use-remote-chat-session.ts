import type { ChatDefinition, JsonObject } from '../../src/conversation/index.js'
import { createRemoteChatBinding } from '../../src/view/remote-chat-binding.js'
import type { RemoteChatOptions } from '../../src/view/remote-chat-binding.js'
import type { UseChatSessionReturn } from './use-chat-session.js'
import { useBindingView } from './use-chat-view.js'

/**
 * `useRemoteChatSession(definition, { api, conversationId })`: `useChatSession` against a
 * chatrail server. Same return shape, so `<StateBadge>`, `<EventButtons>`, `<MessageList>` and
 * `<DialogCard>` work unchanged; the state is the server's (its `data-chatrail` part), every turn
 * runs there. One binding per mount and conversation, as `useChatSession`.
 */
export function useRemoteChatSession<Ctx extends JsonObject>(definition: ChatDefinition<Ctx>, options: RemoteChatOptions): UseChatSessionReturn<Ctx> {
  const identity = `remote:${options.conversationId}:${definition.id}@${definition.revision}#${options.key ?? ''}`
  return useBindingView(identity, () => createRemoteChatBinding(definition, options), definition)
}
