import { useContext, useLayoutEffect } from './react-api.js'
import type { ReactNode } from 'react'
import { CardLoadedContext } from './follow-scroll.js'
import { entryLabels, useLabels } from './labels.js'
import type { MessageBodyProps } from './message-body.js'
import { MessageUIPart } from './message-ui-part.js'

export type MessageItemProps = Omit<MessageBodyProps, 'label'>

/** The message body from the chunk; its first render replaces plain text by markdown, so the follow scroll re-checks. */
function Body(props: MessageBodyProps & { Body: (props: MessageBodyProps) => ReactNode }): ReactNode {
  const contentChanged = useContext(CardLoadedContext)
  useLayoutEffect(() => contentChanged?.(''), [contentChanged])
  return <props.Body {...props} />
}

/**
 * One chat message (message-body.tsx, in the lazily loaded message UI chunk): markdown, the
 * Stopped mark, Copy and Edit. Until the chunk is in (or if it failed to load), its plain text.
 */
export function MessageItem(props: MessageItemProps): ReactNode {
  const { message, text = message.content } = props
  const words = useLabels(entryLabels)
  const label = words[message.role === 'user' ? 'you' : message.role]
  return (
    <MessageUIPart
      fallback={(
        <article data-chatrail-message="" data-chatrail-role={message.role} data-chatrail-status={message.status} aria-label={label}>
          <div data-chatrail-content="" data-chatrail-markdown-source="">{text}</div>
        </article>
      )}
      render={(ui) => <Body {...props} label={label} Body={ui.MessageBody} />}
    />
  )
}
