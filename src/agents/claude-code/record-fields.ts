/**
 * Reading fields of untrusted transcript records. Every accessor returns `undefined` for a missing
 * or mistyped field, so the fold never throws on a record a newer CLI shaped differently.
 */

export type JsonObject = Record<string, unknown>

export function asObject(value: unknown): JsonObject | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : undefined
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}

export function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined
}

export function arr(value: unknown): unknown[] | undefined {
  return Array.isArray(value) ? value : undefined
}

/** `Date.parse` that returns `undefined` instead of `NaN`. */
export function epochMs(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined
  const ms = Date.parse(value)
  return Number.isNaN(ms) ? undefined : ms
}
