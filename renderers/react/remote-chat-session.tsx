import type { ReactNode } from 'react'
import type { JsonObject } from '../../src/conversation/index.js'
import { ChatFrame } from './chat-frame.js'
import type { ChatSessionProps } from './chat-session.js'
import type { RemoteChatOptions } from '../../src/view/remote-chat-binding.js'
import { useRemoteChatSession } from './use-remote-chat-session.js'
import type { UseChatSessionReturn } from './use-chat-session.js'

export interface RemoteChatSessionProps<Ctx extends JsonObject> extends Omit<ChatSessionProps<Ctx>, 'options'> {
  /** The server: `{ api, conversationId, headers?, fetch? }`. */
  remote: RemoteChatOptions
}

/** `<ChatSession>` against a chatrail server: the same parts and markup (chat-frame.tsx) over `useRemoteChatSession`. */
export function RemoteChatSession<Ctx extends JsonObject>({ definition, remote, ...frame }: RemoteChatSessionProps<Ctx>): ReactNode {
  const chat: UseChatSessionReturn<JsonObject> = useRemoteChatSession(definition, remote)
  return <ChatFrame chat={chat} remote {...frame} />
}
