import type { ReactNode } from 'react'
import type { JsonObject } from '../../src/conversation/index.js'
import { ChatSessionContext } from './chat-context.js'
import type { ChatSessionProps } from './chat-session.js'
import { Composer } from './composer.js'
import { EventButtons } from './event-buttons.js'
import { ChatLabelsContext, entryLabels } from './labels.js'
import type { ChatLabels } from './labels.js'
import { MessageList } from './message-list.js'
import type { RemoteChatOptions } from '../../src/view/remote-chat-binding.js'
import { StateBadge } from './state-badge.js'
import { useRemoteChatSession } from './use-remote-chat-session.js'
import type { UseChatSessionReturn } from './use-chat-session.js'
import { Welcome } from './welcome.js'

export interface RemoteChatSessionProps<Ctx extends JsonObject> extends Omit<ChatSessionProps<Ctx>, 'options'> {
  /** The server: `{ api, conversationId, headers?, fetch? }`. */
  remote: RemoteChatOptions
}

const NO_LABELS: Partial<ChatLabels> = {}

/** `<ChatSession>` against a chatrail server: the same parts and markup over `useRemoteChatSession`. */
export function RemoteChatSession<Ctx extends JsonObject>({
  definition, remote, title, greeting, placeholder, stateLabels, eventLabels, className, children, componentViews, labels = NO_LABELS,
}: RemoteChatSessionProps<Ctx>): ReactNode {
  const chat: UseChatSessionReturn<JsonObject> = useRemoteChatSession(definition, remote)
  const name = title ?? labels.title ?? entryLabels.title
  return (
    <ChatLabelsContext value={labels}>
    <ChatSessionContext.Provider value={chat}>
      <section data-chatrail-chat="" data-chatrail-status={chat.status} data-chatrail-remote="" aria-label={name} className={className}>
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
