const SAFE_CLASS = /^[A-Za-z_$][\w$.-]{0,63}$/

/**
 * The class name of a thrown value, safe to put in a trace (never its message). Its own module: only
 * a failed turn needs it (turn-failures.ts, agentic-generator.ts, loaded on first use) and chatrail/server's
 * telemetry, so a session whose turns succeed never carries it (issue 32).
 */
export function errorClassOf(error: unknown): string {
  if (error instanceof Error || (typeof error === 'object' && error !== null && 'name' in error)) {
    const name = (error as { name?: unknown }).name
    if (typeof name === 'string' && SAFE_CLASS.test(name)) return name
    const ctor = (error as { constructor?: { name?: unknown } }).constructor?.name
    if (typeof ctor === 'string' && SAFE_CLASS.test(ctor)) return ctor
    return 'Error'
  }
  return typeof error === 'string' ? 'StringThrown' : 'NonErrorThrown'
}
