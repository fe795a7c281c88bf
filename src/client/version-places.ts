import type { Message } from '../contract/message.js'
import type { VersionPosition, VersionPositions } from '../protocol/version-positions.js'

/**
 * The versions a chatrail server keeps (`chatrail.versions` on GET, on a turn's snapshot and on a
 * switch's answer), read against the history a client shows. The server names a place by its user
 * message, an id both sides share: the user message itself for its edits (`question`), the first
 * reply after it for its regenerates (`answer`), whatever id the client gave that reply.
 * Framework-neutral and pure, so every binding over chatrail/server reads them alike.
 */
export interface VersionPlace {
  /** The user message the server names the place by. */
  readonly messageId: string
  readonly place: 'question' | 'answer'
  /** Where the place's head stands in the history. */
  readonly at: number
  readonly position: VersionPosition
}

/** The place headed by `messageId` in `messages` and where it stands; undefined for a message that heads none with versions. */
export function versionPlaceOf(messages: readonly Message[], positions: VersionPositions, messageId: string): VersionPlace | undefined {
  const at = messages.findIndex((message) => message.id === messageId)
  const message = messages[at]
  if (message === undefined) return undefined
  if (message.role === 'user') {
    const position = positions[message.id]?.question
    return position && { messageId: message.id, place: 'question', at, position }
  }
  if (message.role !== 'assistant') return undefined
  // the first reply after its user message heads the answer place; a later one (after a tool message) does not
  for (let index = at - 1; index >= 0; index -= 1) {
    const before = messages[index] as Message
    if (before.role === 'assistant') return undefined
    if (before.role !== 'user') continue
    const position = positions[before.id]?.answer
    return position && { messageId: before.id, place: 'answer', at, position }
  }
  return undefined
}
