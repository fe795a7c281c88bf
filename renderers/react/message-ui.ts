/**
 * The message UI chunk of `chatrail/react`, loaded on demand (message-ui-loader.ts) and prefetched
 * by `<MessageList>` on mount: a message's body (markdown through markdown-to-jsx, its actions:
 * the Stopped mark, Copy, Edit with its form, Regenerate), the Jump to latest button, the collapsed composer's link to the pending card, the welcome's suggestion chips, the event buttons, the error banner, the live region that reads finished replies, and the markdown renderer for `<Markdown>` / `<PlanMarkdown>`.
 * It imports React, markdown-to-jsx and the core only, never the entry; until it is in, messages
 * show as plain text (message-item.tsx).
 */
export { MessageBody } from './message-body.js'
export type { MessageBodyProps } from './message-body.js'
export { MarkdownContent } from './markdown-content.js'
export type { MarkdownContentProps } from './markdown-content.js'
export { CopyButton } from './copy-button.js'
export { WelcomeContent } from './welcome-content.js'
export { ErrorBannerContent } from './error-banner-content.js'
export { ReplyAnnouncer } from './reply-announcer.js'
export { EventButtonsContent } from './event-buttons-content.js'
export { JumpToLatest } from './jump-to-latest.js'
export { DialogLink } from './dialog-link.js'
export { MessageUIHost, MessageUIKitContext, MessageUILabels } from './message-ui-context.js'
