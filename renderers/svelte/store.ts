import { ChatrailError } from '../../src/contract/errors.js'
import type { ChatrailController } from '../../src/controller/index.js'
import type { ChatDefinition, ChatSession, JsonObject } from '../../src/conversation/index.js'
import { createChatBinding } from '../../src/view/chat-binding.js'
import type { ChatBinding, ChatBindingOptions } from '../../src/view/chat-binding.js'
import { createChatView } from '../../src/view/chat-view.js'
import type { ChatView, ChatViewOptions, ChatViewSnapshot } from '../../src/view/chat-view.js'
import { createRemoteChatBinding } from '../../src/view/remote-chat-binding.js'
import type { RemoteChatOptions } from '../../src/view/remote-chat-binding.js'

/**
 * chatrail/svelte's store: the framework-neutral chat view (src/view/chat-view.ts) under the
 * Svelte store contract (`subscribe` calls back at once, then on every change), which is all it
 * takes from Svelte: this module imports no Svelte and loads in plain Node (the `import` and
 * `require` conditions of `chatrail/svelte`). It decides nothing itself.
 */

/** A chat against a chatrail server (`createChatHandler`): the server's definition, built with `serverSideAgent`. */
export interface RemoteChatSource<Ctx extends JsonObject = JsonObject> {
  readonly definition: ChatDefinition<Ctx>
  readonly remote: RemoteChatOptions
}

/** What a chat runs on: a definition (a local session), a binding made elsewhere, or a server. */
export type ChatSessionSource<Ctx extends JsonObject = JsonObject> = ChatDefinition<Ctx> | ChatBinding<Ctx> | RemoteChatSource<Ctx>

/** What `createChatSession` takes besides the source: the binding's options (a local session) and the view's. */
export type ChatSessionOptions<Ctx extends JsonObject = JsonObject> = ChatBindingOptions<Ctx> & ChatViewOptions

/**
 * A chat as a Svelte store: `$chat` is the view's snapshot (`ChatViewSnapshot`: the stream as
 * drawn, the badge, the event bar, the failure, the lifecycle targets, …), the methods are the
 * view's actions (`ChatView`).
 */
export interface ChatSessionStore<Ctx extends JsonObject = JsonObject> extends Omit<ChatView<Ctx>, 'subscribe' | 'getSnapshot' | 'dispose'> {
  /** The Svelte store contract: `run` gets the current snapshot at once and after every change. */
  subscribe: (run: (value: ChatViewSnapshot<Ctx>) => void) => () => void
  /** The current snapshot, without subscribing. */
  get: () => ChatViewSnapshot<Ctx>
  /** Stops listening, stops the stream and disposes a local session; the store is done after it. */
  destroy: () => void
  readonly view: ChatView<Ctx>
  /** The chat runs on a chatrail server (a remote binding). */
  readonly remote: boolean
  readonly session: ChatSession<Ctx>
  readonly controller: ChatrailController
}

function isBinding<Ctx extends JsonObject>(source: ChatSessionSource<Ctx>): source is ChatBinding<Ctx> {
  return typeof (source as Partial<ChatBinding<Ctx>>).getState === 'function' && typeof (source as Partial<ChatBinding<Ctx>>).subscribe === 'function'
}

function isRemote<Ctx extends JsonObject>(source: ChatSessionSource<Ctx>): source is RemoteChatSource<Ctx> {
  return typeof (source as Partial<RemoteChatSource<Ctx>>).remote === 'object' && (source as Partial<RemoteChatSource<Ctx>>).remote !== null
}

/** The binding a source names: the one given, a remote one, or a local one over the definition. */
export function bindingOf<Ctx extends JsonObject>(source: ChatSessionSource<Ctx>, options?: ChatBindingOptions<Ctx>): ChatBinding<Ctx> {
  if (typeof source !== 'object' || source === null) {
    throw new ChatrailError({
      code: 'NO_CHAT_SOURCE',
      message: `createChatSession got ${String(source)}, not a chat to run`,
      hint: 'Pass a definition (defineChat), { definition, remote } or a binding; <ChatSession> takes `definition` or `chat`.',
    })
  }
  if (isBinding(source)) return source
  if (isRemote(source)) return createRemoteChatBinding(source.definition, source.remote)
  return createChatBinding(source, options)
}

/**
 * `createChatSession(source, options?)`: `source` is a definition (a local session and controller,
 * `createChatBinding`), `{ definition, remote }` (a chatrail server, `createRemoteChatBinding`) or
 * a binding made elsewhere. The view (`createChatView`) is wired while the store has subscribers.
 */
export function createChatSession<Ctx extends JsonObject>(source: ChatSessionSource<Ctx>, options: ChatSessionOptions<Ctx> = {}): ChatSessionStore<Ctx> {
  const { labels, stateLabels, eventLabels, approvals, ...bindingOptions } = options
  const binding = bindingOf(source, bindingOptions)
  const view = createChatView(binding, { labels, stateLabels, eventLabels, approvals })
  return {
    ...view,
    subscribe(run) {
      binding.activate()
      let last: ChatViewSnapshot<Ctx> | undefined
      const emit = (): void => {
        const snapshot = view.getSnapshot()
        if (snapshot === last) return
        last = snapshot
        run(snapshot)
      }
      const off = view.subscribe(emit)
      emit()
      return off
    },
    get: view.getSnapshot,
    destroy: view.dispose,
    view,
    // a remote binding names itself so (remote-chat-binding.ts), whoever made it
    remote: binding.identity.startsWith('remote:'),
    session: binding.session,
    controller: binding.controller,
  }
}
