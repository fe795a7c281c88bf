import { ChatrailError, type ChatrailErrorOptions } from '../contract/errors.js'
import type { StreamChunk } from '../contract/stream.js'
import { turnContext } from './decide.js'
import { doneWithRecord, fingerprint } from './decision-record.js'
import { inputKeyOf } from './decisions.js'
import { isIdentifier } from './identifier.js'
import { advance } from './machine.js'
import { asPlainText } from './plain-text-chunk.js'
import { ChatrailRouteError } from './route-error.js'
import { normalizeOutput } from './route-output.js'
import { turnSignal } from './session-core.js'
import { DONE } from './stream.js'
import { TRANSITION_TOOL } from './transition-tool.js'

/**
 * What a turn's rare paths (turn-paths.ts: the agentic generator, a route's timeout, a failed
 * route's and a disposed session's error, route-wait.ts's wait for a route's promise) need
 * from the session's modules, handed to them instead of imported (the `ActionKit` pattern,
 * action-kit.ts). A turn loads them on first use: a plain turn (a route's answer, or the adapter's
 * chunks passed through to `done`) never runs them, and a helper they imported would move out of
 * the app's entry chunk into a chunk shared with theirs, growing every app's initial load by that
 * chunk's separate compression (issue 32). They take only `import type` from the session's modules.
 */
export interface TurnKit {
  readonly turnContext: typeof turnContext
  readonly normalizeOutput: typeof normalizeOutput
  readonly doneWithRecord: typeof doneWithRecord
  readonly fingerprint: typeof fingerprint
  readonly inputKeyOf: typeof inputKeyOf
  readonly turnSignal: typeof turnSignal
  readonly asPlainText: typeof asPlainText
  /** A `ChatrailError` (turn-failures.ts builds the session's own errors with it). */
  readonly error: (options: ChatrailErrorOptions) => ChatrailError
  /** A `ChatrailRouteError` (route-failure.ts words a failed route's). */
  readonly routeError: (options: ConstructorParameters<typeof ChatrailRouteError>[0]) => ChatrailRouteError
  readonly done: StreamChunk
  /** What agent-transitions.ts is handed in turn (see there). */
  readonly advance: typeof advance
  readonly isIdentifier: typeof isIdentifier
  readonly transitionTool: string
}

export const turnKit: TurnKit = {
  turnContext, normalizeOutput, doneWithRecord, fingerprint, inputKeyOf, turnSignal,
  asPlainText, error: (options) => new ChatrailError(options), routeError: (options) => new ChatrailRouteError(options), done: DONE, advance, isIdentifier, transitionTool: TRANSITION_TOOL,
}
