import type * as OpenTelemetryApiModule from '@opentelemetry/api'

/**
 * `@opentelemetry/api`, loaded only when a handler's telemetry is on: chatrail/server never imports
 * it statically (an app without it bundles and runs as before), and an app without it installed
 * gets no telemetry and no error.
 */
export type OpenTelemetryApi = typeof OpenTelemetryApiModule

/** Resolves the API, or undefined when it is not installed; rejects when it is installed but fails to load. */
export type OpenTelemetryApiLoader = () => Promise<OpenTelemetryApi | undefined>

export const loadOpenTelemetryApi: OpenTelemetryApiLoader = async () => {
  let loaded: unknown
  try {
    loaded = await import('@opentelemetry/api')
  } catch (error) {
    if (notInstalled(error)) return undefined
    throw error
  }
  // the CommonJS build's exports may arrive on `default`, as pg's do
  const api = loaded as Partial<OpenTelemetryApi> & { readonly default?: OpenTelemetryApi }
  return api.trace ? (api as OpenTelemetryApi) : api.default
}

/**
 * Node's "not found" codes for ESM and CommonJS resolution, or a message saying so; also when a
 * loader in between (a test runner's, a bundler's) wraps that error and keeps it as `cause`.
 */
function notInstalled(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 3) return false
  const { code, message, cause } = error as { code?: unknown; message?: unknown; cause?: unknown }
  if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') return true
  if (typeof message === 'string' && /cannot find (module|package) ['"]@opentelemetry\/api['"]/i.test(message)) return true
  return notInstalled(cause, depth + 1)
}
