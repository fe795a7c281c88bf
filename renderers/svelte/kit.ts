import { getContext, setContext } from 'svelte'
import type { Component } from 'svelte'
import { noChatError } from '../../src/view/no-chat-error.js'
import type { JsonObject } from '../../src/conversation/index.js'
import type { ChatLabels } from '../../src/view/chat-labels.js'
import type { ComponentViewProps } from '../../src/view/component-key.js'
import type { AnswerPartsProps, DialogCardContentProps, EventButtonsContentProps, ListEndProps, MessageActionsProps, MessageEditProps, ReplyBodyProps, ReplyEndProps, WelcomeContentProps } from './props.js'
import type * as MessageUI from './message-ui.js'
import type { ChatSessionStore } from './store.js'

/**
 * What chatrail/svelte's components share besides the store: the chat a `<ChatSession>` hands its
 * parts (a Svelte context), the app's words and its component views. The components import this
 * module (dist/svelte/kit.js beside them in the package), never the view's internals one by one.
 */

/** Views for component keys of the app's own registry, e.g. `{ 'order-card': OrderCard }`. */
export type ComponentViews = Readonly<Record<string, Component<ComponentViewProps>>>

/** What `<ChatSession>` hands its parts. */
export interface ChatContext {
  readonly chat: ChatSessionStore<JsonObject>
  readonly labels: Partial<ChatLabels> | undefined
  readonly componentViews: ComponentViews | undefined
}

const CHAT = Symbol.for('chatrail.svelte.chat')

/** Called by `<ChatSession>` while it initialises: its parts read the chat from here. */
export function provideChat(context: ChatContext): void {
  setContext(CHAT, context)
}

/** The surrounding `<ChatSession>`'s context, if any (call while a component initialises). */
export function chatContext(): ChatContext | undefined {
  return getContext<ChatContext | undefined>(CHAT)
}

/** The `chat` prop if given, else the surrounding `<ChatSession>`'s; a clear error when neither. */
export function chatFrom(chat: ChatSessionStore<JsonObject> | undefined, component: string): ChatSessionStore<JsonObject> {
  const resolved = chat ?? chatContext()?.chat
  if (resolved === undefined) {
    throw noChatError(component, 'chat={createChatSession(definition)}')
  }
  return resolved
}

/** `defaults` with the app's words over them: the `labels` prop, else the surrounding `<ChatSession>`'s. */
export function wordsOf<T extends Partial<ChatLabels>>(defaults: T, labels?: Partial<ChatLabels>): T {
  const overrides = labels ?? chatContext()?.labels
  return overrides === undefined ? defaults : { ...defaults, ...overrides }
}

/** Moves the focus to the chat's composer (after a button that leaves with what it did: a chip, Retry, Regenerate). */
export function focusComposer(from: Element | null): void {
  from?.closest('[data-chatrail-chat]')?.querySelector<HTMLElement>('[data-chatrail-composer] [data-chatrail-input]')?.focus()
}

/**
 * A component in a chunk of its own, loaded on first use (or by `load()` ahead of it): the
 * message actions, the dialog cards and the component views are not in the entry, as in
 * chatrail/react. `current` is set once loaded, so a component mounted later draws it at once.
 */
export interface LazyComponent<Props extends object> {
  readonly current: Component<Props> | undefined
  /** Loads it (once; again after a failure). */
  load: () => Promise<Component<Props>>
}

export function lazyComponent<Props extends object>(importer: () => Promise<{ default: Component<Props> }>): LazyComponent<Props> {
  let current: Component<Props> | undefined
  let loading: Promise<Component<Props>> | undefined
  return {
    get current() { return current },
    load() {
      loading ??= importer().then(
        (module) => (current = module.default),
        (error: unknown) => {
          loading = undefined
          throw error
        },
      )
      return loading
    },
  }
}

/**
 * The chunks chatrail/svelte loads on first use, as chatrail/react's message UI, dialog UI and
 * component UI: `<MessageList>` starts loading the message actions as it mounts, and the dialog
 * card as soon as the session has a live agent (the only source of pending dialogs).
 */
const messageUI = <Props extends object>(name: keyof typeof MessageUI): LazyComponent<Props> =>
  lazyComponent(() => import('./message-ui.js').then((ui) => ({ default: ui[name] as unknown as Component<Props> })))
export const messageActions = messageUI<MessageActionsProps>('MessageActions')
export const messageEdit = messageUI<MessageEditProps>('MessageEdit')
export const welcomeContent = messageUI<WelcomeContentProps>('WelcomeContent')
export const eventButtonsContent = messageUI<EventButtonsContentProps>('EventButtonsContent')
export const errorBannerContent = messageUI<{ chat: ChatSessionStore }>('ErrorBannerContent')
export const replyEnd = messageUI<ReplyEndProps>('ReplyEnd')
export const listEnd = messageUI<ListEndProps>('ListEnd')
export const dialogCardContent = lazyComponent<DialogCardContentProps>(() => import('./DialogCardContent.svelte') as Promise<{ default: Component<DialogCardContentProps> }>)
export const replyBody = lazyComponent<ReplyBodyProps>(() => import('./ReplyBody.svelte') as Promise<{ default: Component<ReplyBodyProps> }>)
export const answerParts = lazyComponent<AnswerPartsProps>(() => import('./AnswerParts.svelte') as Promise<{ default: Component<AnswerPartsProps> }>)

/** The DOM id of a dialog's card, so the composer's note and the list can point at it (chatrail/view's rule). */
export { dialogCardId } from '../../src/view/follow-scroll.js'

export type { ComponentViewProps } from '../../src/view/component-key.js'
export { entryLabels } from '../../src/view/entry-labels.js'
export { messageLabels } from '../../src/view/message-labels.js'
export { isComponentPart } from '../../src/contract/component-chunk.js'
export { canEditMessage } from '../../src/view/message-offers.js'
export { messageAttributesOf } from '../../src/view/message-attributes.js'
export { cardArrivals, followScrollTop, isFollowing, lastUserMessageId } from '../../src/view/follow-scroll.js'
