import { refused, type ComponentDiagnostic } from './component-diagnostics.js'

/**
 * The bounds on a component's props, the same as AgentsKit's wire frame (so a frame chatrail
 * writes is one AgentsKit reads): at most 1,000 nodes, 20 levels, 16,384 characters a string,
 * plain objects and arrays only, no cycles. Checked before the schema runs, so a schema never sees
 * a getter, a class instance or a million-node tree.
 */
export const PROPS_LIMITS = Object.freeze({ nodes: 1000, depth: 20, stringLength: 16_384 })

export function checkBoundedJson(value: unknown): ComponentDiagnostic | undefined {
  let nodes = 0
  const seen = new Set<object>()
  const visit = (node: unknown, path: (string | number)[]): ComponentDiagnostic | undefined => {
    nodes += 1
    if (nodes > PROPS_LIMITS.nodes) return limit(`more than ${PROPS_LIMITS.nodes} nodes`, path)
    if (path.length > PROPS_LIMITS.depth) return limit(`deeper than ${PROPS_LIMITS.depth} levels`, path)
    if (node === null || typeof node === 'boolean') return undefined
    if (typeof node === 'number') return Number.isFinite(node) ? undefined : limit('a number that is not finite', path)
    if (typeof node === 'string') return node.length > PROPS_LIMITS.stringLength ? limit(`a string over ${PROPS_LIMITS.stringLength} characters`, path) : undefined
    if (typeof node !== 'object') return limit(`a ${typeof node}, which is not JSON`, path)
    if (seen.has(node)) return limit('a cycle', path)
    const prototype: unknown = Object.getPrototypeOf(node)
    const isArray = Array.isArray(node)
    if (!isArray && prototype !== Object.prototype && prototype !== null) return limit('an object that is not plain (a class instance)', path)
    seen.add(node)
    // Own data properties only: a getter could answer this check one way and the renderer another.
    for (const [key, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(node))) {
      if (isArray && key === 'length') continue
      if (!('value' in descriptor)) return limit('an accessor property', [...path, key])
      const bad = visit(descriptor.value, [...path, isArray ? Number(key) : key])
      if (bad) return bad
    }
    seen.delete(node)
    return undefined
  }
  return visit(value, [])
}

const limit = (what: string, path: (string | number)[]): ComponentDiagnostic =>
  refused('COMPONENT_PROPS_LIMIT', `The props hold ${what}${path.length ? ` at ${path.join('.')}` : ''}; component props are bounded plain JSON.`, path).diagnostic
