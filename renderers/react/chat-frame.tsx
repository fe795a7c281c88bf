import type { ReactNode } from 'react'
import type { JsonObject } from '../../src/conversation/index.js'
import { ChatSessionContext } from './chat-context.js'
import type { ChatSessionProps } from './chat-session.js'
import { Composer } from './composer.js'
import { EventButtons } from './event-buttons.js'
import { ChatLabelsContext, entryLabels } from './labels.js'
import type { ChatLabels } from './labels.js'
import { MessageList } from './message-list.js'
import { StateBadge } from './state-badge.js'
import { Welcome } from './welcome.js'
import type { UseChatSessionReturn } from './use-chat-session.js'

export type ChatFrameProps = Omit<ChatSessionProps<JsonObject>, 'definition' | 'options'> & {
  chat: UseChatSessionReturn<JsonObject>
  /** `data-chatrail-remote` on the region: the chat runs on a server. */
  remote?: boolean
}

const NO_LABELS: Partial<ChatLabels> = {}

/**
 * The parts of a whole chat around one mounted chat (`<ChatSession>`'s and `<RemoteChatSession>`'s):
 * a hidden h2 title, the status line, the welcome with suggestion chips (first screen) or the
 * message list with dialog cards (and an error banner at its end), the current state's event
 * buttons and the composer (Send or Stop; Copy, Edit and Regenerate are on the messages, Retry in
 * the error banner). Headless: markup and `data-chatrail-*` attributes only; see styles.css.
 */
export function ChatFrame({ chat, remote = false, title, greeting, placeholder, stateLabels, eventLabels, className, children, componentViews, labels = NO_LABELS }: ChatFrameProps): ReactNode {
  const name = title ?? labels.title ?? entryLabels.title
  return (
    <ChatLabelsContext value={labels}>
    <ChatSessionContext.Provider value={chat}>
      <section data-chatrail-chat="" data-chatrail-status={chat.status} data-chatrail-remote={remote ? '' : undefined} aria-label={name} className={className}>
        <header data-chatrail-header="">
          <h2 data-chatrail-title="">{name}</h2>
          <StateBadge chat={chat} labels={stateLabels} />
        </header>
        {children}
        <Welcome chat={chat} greeting={greeting} eventLabels={eventLabels} />
        <MessageList chat={chat} componentViews={componentViews} />
        {chat.messages.length > 0 && <EventButtons chat={chat} labels={eventLabels} />}
        <Composer chat={chat} placeholder={placeholder} />
      </section>
    </ChatSessionContext.Provider>
    </ChatLabelsContext>
  )
}
