import type { AdapterRequest } from '../../contract/adapter.js'
import { historyOf } from '../../contract/history-view.js'
import type { Message } from '../../contract/message.js'

/**
 * What an agent CLI is sent for one chat turn. The CLI keeps its own conversation (it resumes its
 * session), so only the newest user message goes out, never the whole history. Pure; never mutates
 * the request (A7), and reads the newest messages through the request's history view, so a turn at
 * a long history builds no array of it.
 *
 * - `prompt`: the newest user message's text.
 * - `continuation`: the request ends in `tool` messages after the user message — a controller's
 *   tool loop asking for a follow-up. The agent already ran its tools itself, so there is nothing to
 *   send (chatrail's controller never asks: the adapters' tool calls arrive with their results).
 * - `missing`: no user message with text.
 */
export type TurnPrompt = { kind: 'prompt'; text: string } | { kind: 'continuation' } | { kind: 'missing' }

export function turnPrompt(request: AdapterRequest): TurnPrompt {
  const messages = historyOf(request)
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages.at(index) as Message
    if (message.role === 'tool') return { kind: 'continuation' }
    if (message.role !== 'user') continue
    const text = messageText(message)
    return text.trim() === '' ? { kind: 'missing' } : { kind: 'prompt', text }
  }
  return { kind: 'missing' }
}

/** `content`, or the text parts joined when `content` is empty. */
function messageText(message: Message): string {
  if (message.content !== '') return message.content
  return (message.parts ?? [])
    .map((part) => (part.type === 'text' ? part.text : ''))
    .filter((text) => text !== '')
    .join('\n')
}
