import type { StreamChunk } from '../contract/stream.js'
import { errorClassOf } from './error-class.js'
import type { JsonObject } from './json.js'
import type { Failure } from './resolution.js'
import { routeFailureError } from './route-failure.js'
import type { TurnControl } from './session-core.js'
import type { TurnKit } from './turn-kit.js'
import type { TurnRecorder } from './turn-recorder.js'

/**
 * How a turn fails: an `error` chunk with a fixed, safe phrase, the cause riding in `metadata.error`
 * (stream.ts says what else the session emits). Loaded with the turn's rare paths (turn-paths.ts) by
 * the first turn that fails, so an app whose turns succeed never carries it (issue 32); the agent's
 * failures (agentic-generator.ts) use the same helpers. Types only from the session's modules, the
 * rest comes in the kit (turn-kit.ts says why).
 */

export const ROUTE_FAILED_MESSAGE = 'Sorry, that step failed. Nothing was changed; please try again.'
export const DISPOSED_MESSAGE = 'This conversation session was disposed.'

export function errorChunk(content: string, error: Error): StreamChunk {
  return { type: 'error', content, metadata: { error } }
}

/** An `Error` for `metadata.error`, wrapping a thrown non-error. */
export function asError(kit: Pick<TurnKit, 'error'>, cause: unknown, code: string, message: string): Error {
  return cause instanceof Error ? cause : kit.error({ code, message, cause })
}

/** A turn of a disposed session: its error, no trace (the session is gone). A stop before it is read ends it quietly. */
export async function* disposedTurn(kit: Pick<TurnKit, 'error'>, control: TurnControl): AsyncGenerator<StreamChunk, void> {
  if (control.aborted) return
  yield errorChunk(DISPOSED_MESSAGE, kit.error({ code: 'SESSION_DISPOSED', message: DISPOSED_MESSAGE, hint: 'Create a new session.' }))
}

/** A route failed (it threw, returned no answer, or the machine refused its transition): the turn ends in error, nothing committed. */
export async function* routeFailedTurn<Ctx extends JsonObject>(
  control: TurnControl,
  recorder: TurnRecorder<Ctx>,
  kit: Pick<TurnKit, 'routeError'>,
  failure: Failure<Ctx>,
): AsyncGenerator<StreamChunk, void> {
  if (control.aborted) return
  const error = routeFailureError(kit.routeError, failure)
  recorder.finish('error', undefined, { reason: failure.reason, errorClass: errorClassOf(error.cause ?? error) })
  yield errorChunk(ROUTE_FAILED_MESSAGE, error)
}
