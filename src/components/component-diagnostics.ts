/**
 * Why a component, or an interaction with one, was refused. Every refusal is inert (nothing
 * renders but the fallback, nothing is sent) and carries one of these codes, so a host can log or
 * count them without parsing messages.
 */
export type ComponentDiagnosticCode =
  /** The key is not in the registry (an own key: `constructor` and `__proto__` are unknown too). */
  | 'COMPONENT_UNKNOWN'
  /** The props fail the key's schema. */
  | 'COMPONENT_INVALID_PROPS'
  /** The props are not bounded plain JSON (nodes, depth, string length, prototypes, cycles). */
  | 'COMPONENT_PROPS_LIMIT'
  /** The part itself is malformed (key, instance id, fallback, provenance). */
  | 'COMPONENT_INVALID_PART'
  /** The event is not one the definition declares. */
  | 'COMPONENT_UNDECLARED_EVENT'
  /** The event is declared but its value has the wrong shape or names something the props do not offer. */
  | 'COMPONENT_INVALID_EVENT'

export interface ComponentDiagnostic {
  readonly code: ComponentDiagnosticCode
  readonly message: string
  /** Where in the props or the value, when it is about one place. */
  readonly path?: readonly (string | number)[]
}

export type Checked<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly diagnostic: ComponentDiagnostic }

export const refused = (code: ComponentDiagnosticCode, message: string, path?: readonly (string | number)[]): { ok: false; diagnostic: ComponentDiagnostic } => ({
  ok: false,
  diagnostic: path === undefined ? { code, message } : { code, message, path },
})
