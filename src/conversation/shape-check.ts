/**
 * The few schema kinds the definition's shape check needs, with zod 4's semantics and its English
 * messages ("Invalid input: expected string, received number"), in ≈3.6 kB minified (1.6 kB gzip)
 * instead of zod's ≈34 kB (issue 32: zod was a third of a minimal browser app). Each check walks a value and pushes
 * what zod would report, in zod's order: an object's keys in declaration order, then its unknown
 * keys; a check after its type. `go` is zod's `continue` flag, which decides what a union reports
 * and whether later checks run: `true` continues, `false` aborts explicitly, absent aborts.
 * test/conversation/definition-oracle.test.ts holds the definition check to the zod schema it
 * replaced, message for message. Pure.
 */

export interface ShapeIssue {
  code: string
  path: PropertyKey[]
  message: string
  /** The unknown keys of an `unrecognized_keys` issue. */
  keys?: string[]
  go?: boolean
}

/** Pushes the issues of `value` onto `out`; `path` is where `value` sits (read, never kept). */
export type Shape = ((value: unknown, out: ShapeIssue[], path: PropertyKey[]) => void) & { optional?: true }

type Dict = Record<string, unknown>

const hasOwn = (object: object, key: PropertyKey): boolean => Object.prototype.hasOwnProperty.call(object, key)
const isObject = (value: unknown): value is Dict => typeof value === 'object' && value !== null && !Array.isArray(value)

/** zod's `isPlainObject`, which a record requires (a Date or a Map is not one; a null-prototype object is). */
function isPlainObject(value: unknown): value is Dict {
  if (!isObject(value)) return false
  const ctor: unknown = value.constructor
  if (typeof ctor !== 'function') return true
  const prototype: unknown = ctor.prototype
  return isObject(prototype) && hasOwn(prototype, 'isPrototypeOf')
}

/** zod's name for what it received (`parsedType` through the English locale). */
function received(value: unknown): string {
  if (typeof value === 'number') return Number.isNaN(value) ? 'NaN' : Number.isFinite(value) ? 'number' : String(value)
  if (typeof value === 'object') {
    if (value === null) return 'null'
    if (Array.isArray(value)) return 'array'
    const ctor: unknown = (value as Dict).constructor
    if (Object.getPrototypeOf(value) !== Object.prototype && 'constructor' in value && ctor) return (ctor as { name: string }).name
  }
  return typeof value
}

const quote = (value: unknown): string => (typeof value === 'string' ? `"${value}"` : String(value))

const issue = (out: ShapeIssue[], code: string, path: PropertyKey[], message: string, go?: boolean): void => {
  out.push(go === undefined ? { code, path: [...path], message } : { code, path: [...path], message, go })
}
const invalidType = (out: ShapeIssue[], path: PropertyKey[], expected: string, value: unknown, go?: boolean): void =>
  issue(out, 'invalid_type', path, `Invalid input: expected ${expected}, received ${received(value)}`, go)

/** True when an issue from `from` on stops the parse (zod's `aborted`); `explicit`: only a `go: false` does. */
const aborted = (out: readonly ShapeIssue[], from: number, explicit = false): boolean => {
  for (let i = from; i < out.length; i++) if (explicit ? out[i]?.go === false : out[i]?.go !== true) return true
  return false
}

const typed = (expected: string, test: (value: unknown) => boolean): Shape => (value, out, path) => {
  if (!test(value)) invalidType(out, path, expected, value)
}

// Pure calls (annotated): a bundler drops them, and this module, from a production app, where
// nothing validates definitions (define-chat.ts).
export const string: Shape = /* @__PURE__ */ typed('string', (value) => typeof value === 'string')
export const boolean: Shape = /* @__PURE__ */ typed('boolean', (value) => typeof value === 'boolean')
export const number: Shape = /* @__PURE__ */ typed('number', (value) => typeof value === 'number' && Number.isFinite(value))
export const unknown: Shape = () => undefined
export const instanceOf = (ctor: abstract new (...args: never[]) => unknown): Shape => typed(ctor.name, (value) => value instanceof ctor)

/** `z.custom` with a message: its issue aborts explicitly. */
export const fn: Shape = (value, out, path) => {
  if (typeof value !== 'function') issue(out, 'custom', path, 'Expected a function', false)
}

/** `z.literal` (one value) and `z.enum` (several). */
export const oneOf = (...values: readonly unknown[]): Shape => (value, out, path) => {
  if (!values.includes(value)) {
    issue(out, 'invalid_value', path, values.length === 1 ? `Invalid input: expected ${quote(values[0])}` : `Invalid option: expected one of ${values.map(quote).join('|')}`)
  }
}

export const optional = (inner: Shape): Shape => Object.assign<Shape, { optional: true }>((value, out, path) => {
  if (value !== undefined) inner(value, out, path)
}, { optional: true })

/**
 * `z.number().check(z.int(), z.positive())`, and `z.maximum(Number.MAX_SAFE_INTEGER)` after them
 * when `capped`: each check runs unless an earlier issue aborted.
 */
export const positiveInt = (capped: boolean): Shape => (value, out, path) => {
  if (typeof value !== 'number' || !Number.isFinite(value)) return number(value, out, path)
  if (!Number.isInteger(value)) return invalidType(out, path, 'int', value, false)
  const bound = Number.MAX_SAFE_INTEGER
  if (!Number.isSafeInteger(value)) issue(out, value > 0 ? 'too_big' : 'too_small', path, value > 0 ? `Too big: expected int to be <=${bound}` : `Too small: expected int to be >=${-bound}`, true)
  if (value <= 0) issue(out, 'too_small', path, 'Too small: expected number to be >0', true)
  if (capped && value > bound) issue(out, 'too_big', path, `Too big: expected number to be <=${bound}`, true)
}

/**
 * `.check(z.minLength(min))` after `base`: it runs on anything with a `length` (an array handed to a
 * string schema too) unless an issue aborted explicitly, and counts a string's code points.
 */
export const minLength = (base: Shape, min: number): Shape => (value, out, path) => {
  const start = out.length
  base(value, out, path)
  if (value === undefined || value === null || aborted(out, start, true)) return
  const units: unknown = (value as { length?: unknown }).length
  if (units === undefined) return
  const length = typeof value === 'string' && (units as number) >= min && (units as number) < min * 2 ? [...value].length : units
  if ((length as number) >= min) return
  const origin = Array.isArray(value) ? 'array' : typeof value === 'string' ? 'string' : 'unknown'
  const unit = origin === 'array' ? ' items' : origin === 'string' ? ' characters' : ''
  issue(out, 'too_small', path, `Too small: expected ${origin} to ${unit ? 'have' : 'be'} >=${min}${unit}`, true)
}

/** Runs `check` with `key` appended to the shared path. */
const at = (check: Shape, value: unknown, out: ShapeIssue[], path: PropertyKey[], key: PropertyKey): void => {
  path.push(key)
  check(value, out, path)
  path.pop()
}

export const array = (element: Shape): Shape => (value, out, path) => {
  if (!Array.isArray(value)) return invalidType(out, path, 'array', value)
  for (let i = 0; i < value.length; i++) at(element, value[i], out, path, i)
}

/** `z.record(z.string(), values)`: own enumerable keys; a symbol key is an invalid key. */
export const record = (values: Shape): Shape => (input, out, path) => {
  if (!isPlainObject(input)) return invalidType(out, path, 'record', input)
  for (const key of Reflect.ownKeys(input)) {
    if (key === '__proto__' || !Object.prototype.propertyIsEnumerable.call(input, key)) continue
    if (typeof key === 'symbol') {
      path.push(key)
      issue(out, 'invalid_key', path, 'Invalid key in record')
      path.pop()
    } else at(values, input[key], out, path, key)
  }
}

/**
 * `z.strictObject` (`strict`: other keys, inherited enumerable ones too, are `unrecognized_keys`) or
 * `z.looseObject` (other keys pass). A missing key whose check took `undefined` is reported anyway.
 */
export const object = (shape: Readonly<Record<string, Shape>>, strict: boolean): Shape => (input, out, path) => {
  if (!isObject(input)) return invalidType(out, path, 'object', input)
  for (const key in shape) {
    const check = shape[key] as Shape
    const start = out.length
    at(check, input[key], out, path, key)
    if (!check.optional && out.length === start && !(key in input)) {
      path.push(key)
      issue(out, 'invalid_type', path, 'Invalid input: expected nonoptional, received undefined')
      path.pop()
    }
  }
  if (!strict) return
  const keys: string[] = []
  for (const key in input) if (!hasOwn(shape, key)) keys.push(key)
  if (keys.length > 0) out.push({ code: 'unrecognized_keys', path: [...path], message: `Unrecognized key${keys.length > 1 ? 's' : ''}: ${keys.map(quote).join(', ')}`, keys, go: true })
}

/**
 * `z.union`: the first option without issues wins; if all fail, the issues of the one option that did
 * not abort (an object with unknown keys only, say), or one `invalid_union`.
 */
export const union = (...options: readonly Shape[]): Shape => (value, out, path) => {
  let live: ShapeIssue[] | undefined
  let count = 0
  for (const option of options) {
    const issues: ShapeIssue[] = []
    option(value, issues, path)
    if (issues.length === 0) return
    if (!aborted(issues, 0)) {
      live = issues
      count++
    }
  }
  if (count === 1 && live) out.push(...live)
  else issue(out, 'invalid_union', path, 'Invalid input')
}

/** `z.discriminatedUnion(key, …)`: the option named by `input[key]`, else an issue at `key`. */
export const tagged = (key: string, options: Readonly<Record<string, Shape>>): Shape => (input, out, path) => {
  if (!isObject(input)) return invalidType(out, path, 'object', input)
  const tag = input[key]
  if (typeof tag === 'string' && hasOwn(options, tag)) return (options[tag] as Shape)(input, out, path)
  path.push(key)
  issue(out, 'invalid_union', path, `Invalid discriminator value. Expected ${Object.keys(options).map((name) => `'${name}'`).join(' | ')}`)
  path.pop()
}
