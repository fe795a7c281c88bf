import type { StreamChunk } from '../contract/stream.js'
import { turnContext, within } from './decide.js'
import { doneWithRecord, fingerprint } from './decision-record.js'
import { inputKeyOf } from './decisions.js'
import { isIdentifier } from './identifier.js'
import { advance } from './machine.js'
import { asPlainText } from './plain-text-chunk.js'
import { normalizeOutput } from './route-output.js'
import { turnSignal } from './session-core.js'
import { asError, DONE, errorChunk } from './stream.js'
import { errorClassOf } from './trace.js'
import { TRANSITION_TOOL } from './transition-tool.js'
import { untilStopped } from './until-stopped.js'

/**
 * What a turn's rare paths (turn-paths.ts: the agentic generator, a route's timeout) need
 * from the session's modules, handed to them instead of imported (the `ActionKit` pattern,
 * action-kit.ts). A turn loads them on first use: a plain turn (a route's answer, or the adapter's
 * chunks passed through to `done`) never runs them, and a helper they imported would move out of
 * the app's entry chunk into a chunk shared with theirs, growing every app's initial load by that
 * chunk's separate compression (issue 32). They take only `import type` from the session's modules.
 */
export interface TurnKit {
  readonly turnContext: typeof turnContext
  readonly within: typeof within
  readonly untilStopped: typeof untilStopped
  readonly normalizeOutput: typeof normalizeOutput
  readonly doneWithRecord: typeof doneWithRecord
  readonly fingerprint: typeof fingerprint
  readonly inputKeyOf: typeof inputKeyOf
  readonly errorClassOf: typeof errorClassOf
  readonly turnSignal: typeof turnSignal
  readonly asPlainText: typeof asPlainText
  readonly asError: typeof asError
  readonly errorChunk: typeof errorChunk
  readonly done: StreamChunk
  /** What agent-transitions.ts is handed in turn (see there). */
  readonly advance: typeof advance
  readonly isIdentifier: typeof isIdentifier
  readonly transitionTool: string
}

export const turnKit: TurnKit = {
  turnContext, within, untilStopped, normalizeOutput, doneWithRecord, fingerprint, inputKeyOf, errorClassOf, turnSignal,
  asPlainText, asError, errorChunk, done: DONE, advance, isIdentifier, transitionTool: TRANSITION_TOOL,
}
