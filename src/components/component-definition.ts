import type { StandardSchemaV1 } from './standard-schema.js'

/** What an event's value is: nothing, an id the props offer, a form's fields, or a URL the props hold. */
export type ComponentEventValue = 'none' | 'id' | 'form' | 'url'

/** A form's submitted fields. */
export type FormValues = Readonly<Record<string, string | number | boolean>>

/** The payload type of an event, from its declared value kind. */
export type EventPayload<V extends ComponentEventValue> = V extends 'none' ? undefined : V extends 'form' ? FormValues : string

export type ComponentCapability = 'display' | 'selection' | 'input' | 'action' | 'navigation' | 'progress' | 'download'

export interface ComponentAccessibility {
  /** The ARIA role a renderer gives the component's root. */
  readonly role: string
  /** How it is used from the keyboard, in a sentence (renderers show it as a hint). */
  readonly keyboard?: string
  /** Whether updates are announced. */
  readonly live?: 'off' | 'polite' | 'assertive'
}

export interface ComponentDefinition<
  Key extends string = string,
  Props = unknown,
  Events extends Readonly<Record<string, ComponentEventValue>> = Readonly<Record<string, ComponentEventValue>>,
> {
  /** `/^[a-z][a-z0-9-]{0,63}$/`. */
  readonly key: Key
  /** Validates props when a component is made and again when a stored one is read (synchronous schemas only). */
  readonly props: StandardSchemaV1<unknown, Props>
  /** The events it can emit and what each carries; any other event is refused. */
  readonly events: Events
  readonly accessibility: ComponentAccessibility
  readonly capabilities: readonly ComponentCapability[]
  /** The text in its place for a model, a log or a renderer that does not draw it (1–4,096 characters). */
  // Method syntax on purpose: methods are bivariant in their parameters, so a definition for any
  // props type is assignable to `AnyComponentDefinition` without an `any`.
  fallback(props: Props): string
  /**
   * Beyond the value's shape: that it names something these props offer (a declared choice id, an
   * enabled button, a declared form field). A message when refused, `undefined` when fine.
   */
  checkEvent?(props: Props, event: keyof Events & string, value: unknown): string | undefined
}

/** Any definition, as a registry holds it. */
export type AnyComponentDefinition = ComponentDefinition<string, unknown, Readonly<Record<string, ComponentEventValue>>>

export type PropsOf<D> = D extends ComponentDefinition<string, infer P, Readonly<Record<string, ComponentEventValue>>> ? P : never
export type EventsOf<D> = D extends ComponentDefinition<string, unknown, infer E> ? E : never

/** A definition, frozen, with its types inferred from the schema and the events. */
export function defineComponent<const Key extends string, Props, const Events extends Readonly<Record<string, ComponentEventValue>> = Record<never, ComponentEventValue>>(
  definition: {
    readonly key: Key
    readonly props: StandardSchemaV1<unknown, Props>
    readonly events?: Events
    readonly accessibility: ComponentAccessibility
    readonly capabilities?: readonly ComponentCapability[]
    fallback(props: Props): string
    checkEvent?(props: Props, event: keyof Events & string, value: unknown): string | undefined
  },
): ComponentDefinition<Key, Props, Events> {
  return Object.freeze({
    ...definition,
    events: Object.freeze({ ...(definition.events ?? {}) }) as Events,
    accessibility: Object.freeze({ ...definition.accessibility }),
    capabilities: Object.freeze([...(definition.capabilities ?? ['display'])]),
  })
}
