import type { Message } from '../contract/message.js'
import type { BranchPosition } from '../controller/index.js'

/** The latest message with versions: where it stands in history, and which of how many it shows. */
export interface LatestVersions extends BranchPosition {
  at: number
  messageId: string
}

/**
 * The newest message of `messages` with more than one version (`branchesOf`), the one Ctrl+←/→
 * walk in `<InkChat>`: a terminal has no pointer to pick an older one with. Pure given
 * `branchesOf`; O(n) from the end, usually a step or two.
 */
export function latestVersions(messages: readonly Message[], branchesOf: (messageId: string) => BranchPosition): LatestVersions | undefined {
  for (let at = messages.length - 1; at >= 0; at -= 1) {
    const message = messages[at] as Message
    const position = branchesOf(message.id)
    if (position.count > 1) return { ...position, at, messageId: message.id }
  }
  return undefined
}
