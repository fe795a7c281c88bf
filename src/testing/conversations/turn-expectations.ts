import type { JsonObject } from '../../index.js'
import { contextDifferences, formatContextDifferences, show } from '../context-match.js'
import type { TurnExpectation } from './file-schema.js'
import type { TurnResult } from './run-result.js'
import { explainMiss } from '../explain-miss.js'

/** One expectation a turn did not meet. */
export interface ExpectationFailure {
  field: keyof TurnExpectation
  expected: unknown
  actual: unknown
  /** `route: expected "refund", got "help"` (several lines for a context difference). */
  message: string
}

const quote = (value: unknown): string => (value === null ? 'no route' : show(value))

/**
 * Checks a turn against its `expect` block, in a fixed field order. Pure. A turn that errored
 * fails unless `error` says it should, so a broken route never passes silently.
 */
export function checkTurnExpectations(turn: TurnResult<JsonObject>, expect: TurnExpectation): ExpectationFailure[] {
  const failures: ExpectationFailure[] = []
  const fail = (field: keyof TurnExpectation, expected: unknown, actual: unknown, message?: string): void => {
    failures.push({ field, expected, actual, message: message ?? `${field}: expected ${quote(expected)}, got ${quote(actual)}` })
  }
  const trace = turn.trace
  if (expect.route !== undefined) {
    const actual = trace?.routeId ?? null
    const why = actual === null && turn.explanation ? `\n${explainMiss(turn.explanation)}` : ''
    if (actual !== expect.route) fail('route', expect.route, actual, `route: expected ${quote(expect.route)}, got ${quote(actual)}${why}`)
  }
  if (expect.kind !== undefined && trace?.kind !== expect.kind) fail('kind', expect.kind, trace?.kind ?? null, `kind: expected ${expect.kind}, got ${trace?.kind ?? 'no trace'}`)
  if (expect.outcome !== undefined && trace?.outcome !== expect.outcome) fail('outcome', expect.outcome, trace?.outcome ?? null, `outcome: expected ${expect.outcome}, got ${trace?.outcome ?? 'no trace'}`)
  if (expect.state !== undefined && turn.snapshot.state !== expect.state) fail('state', expect.state, turn.snapshot.state)
  if (expect.context !== undefined) {
    const differences = contextDifferences(turn.snapshot.context, expect.context)
    if (differences.length > 0) fail('context', expect.context, turn.snapshot.context, `context differs:\n${formatContextDifferences(differences)}`)
  }
  if (expect.reply !== undefined && turn.reply !== expect.reply) fail('reply', expect.reply, turn.reply)
  if (expect.replyMatches !== undefined && !new RegExp(expect.replyMatches).test(turn.reply)) {
    fail('replyMatches', expect.replyMatches, turn.reply, `reply: expected to match /${expect.replyMatches}/, got ${show(turn.reply)}`)
  }
  if (expect.modelCalls !== undefined && turn.adapterCalls.length !== expect.modelCalls) fail('modelCalls', expect.modelCalls, turn.adapterCalls.length)
  if (expect.replayed !== undefined && (trace?.replayed ?? false) !== expect.replayed) {
    fail('replayed', expect.replayed, trace?.replayed ?? null, expect.replayed ? 'replayed: expected a replay from the decision cache, but the turn was decided afresh' : 'replayed: expected a fresh decision, but the turn was replayed')
  }
  const error = turn.error
  const wanted = expect.error ?? false
  if (wanted === false && error !== undefined) fail('error', false, error, `error: the turn failed: ${error}`)
  if (wanted === true && error === undefined) fail('error', true, null, 'error: expected the turn to fail, but it succeeded')
  if (typeof wanted === 'string' && !(error ?? '').includes(wanted)) {
    fail('error', wanted, error ?? null, error === undefined ? `error: expected a failure containing ${show(wanted)}, but the turn succeeded` : `error: expected ${show(wanted)} in ${show(error)}`)
  }
  return failures
}
