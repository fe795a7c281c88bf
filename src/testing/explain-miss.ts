import { describeInput, formatRouteLines } from '../conversation/explain.js'
import type { TurnExplanation } from './conversations/run-result.js'

/** `no route matched: "…" in state "idle"` and one line per route saying why (matcher and conversation-file failures). */
export function explainMiss(explanation: TurnExplanation): string {
  return [`no route matched: ${describeInput(explanation.input, explanation.state)}`, ...formatRouteLines(explanation.routes)].join('\n')
}
