import { useEffect, useRef } from './react-api.js'
import type { ReactNode } from 'react'
import type { JsonObject } from '../../src/conversation/index.js'
import { useChatFrom } from './chat-context.js'
import { ComponentHostContext } from './component-host.js'
import type { ComponentViews } from './component-host.js'
import { DialogCard } from './dialog-card.js'
import { ErrorBanner } from './error-banner.js'
import { loadDialogUI } from './dialog-ui-loader.js'
import { CardLoadedContext, useFollowScroll } from './follow-scroll.js'
import { isFollowing } from '../../src/view/follow-scroll.js'
import { entryLabels, useLabels } from './labels.js'
import { MessageItem } from './message-item.js'
import { loadMessageUI } from './message-ui-loader.js'
import { MessageUIPart } from './message-ui-part.js'
import type { UseChatSessionReturn } from './use-chat-session.js'

export interface MessageListProps {
  chat?: UseChatSessionReturn<JsonObject>
  /** Accessible name of the log; default `labels.messages` ("Messages"). */
  label?: string
  className?: string
  /** Views for component keys of your own registry (the standard catalog's are built in). */
  componentViews?: ComponentViews
}

/**
 * The chat stream: messages and agent dialog cards (the view's `items`, `layoutStream`), in the only scroll
 * container of the chat (`div[role=log][data-chatrail-message-list]`, `aria-live="off"`: replies
 * are read once, whole, by the `ReplyAnnouncer` region after it), with the follow scroll of
 * `useFollowScroll`, and the error banner of a failed turn at its end. System messages are not shown.
 * Its messages read the chat from `ComponentHostContext` (handed to the message UI as `MessageUIHost`) for their actions (Regenerate on the last
 * reply: message-actions.tsx). While a reply streams and the reader has scrolled up, a "Jump to
 * latest" button floats over the list's bottom edge (jump-to-latest.tsx). The dialog cards' UI (a
 * lazily loaded chunk) starts loading as soon as the session has a live agent, the only source of pending dialogs, so
 * the first card renders at once; a dialog already in history starts it by rendering.
 */
export function MessageList({ chat, label, className, componentViews }: MessageListProps): ReactNode {
  const words = useLabels(entryLabels)
  const resolved = useChatFrom(chat, 'MessageList')
  const { messages, status, edit, stopped } = resolved
  const streaming = status === 'streaming'
  const live = resolved.snapshot.agent !== undefined
  useEffect(() => { if (live) loadDialogUI() }, [live])
  // Every chat shows messages: fetch their UI (markdown, actions) at once, before the first reply.
  useEffect(() => { loadMessageUI() }, [])
  // the stream as the view lays it out (chatrail/view `items`: dialogs placed, replies split)
  const items = resolved.ui.items
  // Tool calls shown as dialog cards get no chip.
  const dialogToolIds = new Set(items.flatMap((item) => (item.kind === 'dialog' ? [item.dialog.toolId] : [])))
  const list = useRef<HTMLDivElement>(null)
  const cardLoaded = useFollowScroll(list, items)
  return (
    <>
    <div
      ref={list}
      role="log"
      aria-label={label ?? words.messages}
      aria-live="off"
      tabIndex={0}
      data-chatrail-message-list=""
      className={className}
    >
      <CardLoadedContext value={cardLoaded}>
      <ComponentHostContext value={{ chat: resolved, views: componentViews }}>
        {items.map((item) => {
          if (item.kind === 'dialog') return <DialogCard key={item.key} dialog={item.dialog} chat={resolved} />
          if (item.message.role === 'system') return null
          return (
            <MessageItem
              key={item.key}
              message={item.message}
              text={item.text}
              part={item.part}
              stopped={stopped.has(item.message.id)}
              hiddenToolIds={dialogToolIds}
              canEdit={!streaming}
              onEdit={(id, content) => { void edit(id, content) }}
            />
          )
        })}
        {/* In the stream, after what failed: it scrolls into view with the failed reply and never shrinks the list. */}
        <ErrorBanner chat={resolved} />
      </ComponentHostContext>
      </CardLoadedContext>
    </div>
    <MessageUIPart fallback={null} render={(ui) => <><ui.JumpToLatest list={list} streaming={streaming} isFollowing={isFollowing} /><ui.ReplyAnnouncer messages={messages} /></>} />
    </>
  )
}
