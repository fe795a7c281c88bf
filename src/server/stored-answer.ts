import type { Message } from '../contract/message.js'
import { createUiPartEncoder } from '../protocol/encode-parts.js'
import type { ChatrailPartData } from '../protocol/ui-parts.js'
import { createPartStream } from './part-stream.js'

/**
 * The stream for a user message already answered (a network retry of a turn that ran): the
 * stored answer, read from the store, as the same parts a live turn would have sent. No session
 * turn runs, so no route callback and no model call.
 */
export function storedAnswerStream(messages: readonly Message[], userIndex: number, data: ChatrailPartData): ReadableStream<Uint8Array> {
  const answer = messages.slice(userIndex + 1).find((message, index, rest) => message.role === 'assistant' && rest.slice(0, index).every((m) => m.role !== 'user'))
  const { body, sink } = createPartStream()
  const encoder = createUiPartEncoder({ messageId: answer?.id ?? `${messages[userIndex]?.id ?? 'answer'}:none` })
  sink.write(encoder.start())
  if (answer && answer.content !== '') sink.write(encoder.encode({ type: 'text', content: answer.content }))
  sink.write(encoder.finish(data))
  sink.close()
  return body
}
