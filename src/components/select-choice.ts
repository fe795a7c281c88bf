import type { ComponentPart } from '../contract/component-part.js'
import { defineComponents, ComponentError, type ComponentInteraction, type ComponentRegistry } from './define-components.js'
import { choiceList } from './standard-catalog.js'

// Made on first use: a module that imports this file but never selects pays nothing.
let choiceListOnly: ComponentRegistry | undefined

/**
 * The interaction of choosing `choiceId` in a standard `choice-list` part, for a host or renderer
 * that holds the part but not the registry (AgentsKit Chat's `selectChoice(frame, choiceId)`).
 * Pure. The same check as `registry.interact(part, 'select', choiceId)`: the part is read again
 * as untrusted (shape, props against the `choice-list` schema) and the id must be one of its
 * choices. Throws `ComponentError` with the refusal's code otherwise (`COMPONENT_UNKNOWN` for a
 * part of another key, `COMPONENT_INVALID_EVENT` for an id it does not offer): calling it with a
 * choice the part never showed is a bug in the caller, not user input to record.
 */
export function selectChoice(part: ComponentPart, choiceId: string): ComponentInteraction {
  choiceListOnly ??= defineComponents([choiceList])
  const checked = choiceListOnly.interactUnknown(part, 'select', choiceId)
  if (!checked.ok) throw new ComponentError(checked.diagnostic)
  return checked.value
}
