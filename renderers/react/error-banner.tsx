import type { ReactNode } from 'react'
import type { JsonObject } from '../../src/conversation/index.js'
import { useChatFrom } from './chat-context.js'
import { MessageUIPart } from './message-ui-part.js'
import type { UseChatSessionReturn } from './use-chat-session.js'

/**
 * An agent failure as a banner with Retry and a dismiss (error-banner-content.tsx, in the
 * message UI chunk, which `<MessageList>` prefetches on mount). Without the chunk, the status badge
 * still says "Something went wrong".
 */
export function ErrorBanner({ chat }: { chat?: UseChatSessionReturn<JsonObject> }): ReactNode {
  const resolved = useChatFrom(chat, 'ErrorBanner')
  return <MessageUIPart fallback={null} render={(ui) => <ui.ErrorBannerContent chat={resolved} />} />
}
