import type { ComponentPart } from '../contract/component-part.js'

/**
 * What a binding knows of a component instance without the component rules (component-rules.ts,
 * loaded with the first component): its key, what answered it, and what an app's view of it gets.
 */

/** The interaction already sent for a component (from history, or the click just made). */
export interface ComponentAnswer {
  readonly event: string
  readonly value?: unknown
}

/** `<messageId>:<instanceId>`: one component instance, as `answeredInteractions` keys it. */
export function componentKeyOf(messageId: string, instanceId: string): string {
  return `${messageId}:${instanceId}`
}

/**
 * What an app's own view for a component key of its registry receives, in every binding (React's
 * `ComponentView`, Vue's render function, Svelte's component): the part, its checked props, the
 * answer message, whether it is answered, and the sender (the view's `interact`: at most once).
 */
export interface ComponentViewProps {
  readonly part: ComponentPart
  /** The props, checked by the definition's registry (`components.resolve(part)`). */
  readonly props: unknown
  /** The answer message holding the component. */
  readonly messageId: string
  /** Set once the component was interacted with (in any tab, before a reload too): draw it disabled. */
  readonly answered: ComponentAnswer | undefined
  /** Sends an interaction; does nothing once the component is answered. */
  readonly interact: (event: string, value?: unknown, label?: string) => void
}
