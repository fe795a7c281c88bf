import { useEffect, useRef, useState } from 'react'
import type { ReactNode } from 'react'
import type { Message } from '../../src/contract/message.js'
import { finishedReplies } from '../../src/view/reply-announcements.js'

/**
 * A visually hidden polite live region that reads each reply once, when it is complete. The
 * message list itself is `aria-live="off"`: announcing it would read every streamed chunk (one
 * reply used to make dozens of mutations in the polite region). History present at mount is not
 * read out.
 */
export function ReplyAnnouncer({ messages }: { messages: readonly Message[] }): ReactNode {
  const seen = useRef<Set<string> | null>(null)
  const [text, setText] = useState('')
  seen.current ??= new Set(messages.filter((message) => message.status !== 'streaming').map((message) => message.id))
  useEffect(() => {
    const done = finishedReplies(messages, seen.current as Set<string>)
    for (const message of done) seen.current?.add(message.id)
    if (done.length > 0) setText(done.map((message) => message.content).join('\n\n'))
  }, [messages])
  return <div aria-live="polite" data-chatrail-announcer="">{text}</div>
}
