/**
 * Parses a `tool_call` chunk's JSON `args` string. Pure. Bad JSON, arrays and primitives all
 * become `{}` (as upstream), because a tool always receives an object.
 */
export function safeParseArgs(args: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(args)
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {}
  } catch {
    return {}
  }
}
