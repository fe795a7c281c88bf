/** A plain object (not `null`, not an array): what tool args and chunk records must be. */
export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * Parses a `tool_call` chunk's JSON `args` string. Pure. Bad JSON, arrays and primitives all
 * become `{}` (as upstream), because a tool always receives an object.
 */
export function safeParseArgs(args: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(args)
    return isPlainObject(parsed) ? parsed : {}
  } catch {
    return {}
  }
}
