import type { AdapterFactory, AdapterRequest } from '../contract/adapter.js'
import type { StreamSource } from '../contract/stream.js'
import { isLiveAgentAdapter } from '../contract/live-agent-adapter.js'

/**
 * The session's adapter: a fresh object with `createSource` (routing first), the original's
 * `capabilities`, and its `agentRunState` when it is a live agent adapter. It does not spread the
 * original, so no other entry point (upstream's `createSourceForSession`) can bypass routing. A
 * module-level WeakMap maps each wrapper to its original, so re-wrapping never nests.
 */

const originals = new WeakMap<AdapterFactory, AdapterFactory | null>()

/** The adapter a session wrapper stands for (`null`: a wrapper without one); anything else as is. */
export function unwrapAdapter(adapter: AdapterFactory | undefined): AdapterFactory | undefined {
  if (adapter === undefined) return undefined
  const original = originals.get(adapter)
  return original === undefined ? adapter : (original ?? undefined)
}

export function wrapAdapter(original: AdapterFactory | undefined, createSource: (request: AdapterRequest) => StreamSource): AdapterFactory {
  const wrapper: AdapterFactory & { agentRunState?: unknown } = { createSource }
  if (original?.capabilities) wrapper.capabilities = original.capabilities
  if (original && isLiveAgentAdapter(original)) wrapper.agentRunState = original.agentRunState
  originals.set(wrapper, original ?? null)
  return wrapper
}
