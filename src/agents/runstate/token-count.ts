/**
 * Token counts come from untrusted files: `-1`, `1e309` (JSON.parse reads it as Infinity, which
 * JSON.stringify then writes as `null`), `2.5` or `2 ** 60` must not reach a chat's `usage`. A
 * count is a non-negative safe integer; readers leave out a reading that has anything else and
 * say so in `warnings` (issue 15 item 13).
 */
export function isTokenCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
}

/** How a bad count is named in a warning (`-1`, `1e309` → `Infinity`, `"12"`). */
export function describeCount(value: unknown): string {
  return typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value))
}
