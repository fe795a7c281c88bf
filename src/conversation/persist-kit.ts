import { ChatrailConfigError, configIssue } from './config-error.js'
import { fingerprint } from './decision-record.js'
import { isIdentifier } from './identifier.js'
import { deepFreeze, findNonJson } from './json.js'
import { isSessionConflictError, SessionConflictError } from './session-storage.js'

/**
 * What the snapshot modules (persist-session.ts, persist-envelope.ts) need from the rest of
 * chatrail, handed to them instead of imported (the `ActionKit` pattern, action-kit.ts): they load
 * on first use, and a helper they imported would move out of the app's entry chunk into a chunk
 * shared with theirs, growing every app's initial load by that chunk's separate compression
 * although no byte of persistence runs. They take only `import type` from here.
 */
export interface PersistKit {
  readonly configError: (code: string, path: (string | number)[], message: string, hint: string) => ChatrailConfigError
  readonly conflict: (sessionId: string, expectedCursor: number | undefined) => SessionConflictError
  readonly isConflict: (value: unknown) => boolean
  readonly fingerprint: (text: string) => string
  readonly isIdentifier: (value: unknown) => value is string
  readonly findNonJson: (value: unknown) => (string | number)[] | undefined
  readonly deepFreeze: <T>(value: T) => T
}

export const persistKit: PersistKit = {
  configError: (code, path, message, hint) => new ChatrailConfigError([configIssue(code, path, message, hint)]),
  conflict: (sessionId, expectedCursor) => new SessionConflictError(sessionId, expectedCursor),
  isConflict: isSessionConflictError,
  fingerprint,
  isIdentifier,
  findNonJson: (value) => findNonJson(value),
  deepFreeze,
}
