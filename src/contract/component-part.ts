/**
 * A component in a message: typed data beside text parts, never a control-character string inside
 * `content` (AgentsKit Chat's frames live in-band; chatrail keeps a codec for them only for wire
 * compatibility, in chatrail/components). `content` carries the fallback's summary in its place, so
 * a model, a log or a renderer that knows no components reads the same message as text.
 */

/** Who put the component there: a deterministic route, an agent through a declared tool, or the host app. */
export type ComponentProvenance = 'route' | 'agent' | 'host'

/** What a surface shows (and a model reads) instead of the component. */
export interface ComponentFallback {
  /** What the component is, e.g. `choice-list` (1–64 characters). */
  kind: string
  /** Its content in a sentence or a list (1–4,096 characters). */
  summary: string
}

export interface ComponentPart {
  type: 'component'
  /** The registry key, `/^[a-z][a-z0-9-]{0,63}$/`. */
  componentKey: string
  /** Unique within its message; interactions are deduplicated by (message id, instance id). */
  instanceId: string
  /** Bounded plain JSON, valid against the key's props schema when it was made. */
  props: unknown
  fallback: ComponentFallback
  provenance: ComponentProvenance
}

/**
 * What a session needs of a component registry (`defineComponents` in chatrail/components): the
 * keys it knows and a check of a part from outside. A definition that names one
 * (`defineChat({ components })`) gets component parts projected to text before its adapter sees
 * history, and interactions checked against it.
 */
export interface ComponentCatalog {
  readonly keys: readonly string[]
  readonly resolve: (part: unknown) => { readonly ok: boolean }
  /** Whether `event` (with `value`) is one `part` offers; without it only the part's presence is checked. */
  readonly interactUnknown?: (part: unknown, event: unknown, value?: unknown) => { readonly ok: boolean }
}
