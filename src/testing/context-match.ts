/** One place where a context differs from an expected partial. */
export interface ContextDifference {
  /** Dot path, `ticket.id` or `items[0]`. */
  path: string
  expected: unknown
  actual: unknown
  /** The key is absent from the actual context. */
  missing: boolean
}

/**
 * Where `actual` fails to match the partial `expected`: plain objects match partially and
 * recursively (extra keys are fine), arrays and scalars must be deep-equal. Pure; differences come
 * out in `expected`'s key order.
 */
export function contextDifferences(actual: unknown, expected: unknown, path = ''): ContextDifference[] {
  if (isPlainObject(expected) && isPlainObject(actual)) {
    return Object.entries(expected).flatMap(([key, value]) => {
      const child = path === '' ? key : `${path}.${key}`
      if (!Object.hasOwn(actual, key)) return [{ path: child, expected: value, actual: undefined, missing: true }]
      return contextDifferences(actual[key], value, child)
    })
  }
  return deepEqual(actual, expected) ? [] : [{ path: path === '' ? '(context)' : path, expected, actual, missing: false }]
}

/** `  plan: expected "pro", received "free"` lines. */
export function formatContextDifferences(differences: readonly ContextDifference[], indent = '  '): string {
  return differences
    .map((difference) => `${indent}${difference.path}: expected ${show(difference.expected)}, received ${difference.missing ? '(missing)' : show(difference.actual)}`)
    .join('\n')
}

/** Short JSON for messages; `undefined` spelled out. */
export function show(value: unknown): string {
  if (value === undefined) return 'undefined'
  const text = JSON.stringify(value)
  return text === undefined ? String(value) : text
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false
  const proto: unknown = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

/** Structural equality over JSON-like values (contexts are JSON). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, index) => deepEqual(item, b[index]))
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a).filter((key) => a[key] !== undefined)
    const otherKeys = Object.keys(b).filter((key) => b[key] !== undefined)
    return keys.length === otherKeys.length && keys.every((key) => deepEqual(a[key], b[key]))
  }
  return false
}
