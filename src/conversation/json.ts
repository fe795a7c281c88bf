/**
 * JSON values: a conversation's context is a JSON object, so it can be compared, persisted and
 * carried in history records without losing information.
 */

export type JsonPrimitive = string | number | boolean | null
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue | undefined }
/** Declare a context as a type alias (`type Ctx = { … }`): interfaces lack the index signature. */
export type JsonObject = { [key: string]: JsonValue | undefined }

const MAX_DEPTH = 64

/**
 * Where `value` stops being JSON, as a path (`[]` is the value itself), or `undefined` when it is
 * JSON. Pure. `undefined` members of objects are allowed (they vanish when serialised), but not
 * inside arrays; non-finite numbers, functions, class instances and cycles (past depth 64) are not.
 */
export function findNonJson(value: unknown, path: (string | number)[] = [], depth = 0): (string | number)[] | undefined {
  if (depth > MAX_DEPTH) return path
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : path
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i]
      if (item === undefined) return [...path, i]
      const bad = findNonJson(item, [...path, i], depth + 1)
      if (bad) return bad
    }
    return undefined
  }
  if (typeof value === 'object') {
    const proto: unknown = Object.getPrototypeOf(value)
    if (proto !== Object.prototype && proto !== null) return path
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined) continue
      const bad = findNonJson(item, [...path, key], depth + 1)
      if (bad) return bad
    }
    return undefined
  }
  return path
}

/** Freezes a JSON value and everything inside it; returns the same value. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const item of Object.values(value)) deepFreeze(item)
  }
  return value
}
