import type { Snippet } from 'svelte'
import type { Dialog, DialogAnswerInput } from '../../src/contract/dialog.js'
import type { ComponentPart } from '../../src/contract/component-part.js'
import type { Message, ToolCall } from '../../src/contract/message.js'
import type { ChatDefinition, JsonObject } from '../../src/conversation/index.js'
import type { ApprovalCardProps } from '../../src/view/approval-card.js'
import type { ChatLabels } from '../../src/view/chat-labels.js'
import type { DialogLabels } from '../../src/view/dialog-labels.js'
import type { MessageLabels } from '../../src/view/message-labels.js'
import type { RemoteChatOptions } from '../../src/view/remote-chat-binding.js'
import type { MarkdownToJSX } from 'markdown-to-jsx/html'
import type { ComponentViews } from './kit.js'
import type { ChatSessionOptions, ChatSessionStore } from './store.js'

// The shapes the `.svelte` files name, from here: a `.svelte` file of the package imports only its
// siblings (dist/svelte/ holds no src/).
export type { Dialog, DialogAnswerInput, DialogOption } from '../../src/contract/dialog.js'
export type { EventButton, LabelledSuggestion } from '../../src/view/event-bar.js'
export type { MessageSource } from '../../src/contract/message-source.js'

/**
 * The props of chatrail/svelte's components, in TypeScript so that the entry exports each
 * component typed (`Component<Props>`) without generated declarations for the `.svelte` files.
 */

/** A part of a chat: the `chat` store, else the surrounding `<ChatSession>`'s. */
export interface ChatPartProps {
  chat?: ChatSessionStore
}

interface ChatSessionCommonProps {
  /** Name of the chat region and its (visually hidden) h2 heading; default `labels.title` ("Chat"). */
  title?: string
  /** The first screen's greeting above the suggestion chips; default `labels.greeting`. */
  greeting?: string
  placeholder?: string
  /** The UI's words over the English defaults (`ChatLabels`), e.g. a French `{ send: 'Envoyer' }`. */
  labels?: Partial<ChatLabels>
  /** Display names for machine states (the badge). */
  stateLabels?: Record<string, string>
  /** Labels for event buttons and chips, by UI event or machine event. */
  eventLabels?: Record<string, string>
  /** Views for component keys of the app's own registry. */
  componentViews?: ComponentViews
  /** `chatrail-dark` / `chatrail-light` force a theme (renderers/react/styles.css); default: the system's. */
  class?: string
  /** Drawn inside the chat, after the header. */
  children?: Snippet
}

/**
 * `<ChatSession>`: a chat over a `chat` store made by the app, or over one it makes (and destroys
 * with itself) from `definition`, with `remote` for a chatrail server.
 */
export type ChatSessionProps = ChatSessionCommonProps & (
  | { chat: ChatSessionStore; definition?: undefined; remote?: undefined; options?: undefined }
  | { chat?: undefined; definition: ChatDefinition<JsonObject>; remote?: RemoteChatOptions; options?: ChatSessionOptions<JsonObject> }
)

export interface ComposerProps extends ChatPartProps {
  /** Default: `labels.placeholder` ("Type a message…"). */
  placeholder?: string
}

export interface MessageListProps extends ChatPartProps {
  /** Accessible name of the log; default `labels.messages` ("Messages"). */
  label?: string
  class?: string
}

export interface EventButtonsProps extends ChatPartProps {
  /** Accessible name of the group; default `labels.actions` ("Actions"). */
  label?: string
}

export interface WelcomeProps extends ChatPartProps {
  /** Default `labels.greeting` ("How can I help?"). */
  greeting?: string
}

export interface DialogCardProps {
  dialog: Dialog
  /** Where the answer goes: `onAnswer`, else this chat's (or the surrounding `<ChatSession>`'s) `answerDialog`. */
  chat?: ChatSessionStore
  /** Replaces `chat.answerDialog` (e.g. to log); a rejection is shown in the card. */
  onAnswer?: (toolId: string, answer: DialogAnswerInput) => Promise<unknown>
  labels?: Partial<ChatLabels>
}

export interface ComponentPartProps {
  chat: ChatSessionStore
  /** The answer message holding the component. */
  messageId: string
  part: ComponentPart
}

/** What every binding's approval card takes (chatrail/view's `ApprovalCardProps`). */
export type ActionApprovalCardProps = ApprovalCardProps

export interface PendingApprovalsProps extends ChatPartProps {
  /** Milliseconds since the epoch. Default `Date.now`. */
  now?: () => number
  /** The region's accessible name. Default "Actions waiting for approval". */
  label?: string
}

/** @internal The props of the parts `<MessageList>` and `<DialogCard>` draw with. */
export interface MessageItemProps {
  chat: ChatSessionStore
  message: Message
  text: string | undefined
  part: 'before' | 'after' | 'fallback' | undefined
  hiddenToolIds: ReadonlySet<string>
}

/** @internal */
export interface MessageActionsProps {
  chat: ChatSessionStore
  messageId: string
  text: string
  stopped: boolean
  words: MessageLabels
  onEdit: (() => void) | undefined
  onRegenerate: (() => void) | undefined
}

/** @internal The message UI chunk's parts of `<Welcome>` and `<EventButtons>`, with the chat resolved. */
export type WelcomeContentProps = WelcomeProps & { chat: ChatSessionStore }
/** @internal */
export type EventButtonsContentProps = EventButtonsProps & { chat: ChatSessionStore }

/** @internal An answer's parts (the component chunk). */
export interface AnswerPartsProps {
  chat: ChatSessionStore
  message: Message
  /** The answer is still streaming: its last text part holds half-typed syntax back. */
  streaming: boolean
  words: CodeWords
}

/** @internal A reply's body (the reply body chunk). */
export interface ReplyBodyProps {
  chat: ChatSessionStore
  message: Message
  /** The text shown: the message's, or the part's of a reply split around a dialog. */
  text: string
  part: 'before' | 'after' | 'fallback' | undefined
  streaming: boolean
  /** A whole answer with component parts: drawn part by part. */
  components: boolean
  /** No tool call shows yet (the typing dots stand for the reply until something does). */
  noToolCalls: boolean
  words: CodeWords & Pick<MessageLabels, 'typing'>
}

/** @internal The words of a code block's copy button. */
export type CodeWords = Pick<MessageLabels, 'copyCode' | 'copyCodeIn' | 'copied'>

/** @internal An answer's or a plan's markdown (the markdown chunk). */
export interface MarkdownProps {
  source: string
  /** The level headings become: 3 in an answer (under the page's h1 and the chat's h2), 4 in a plan. */
  headingLevel?: number
  /** A reply still streaming: an unfinished `**bold` or link is not shown half-parsed. */
  streaming?: boolean
  words: CodeWords
}

/** @internal */
export interface MarkdownNodesProps {
  nodes: readonly MarkdownToJSX.ASTNode[]
  /** Source heading level → rendered level (chatrail/view's heading-levels.ts). */
  levels: ReadonlyMap<number, number>
  words: CodeWords
}

/** @internal */
export interface CodeBlockProps {
  code: string
  language: string
  words: CodeWords
}

/** @internal */
export interface ReplyAnnouncerProps {
  chat: ChatSessionStore
}

/** @internal What follows the message list (the message UI chunk). */
export interface ListEndProps {
  chat: ChatSessionStore
  /** The list's scroll container, once mounted. */
  list: HTMLElement | undefined
}

/** @internal A reply's tool calls and sources (the message UI chunk). */
export interface ReplyEndProps {
  chat: ChatSessionStore
  message: Message
  part: 'before' | 'after' | 'fallback' | undefined
  calls: readonly ToolCall[]
}

/** @internal A reply's tool calls (the message UI chunk). */
export interface ToolCallsProps {
  chat: ChatSessionStore
  calls: readonly ToolCall[]
}

/** @internal */
export interface MessageEditProps {
  message: Message
  words: MessageLabels
  onSave: (content: string) => void
  onCancel: () => void
}

/** @internal The lazily loaded card of `<DialogCard>`. */
export interface DialogCardContentProps {
  dialog: Dialog
  /** Its DOM id (`dialogCardId`): the composer's note goes to it. */
  id: string
  deliver: ((toolId: string, answer: DialogAnswerInput) => Promise<unknown>) | undefined
  /** The app's words, merged over dialog-labels.ts in the chunk. */
  labels: Partial<ChatLabels> | undefined
}

/** @internal */
export interface DialogFormProps {
  dialog: Dialog
  busy: boolean
  onAnswer: (answer: DialogAnswerInput) => void
  words: DialogLabels
}

/** @internal */
export interface DialogSummaryProps {
  dialog: Dialog
  words: DialogLabels
  /** The app's words (the plan's copy buttons take theirs from it). */
  labels?: Partial<ChatLabels> | undefined
}

/** @internal A plan's markdown (the dialog card's chunk). */
export interface PlanMarkdownProps {
  source: string
  /** The app's words, merged over message-labels.ts (the copy-code buttons). */
  labels?: Partial<ChatLabels> | undefined
}
