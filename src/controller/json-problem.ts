/** Where a value stops being plain JSON, and why. `path` is dotted (`messages.0.metadata`), `(root)` for the value itself. */
export interface JsonProblem {
  path: string
  problem: string
}

interface Visit {
  value: unknown
  path: readonly (string | number)[]
  /** Set on the marker pushed after an object's children: the walk has left it. */
  leaving?: boolean
}

const where = (path: readonly (string | number)[]): string => (path.length > 0 ? path.join('.') : '(root)')

function problemOfScalar(value: unknown): string | undefined {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return undefined
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : 'is a number JSON cannot hold (NaN or Infinity)'
  if (typeof value !== 'object') return `is a ${typeof value}, not a JSON value`
  return 'object'
}

/**
 * Pure: the first place where `value` is not plain JSON data, or `undefined` when it all is.
 * Plain JSON here means null, booleans, strings, finite numbers, arrays and objects whose
 * prototype is `Object.prototype` or null, with data properties only (a getter is never run),
 * no cycles (one object referenced twice is fine), and at most `maxDepth` levels below the root.
 * The walk is iterative, so hostile nesting cannot overflow the stack; an object that throws
 * when inspected (a Proxy) is reported, not rethrown.
 */
export function findJsonProblem(value: unknown, maxDepth: number): JsonProblem | undefined {
  const open = new Set<object>()
  const stack: Visit[] = [{ value, path: [] }]
  while (stack.length > 0) {
    const visit = stack.pop() as Visit
    if (visit.leaving) {
      open.delete(visit.value as object)
      continue
    }
    const scalar = problemOfScalar(visit.value)
    if (scalar === undefined) continue
    if (scalar !== 'object') return { path: where(visit.path), problem: scalar }
    if (visit.path.length > maxDepth) return { path: where(visit.path), problem: `is nested deeper than ${maxDepth} levels` }
    const object = visit.value as object
    if (open.has(object)) return { path: where(visit.path), problem: 'refers back to itself (a cycle)' }
    try {
      const children = childrenOf(object, visit.path)
      if (!Array.isArray(children)) return children
      open.add(object)
      stack.push({ value: object, path: visit.path, leaving: true })
      for (let index = children.length - 1; index >= 0; index -= 1) stack.push(children[index] as Visit)
    } catch {
      return { path: where(visit.path), problem: 'could not be read' }
    }
  }
  return undefined
}

/** The visits for an array's items or a plain object's own properties, or the problem that makes it neither. */
function childrenOf(object: object, path: readonly (string | number)[]): Visit[] | JsonProblem {
  if (Array.isArray(object)) return object.map((item, index) => ({ value: item as unknown, path: [...path, index] }))
  const prototype = Object.getPrototypeOf(object) as unknown
  if (prototype !== Object.prototype && prototype !== null) {
    return { path: where(path), problem: 'is a class instance (e.g. a Date or Map), not a plain JSON object' }
  }
  const visits: Visit[] = []
  for (const key of Object.keys(object)) {
    const descriptor = Object.getOwnPropertyDescriptor(object, key)
    if (!descriptor || !('value' in descriptor)) return { path: where([...path, key]), problem: 'is an accessor (getter); only data properties are JSON' }
    visits.push({ value: descriptor.value as unknown, path: [...path, key] })
  }
  return visits
}
