import type { ComponentCatalog } from '../contract/component-part.js'
import { isComponentPart } from '../contract/component-chunk.js'
import type { Message } from '../contract/message.js'
import { walk } from './interaction-rules.js'

/**
 * Judging interactions against a history (interaction-rules.ts), for renderers through
 * chatrail/components and chatrail/view: the rules with the component-part check bound.
 */

export { interactionOf } from './interaction-rules.js'
export type { InteractionRefusal } from './interaction-rules.js'

/**
 * The components already answered in `messages`, as `<messageId>:<instanceId>` keys: a renderer
 * disables them (history is shared by tabs and kept across reloads). Pass the definition's
 * registry to leave out interactions the session refused as invalid.
 */
export function answeredInteractions(messages: readonly Message[], catalog?: ComponentCatalog): ReadonlySet<string> {
  return walk({ length: messages.length, at: (index) => messages[index] }, catalog, isComponentPart).answered
}
