import type { ComponentPart } from './component-part.js'
import type { StreamChunk } from './stream.js'

/**
 * How a component travels in a stream: a `text` chunk whose content is the fallback's summary (on
 * its own lines) and whose `metadata.component` is the part. Upstream's flat chunk interface stays
 * as it is: a consumer that knows no components (an AgentsKit controller, a log) shows the summary;
 * chatrail's controller and wire codec read the part.
 */
export function componentChunk(part: ComponentPart): StreamChunk {
  return Object.freeze({ type: 'text', content: `\n${part.fallback.summary}\n`, metadata: Object.freeze({ component: part }) })
}

const KEY = /^[a-z][a-z0-9-]{0,63}$/
const INSTANCE_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/

/** The component a chunk carries, when it carries a well-formed one (chunks come from adapters: untrusted). */
export function componentOfChunk(chunk: StreamChunk): ComponentPart | undefined {
  const part = chunk.metadata?.component
  return chunk.type === 'text' && isComponentPart(part) ? part : undefined
}

/** The shape of a component part (not its props: those are the registry's to check). */
export function isComponentPart(value: unknown): value is ComponentPart {
  if (typeof value !== 'object' || value === null) return false
  const part = value as Record<string, unknown>
  const fallback = part.fallback as Record<string, unknown> | null | undefined
  return part.type === 'component'
    && typeof part.componentKey === 'string' && KEY.test(part.componentKey)
    && typeof part.instanceId === 'string' && INSTANCE_ID.test(part.instanceId)
    && typeof fallback === 'object' && fallback !== null
    && typeof fallback.kind === 'string' && fallback.kind.length >= 1 && fallback.kind.length <= 64
    && typeof fallback.summary === 'string' && fallback.summary.length >= 1 && fallback.summary.length <= 4096
    && (part.provenance === 'route' || part.provenance === 'agent' || part.provenance === 'host')
}
