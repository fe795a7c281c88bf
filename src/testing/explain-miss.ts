import { describeInput, describeOutcome, formatRouteLines } from '../conversation/explain.js'
import type { TurnExplanation } from './conversations/run-result.js'

/**
 * `no route matched: "…" in state "idle"; <what the turn did instead>` and one line per route
 * saying why (matcher and conversation-file failures). The "instead" is the session's own decision
 * (a form slot, a stale UI event, the agent), so the message never implies the agent answered a
 * turn a form took.
 */
export function explainMiss(explanation: TurnExplanation): string {
  const { outcome } = explanation
  const heading = outcome.routeId === undefined ? `no route matched: ${describeInput(explanation.input, explanation.state)}; ${outcome.detail}` : `${describeInput(explanation.input, explanation.state)}: ${describeOutcome(outcome)}`
  return [heading, ...formatRouteLines(explanation.routes, outcome.routeId ?? null)].join('\n')
}
