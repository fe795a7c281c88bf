import { computed, getCurrentScope, onScopeDispose, shallowRef } from 'vue'
import type { ComputedRef, ShallowRef } from 'vue'
import type { Dialog } from '../../src/contract/dialog.js'
import type { Message } from '../../src/contract/message.js'
import type { StreamStatus } from '../../src/contract/stream.js'
import type { ChatDefinition, JsonObject } from '../../src/conversation/index.js'
import { createChatBinding } from '../../src/view/chat-binding.js'
import type { ChatBindingOptions } from '../../src/view/chat-binding.js'
import type { ChatLabels } from '../../src/view/chat-labels.js'
import { createChatView } from '../../src/view/chat-view.js'
import type { ChatView, ChatViewBinding, ChatViewOptions, ChatViewSnapshot } from '../../src/view/chat-view.js'
import { createRemoteChatBinding } from '../../src/view/remote-chat-binding.js'
import type { RemoteChatOptions } from '../../src/view/remote-chat-binding.js'

/**
 * `useChatSession(definition | binding | view, options?)`: chatrail's view model (chatrail/view's
 * `createChatView`) as Vue refs. The view decides everything a chat UI shows; this only mirrors
 * its snapshot into a `shallowRef` (the snapshot is immutable, so Vue tracks the ref, never its
 * insides) and hands its actions on. Call it in `setup()` or an effect scope: the subscription
 * ends with the scope, and a session it created is released then (its stream stops).
 */

export interface UseChatSessionOptions<Ctx extends JsonObject = JsonObject> extends ChatBindingOptions<Ctx>, ChatViewOptions {
  /** Run every turn on a chatrail server (`{ api, conversationId }`) instead of in the page. */
  remote?: RemoteChatOptions
}

/** The view's actions the composable hands on (chatrail/view's `ChatView`). */
const ACTIONS = ['send', 'stop', 'retry', 'regenerate', 'edit', 'setInput', 'sendEvent', 'answerDialog', 'interact', 'approve', 'reject', 'switchVersion', 'dismissFailure'] as const
type ChatAction = (typeof ACTIONS)[number]

export interface UseChatSessionReturn<Ctx extends JsonObject = JsonObject> extends Pick<ChatView<Ctx>, ChatAction> {
  /** The view store itself (chatrail/view), for what the refs below do not cover. */
  readonly view: ChatView<Ctx>
  /** Everything the UI shows, decided by the view (`ChatViewSnapshot`); a new object on every change. */
  readonly snapshot: Readonly<ShallowRef<ChatViewSnapshot<Ctx>>>
  readonly messages: ComputedRef<readonly Message[]>
  readonly status: ComputedRef<StreamStatus>
  readonly pendingDialog: ComputedRef<Dialog | undefined>
  /** The app's words over the English defaults, as passed (`options.labels`). */
  readonly labels: Partial<ChatLabels>
}

/** What `useChatSession` mounts: a definition (a new session), a binding (`createChatBinding` / `createRemoteChatBinding`) or a view. */
export type ChatSource<Ctx extends JsonObject> = ChatDefinition<Ctx> | ChatViewBinding<Ctx> | ChatView<Ctx>

const isView = <Ctx extends JsonObject>(source: ChatSource<Ctx>): source is ChatView<Ctx> => 'getSnapshot' in source && 'binding' in source
const isBinding = <Ctx extends JsonObject>(source: ChatSource<Ctx>): source is ChatViewBinding<Ctx> => 'getState' in source && 'controller' in source

export function useChatSession<Ctx extends JsonObject>(source: ChatSource<Ctx>, options: UseChatSessionOptions<Ctx> = {}): UseChatSessionReturn<Ctx> {
  const { remote, labels, stateLabels, eventLabels, approvals, ...bindingOptions } = options
  // A view or binding handed in belongs to the caller (the scope's end only unsubscribes); a session made here is released with the scope.
  const owned = !isView(source) && !isBinding(source)
  const view = isView(source)
    ? source
    : createChatView(
      isBinding(source) ? source : remote === undefined ? createChatBinding(source, bindingOptions) : createRemoteChatBinding(source, { ...remote, ...(bindingOptions.key === undefined ? {} : { key: bindingOptions.key }) }),
      { labels, stateLabels, eventLabels, approvals },
    )
  const snapshot = shallowRef(view.getSnapshot())
  const off = view.subscribe(() => { snapshot.value = view.getSnapshot() })
  // what happened between the first read and the subscription (the wiring catches the session up)
  snapshot.value = view.getSnapshot()
  if (getCurrentScope() !== undefined) {
    onScopeDispose(() => {
      off()
      if (owned) view.dispose()
    })
  }
  return {
    view,
    snapshot,
    messages: computed(() => snapshot.value.messages),
    status: computed(() => snapshot.value.status),
    pendingDialog: computed(() => snapshot.value.pendingDialog),
    labels: labels ?? {},
    ...(Object.fromEntries(ACTIONS.map((name) => [name, view[name]])) as Pick<ChatView<Ctx>, ChatAction>),
  }
}
