import { componentChunk } from '../contract/component-chunk.js'
import type { Message } from '../contract/message.js'
import { createUiPartEncoder } from '../protocol/encode-parts.js'
import type { ChatrailPartData } from '../protocol/ui-parts.js'
import { createPartStream } from './part-stream.js'
import type { ToolPart } from './tool-parts.js'
import { sourceChunk, sourcesOf } from '../contract/message-source.js'
import { answerSegments } from './ui-messages.js'

/**
 * The stream for a user message already answered (a network retry of a turn that ran): the
 * stored answer, read from the store, as the same parts a live turn would have sent (its
 * reasoning, its text, its tool calls where they streamed, its sources). No session turn runs, so no route callback and no
 * model call.
 */
export function storedAnswerStream(messages: readonly Message[], userIndex: number, data: ChatrailPartData): ReadableStream<Uint8Array> {
  const answer = messages.slice(userIndex + 1).find((message, index, rest) => message.role === 'assistant' && rest.slice(0, index).every((m) => m.role !== 'user'))
  const { body, sink } = createPartStream()
  const encoder = createUiPartEncoder({ messageId: answer?.id ?? `${messages[userIndex]?.id ?? 'answer'}:none` })
  sink.write(encoder.start())
  const reasoning = answer?.metadata?.reasoning
  if (typeof reasoning === 'string' && reasoning !== '') sink.write(encoder.encode({ type: 'reasoning', content: reasoning }))
  for (const segment of answer ? answerSegments(answer) : []) {
    if (segment.kind === 'text') {
      sink.write(encoder.encode({ type: 'text', content: segment.text }))
      continue
    }
    if (segment.kind === 'component') {
      sink.write(encoder.encode(componentChunk(segment.part)))
      continue
    }
    const { tool } = segment
    const settled: ToolPart = tool.state === 'output-error'
      ? { type: 'tool-output-error', toolCallId: tool.toolCallId, errorText: tool.errorText ?? '' }
      : { type: 'tool-output-available', toolCallId: tool.toolCallId, output: tool.output }
    // a tool part closes the running text part first (encoding `done` closes what is open)
    sink.write([...encoder.encode({ type: 'done' }), { type: 'tool-input-available', toolCallId: tool.toolCallId, toolName: tool.toolName, input: tool.input }, settled])
  }
  for (const source of answer ? sourcesOf(answer) : []) sink.write(encoder.encode(sourceChunk(source)))
  sink.write(encoder.finish(data))
  sink.close()
  return body
}
