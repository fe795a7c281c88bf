/**
 * Route ids, state names, event names, definition ids and session ids must be identifier-safe so
 * they survive every place they travel (history records, traces, persisted sessions, CSS ids).
 * Checked when the definition is built, never discovered when persisting fails.
 */
export const IDENTIFIER_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/

export function isIdentifier(value: unknown): value is string {
  return typeof value === 'string' && IDENTIFIER_PATTERN.test(value)
}

/** A safe identifier derived from `value` (`/start` → `start`, `my route` → `my-route`). */
export function toIdentifier(value: string): string {
  const cleaned = value
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9._:-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .replace(/-+$/, '')
    .slice(0, 128)
  return cleaned === '' ? 'id' : cleaned
}

/** The hint for an unsafe identifier, with a concrete replacement. */
export function identifierHint(value: unknown): string {
  const rule = 'use letters, digits and . _ : - (starting with a letter or digit, at most 128 characters)'
  return typeof value === 'string' && value !== '' ? `${rule}, e.g. "${toIdentifier(value)}".` : `${rule}.`
}
