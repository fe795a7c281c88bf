import type { ComponentCatalog } from '../contract/component-part.js'
import type { Message } from '../contract/message.js'
import { answeredInteractions, interactionOf } from '../conversation/interaction-judge.js'
import { componentKeyOf } from './component-key.js'
import type { ComponentAnswer } from './component-key.js'

// Also here for the modules that import them from this one; the view itself takes them from component-key.ts.
export { componentKeyOf }
export type { ComponentAnswer, ComponentViewProps } from './component-key.js'

/** Interactions in a history, by component key; computed once per messages array. */
const answersCache = new WeakMap<readonly Message[], ReadonlyMap<string, ComponentAnswer>>()

/**
 * The components answered in `messages`, by `componentKeyOf`, with what answered them. The
 * session's own rule: only interactions that stood (an earlier answer showed the component, the
 * registry took the event); the first is the one the session took, a refused repeat changes nothing.
 */
export function componentAnswersOf(messages: readonly Message[], catalog: ComponentCatalog | undefined): ReadonlyMap<string, ComponentAnswer> {
  let answers = answersCache.get(messages)
  if (answers === undefined) {
    const answered = answeredInteractions(messages, catalog)
    const found = new Map<string, ComponentAnswer>()
    for (const message of messages) {
      const interaction = interactionOf(message)
      const key = interaction && componentKeyOf(interaction.messageId, interaction.instanceId)
      if (interaction && key && answered.has(key) && !found.has(key)) found.set(key, { event: interaction.event, ...('value' in interaction ? { value: interaction.value } : {}) })
    }
    answers = found
    answersCache.set(messages, answers)
  }
  return answers
}
