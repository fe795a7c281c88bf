import type { ChatrailErrorOptions } from '../contract/errors.js'
import { ChatrailError } from '../contract/errors.js'
import { randomUUID } from '../contract/random-uuid.js'
import { ChatrailConfigError, configIssue } from './config-error.js'
import { isIdentifier } from './identifier.js'
import { isoTime } from './trace.js'

/**
 * What the action modules (action-confirmation.ts, capability-policy.ts, action-executor.ts) need
 * from the rest of chatrail, handed to them instead of imported. A session loads those modules on
 * first use (session-actions.ts); if they imported these helpers, a bundler would move the helpers
 * out of the app's entry chunk into a chunk shared with the lazy one, and the app's initial load
 * would grow by that chunk's separate compression (≈ 1.5 kB gzip measured with scripts/app-size.ts)
 * although no byte of the actions runs. The modules take only `import type` from here.
 */
export interface ActionKit {
  readonly error: (options: ChatrailErrorOptions) => ChatrailError
  readonly configError: (code: string, path: (string | number)[], message: string, hint: string) => ChatrailConfigError
  readonly isIdentifier: (value: unknown) => value is string
  readonly isoTime: (ms: number) => string
  readonly randomUUID: () => string
}

export const actionKit: ActionKit = {
  error: (options) => new ChatrailError(options),
  configError: (code, path, message, hint) => new ChatrailConfigError([configIssue(code, path, message, hint)]),
  isIdentifier,
  isoTime,
  randomUUID,
}
