/**
 * A hand-written check that a route table has exactly the shape the definition schema accepts,
 * for the common case: routes made by the constructors. Issue 20: zod spends ~4 µs on each route,
 * so 10,000 routes took 25–57 ms to validate; this check takes well under 1 µs. It only ever says
 * "certainly valid": any key or value it does not know (a field added to the schema later, a typo)
 * makes it answer `false`, and the schema then validates the routes and words the errors.
 * test/conversation/route-shape.test.ts holds it to that against the schema itself.
 */

type Check = (value: unknown) => boolean

const isString: Check = (value) => typeof value === 'string'
const isFunction: Check = (value) => typeof value === 'function'
const optional = (check: Check): Check => (value) => value === undefined || check(value)
const nonEmpty: Check = (value) => typeof value === 'string' && value.length > 0
/** A plain object (what the schema's records and objects take; a Date or a Map is left to the schema). */
const isObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null) return false
  const prototype: unknown = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}
const stringList: Check = (value) => Array.isArray(value) && value.every(isString)

/** `{ text?, chunks?, assign? }` as the schema's `outputObject` takes it. */
const isOutput: Check = (value) => {
  if (!isObject(value)) return false
  for (const key in value) {
    const field = value[key]
    if (key === 'text' ? !optional(isString)(field) : key === 'chunks' ? !optional((list) => Array.isArray(list) && list.every((chunk) => isObject(chunk) && isString(chunk.type)))(field) : key !== 'assign' || !optional(isObject)(field)) return false
  }
  return true
}
const isResponse: Check = (value) => isString(value) || isFunction(value) || isOutput(value)

const common: Record<string, Check> = {
  kind: () => true,
  id: isString,
  event: optional(isString),
  states: optional(stringList),
  guard: optional(isFunction),
  response: isResponse,
  refuse: optional(isResponse),
  restart: optional((value) => value === true),
  // `z.int()` takes safe integers only: 2 ** 60 is an integer the schema rejects.
  routeTimeoutMs: optional((value) => Number.isSafeInteger(value) && (value as number) > 0),
  traceKind: optional((value) => value === 'deterministic' || value === 'repaired' || value === 'fallback'),
  description: optional(isString),
}

/** Per kind: its own fields, each required unless its check takes `undefined`. */
const kinds: Record<string, Record<string, Check>> = {
  command: { command: nonEmpty, caseSensitive: (value) => typeof value === 'boolean', trim: (value) => typeof value === 'boolean' },
  text: { texts: (value) => Array.isArray(value) && value.length > 0 && value.every(nonEmpty) },
  pattern: { pattern: (value) => value instanceof RegExp, assign: optional((value) => value === true || isFunction(value)) },
  custom: { match: isFunction },
  event: { uiEvent: isString },
}

function isPlainRoute(route: unknown): boolean {
  if (!isObject(route) || !isString(route.id) || !('response' in route)) return false
  const own = kinds[route.kind as string]
  if (!own) return false
  for (const key in own) if (!(own[key] as Check)(route[key])) return false
  for (const key in route) {
    const check = own[key] ?? common[key]
    if (!check?.(route[key])) return false
  }
  return true
}

/** True when `routes` is an array of routes the definition schema certainly accepts. Pure. */
export function routesCertainlyValid(routes: unknown): boolean {
  return Array.isArray(routes) && routes.every(isPlainRoute)
}
