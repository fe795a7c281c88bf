// The `chatrail/svelte` entry (Svelte 5, runes): the `createChatSession` store and the chat's
// components. Svelte is an optional peer of this subpath only. The components ship as `.svelte`
// sources (the `svelte` export condition: the app's Svelte plugin compiles them with the app's own
// Svelte); plain Node resolves this subpath to the store alone (store.ts). docs/svelte.md § Packaging.
import type { Component } from 'svelte'
import ChatSessionComponent from './ChatSession.svelte'
import ComposerComponent from './Composer.svelte'
import DialogCardComponent from './DialogCard.svelte'
import ErrorBannerComponent from './ErrorBanner.svelte'
import EventButtonsComponent from './EventButtons.svelte'
import MessageListComponent from './MessageList.svelte'
import StateBadgeComponent from './StateBadge.svelte'
import WelcomeComponent from './Welcome.svelte'
import type { ChatPartProps, ChatSessionProps, ComposerProps, DialogCardProps, EventButtonsProps, MessageListProps, WelcomeProps } from './props.js'

export { createChatSession } from './store.js'
export type { ChatSessionOptions, ChatSessionSource, ChatSessionStore, RemoteChatSource } from './store.js'
export type { ComponentViewProps, ComponentViews } from './kit.js'
export type { ChatPartProps, ChatSessionProps, ComposerProps, DialogCardProps, EventButtonsProps, MessageListProps, WelcomeProps } from './props.js'

/** A complete chat: title, status line, welcome, messages with dialog cards, event buttons, composer. */
export const ChatSession: Component<ChatSessionProps> = ChatSessionComponent
/** The chat stream: messages, dialog cards and the error banner, in a `role="log"` scroll container. */
export const MessageList: Component<MessageListProps> = MessageListComponent
/** The composer: Send or Stop; a note pointing at the card while a dialog waits. */
export const Composer: Component<ComposerProps> = ComposerComponent
/** The live status line (`role="status"`). */
export const StateBadge: Component<ChatPartProps> = StateBadgeComponent
/** The current state's event buttons, the end of the conversation, or the chips after a restart. */
export const EventButtons: Component<EventButtonsProps> = EventButtonsComponent
/** The first screen: greeting and suggestion chips. */
export const Welcome: Component<WelcomeProps> = WelcomeComponent
/** An agent dialog: a question or plan card while pending, a Q→A summary once answered. */
export const DialogCard: Component<DialogCardProps> = DialogCardComponent
/** A failed turn (or an agent the fallback answered for) with Retry and a dismiss. */
export const ErrorBanner: Component<ChatPartProps> = ErrorBannerComponent
