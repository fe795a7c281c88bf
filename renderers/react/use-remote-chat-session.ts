import { useEffect, useMemo, useRef, useSyncExternalStore } from 'react'
import type { ChatDefinition, JsonObject } from '../../src/conversation/index.js'
import type { ChatBinding } from '../../src/view/chat-binding.js'
import { createRemoteChatBinding } from '../../src/view/remote-chat-binding.js'
import type { RemoteChatOptions } from '../../src/view/remote-chat-binding.js'
import type { UseChatSessionReturn } from './use-chat-session.js'

/**
 * `useRemoteChatSession(definition, { api, conversationId })`: `useChatSession` against a
 * chatrail server. Same return shape, so `<StateBadge>`, `<EventButtons>`, `<MessageList>` and
 * `<DialogCard>` work unchanged; the state is the server's (its `data-chatrail` part), every turn
 * runs there. One binding per mount and conversation, as `useChatSession`.
 */
export function useRemoteChatSession<Ctx extends JsonObject>(definition: ChatDefinition<Ctx>, options: RemoteChatOptions): UseChatSessionReturn<Ctx> {
  const identity = `remote:${options.conversationId}:${definition.id}@${definition.revision}#${options.key ?? ''}`
  const ref = useRef<ChatBinding<Ctx> | null>(null)
  if (ref.current === null || ref.current.identity !== identity) ref.current = createRemoteChatBinding(definition, options)
  const binding = ref.current

  useEffect(() => {
    binding.activate()
    return binding.release
  }, [binding])

  const state = useSyncExternalStore(binding.subscribe, binding.getState, binding.getState)
  return useMemo(() => {
    const { chat, ...conversation } = state
    const { session, controller, sendEvent, answerDialog, stop } = binding
    return { ...controller, ...chat, ...conversation, stop, sendEvent, answerDialog, session, controller }
  }, [binding, state])
}
