import type { ControllerContext } from './controller-context.js'
import { invokeCallback } from './event-emitter.js'
import type { Turn } from './turn-tracker.js'

/**
 * Ends `turn` as an error, as data: its source is aborted, the assistant `assistantId` and the
 * chat go to `error`, observers get `error`, then `onError`. A stale turn changes nothing.
 */
export function failTurn(ctx: ControllerContext, turn: Turn, assistantId: string, error: Error): false {
  if (turn.isCurrent()) {
    ctx.turns.supersede()
    ctx.store.dispatch({ type: 'turn-failed', assistantId, error })
    ctx.emit({ type: 'error', error })
    invokeCallback(ctx.config().onError, error)
  }
  return false
}
