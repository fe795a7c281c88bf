/**
 * Narrow readers for untrusted JSON (a CLI's stdout lines): each returns the field when it has the
 * expected type and `undefined` otherwise, so a mapper never throws on an odd shape.
 */

export type JsonRecord = Record<string, unknown>

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function recordField(value: unknown, key: string): JsonRecord | undefined {
  if (!isRecord(value)) return undefined
  const field = value[key]
  return isRecord(field) ? field : undefined
}

export function stringField(value: unknown, key: string): string | undefined {
  if (!isRecord(value)) return undefined
  const field = value[key]
  return typeof field === 'string' ? field : undefined
}

export function numberField(value: unknown, key: string): number | undefined {
  if (!isRecord(value)) return undefined
  const field = value[key]
  return typeof field === 'number' && Number.isFinite(field) ? field : undefined
}

export function arrayField(value: unknown, key: string): unknown[] | undefined {
  if (!isRecord(value)) return undefined
  const field = value[key]
  return Array.isArray(field) ? field : undefined
}

/** Parses one line of JSONL; `undefined` for blank, malformed or non-object lines. */
export function parseJsonLine(line: string): JsonRecord | undefined {
  const trimmed = line.trim()
  if (trimmed === '' || trimmed[0] !== '{') return undefined
  try {
    const value: unknown = JSON.parse(trimmed)
    return isRecord(value) ? value : undefined
  } catch {
    return undefined
  }
}
