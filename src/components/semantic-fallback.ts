import type { ComponentFallback } from '../contract/component-part.js'
import { refused } from './component-diagnostics.js'
import { ComponentError } from './define-components.js'

/**
 * A component's fallback on its own: what a surface that cannot draw the component shows instead
 * (AgentsKit Chat calls it the semantic fallback), checked with the same bounds as a part's
 * `fallback` in the registry, for a host reading one from outside (an AgentsKit frame, a request).
 */

const MAX_KIND = 64
const MAX_SUMMARY = 4096

/** Why `value` is not a fallback `{ kind (1–64 characters), summary (1–4,096 characters) }`; `undefined` when it is one. Pure. */
export function fallbackProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'The fallback must be an object { kind, summary }.'
  const { kind, summary } = value as Record<string, unknown>
  if (typeof kind !== 'string' || kind.length < 1 || kind.length > MAX_KIND) return `The fallback's kind must be a string of 1–${MAX_KIND} characters.`
  if (typeof summary !== 'string' || summary.length < 1 || summary.length > MAX_SUMMARY) return `The fallback's summary must be a string of 1–${MAX_SUMMARY.toLocaleString('en')} characters.`
  return undefined
}

/**
 * Pure. A fallback from outside (a frame, a request body), checked and copied to exactly
 * `{ kind, summary }`; throws `ComponentError` (`COMPONENT_INVALID_PART`) when it is not one.
 */
export function parseSemanticFallback(value: unknown): ComponentFallback {
  const problem = fallbackProblem(value)
  if (problem !== undefined) throw new ComponentError(refused('COMPONENT_INVALID_PART', problem, ['fallback']).diagnostic)
  const { kind, summary } = value as ComponentFallback
  return Object.freeze({ kind, summary })
}

export interface FallbackFormat {
  /** The words before the kind, e.g. in another language. Default `unsupported visual`. */
  readonly label?: string
}

/** Pure. The fallback as one line of text: `[unsupported visual: chart] Revenue rose 12%.` (AgentsKit Chat's format). */
export function formatSemanticFallback(fallback: ComponentFallback, format: FallbackFormat = {}): string {
  return `[${format.label ?? 'unsupported visual'}: ${fallback.kind}] ${fallback.summary}`
}
