import { useEffect, useMemo, useRef, useSyncExternalStore } from './react-api.js'
import type { ChatDefinition, JsonObject } from '../../src/conversation/index.js'
import type { ChatBinding } from '../../src/view/chat-binding.js'
import { createLazyChatView } from '../../src/view/lazy-chat-view.js'
import type { ChatView } from '../../src/view/chat-view.js'
import type { UseChatSessionReturn } from './use-chat-session.js'

/**
 * The one React mount of chatrail/view, shared by `useChatSession` and `useRemoteChatSession`:
 * the binding `create` makes lives in a ref (StrictMode's double render reuses it, so there is one
 * session per mount), replaced when `identity` changes; its view is read with
 * `useSyncExternalStore`. The view is `createLazyChatView`: its presentation rules (the event bar,
 * the chips, the failure, the regenerable reply, the versions walked), which only the lazily loaded
 * message UI draws, load on its first subscribe instead of with the app's first screen. Effects only attach and release, so StrictMode's double effects start no
 * second session and no request. The store has a server snapshot, so `renderToString` works.
 * `definition`: handed to the binding when it changes (same identity: progress kept, its chat
 * config used from the next turn).
 */
export function useBindingView<Ctx extends JsonObject>(identity: string, create: () => ChatBinding<Ctx>, definition: ChatDefinition<Ctx>): UseChatSessionReturn<Ctx> {
  const ref = useRef<{ binding: ChatBinding<Ctx>; view: ChatView<Ctx> } | null>(null)
  if (ref.current === null || ref.current.binding.identity !== identity) {
    const binding = create()
    ref.current = { binding, view: createLazyChatView(binding) }
  }
  const { binding, view } = ref.current

  useEffect(() => {
    binding.activate()
    return binding.release
  }, [binding])
  useEffect(() => binding.updateDefinition(definition), [binding, definition])

  const ui = useSyncExternalStore(view.subscribe, view.getSnapshot, view.getSnapshot)
  return useMemo(() => {
    const { session, controller, sendEvent, answerDialog, stop } = binding
    const { conversation, traces, dialogLog, pendingDialog, stopped, failedAt } = ui
    // The controller's own functions (stable identities), its state, then the conversation's and the view's.
    return { ...controller, ...ui.chat, snapshot: conversation, traces, dialogLog, pendingDialog, stopped, failedAt, stop, sendEvent, answerDialog, session, controller, view, ui }
  }, [binding, view, ui])
}
