import type { Message } from '../contract/message.js'
import { uiEventOf } from '../conversation/ui-events.js'

/** What a message offers besides Copy: asking the last turn again (Regenerate), and editing it (Edit). */

/** Pure: may the last turn be asked again (an assistant reply right after a user message, idle)? */
export function canReplayLastTurn(messages: readonly Message[], streaming: boolean): boolean {
  const last = messages.at(-1)
  return !streaming && last?.role === 'assistant' && messages.at(-2)?.role === 'user'
}

/** Pure: may `message` be edited and sent again: the user's own words (not a UI event, a chip or a component's answer), while no reply streams. */
export function canEditMessage(message: Message, streaming: boolean): boolean {
  return !streaming && message.role === 'user' && uiEventOf(message) === undefined
}
