import type { ControllerContext } from './controller-context.js'
import { runToolLoop } from './tool-loop.js'
import { runModelTurn } from './turn-runner.js'
import type { Turn } from './turn-tracker.js'

/**
 * What a controller loads with its first turn (model-turn-loader.ts), none of which an empty chat
 * needs: the turn's run, and the versions an edit or a regenerate keeps of what it replaced
 * (`MessageBranches`, made on the first fork).
 */
export { MessageBranches } from './message-branches.js'

/**
 * One run of a turn: the model call streamed into `assistantId` (turn-runner.ts), then the tool
 * loop while its calls need replies (tool-loop.ts). Like both steps, it never rejects.
 */
export async function runTurn(ctx: ControllerContext, turn: Turn, assistantId: string, query: string): Promise<void> {
  if (await runModelTurn(ctx, turn, assistantId, query)) await runToolLoop(ctx, turn, assistantId)
}
