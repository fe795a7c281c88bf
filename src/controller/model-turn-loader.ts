import type { ControllerContext } from './controller-context.js'
import { describeThrown, ErrorCodes, RuntimeError } from './errors.js'
import { lazyModule } from './lazy-module.js'
import type * as ModelTurn from './model-turn.js'
import { failTurn } from './turn-failure.js'
import type { Turn } from './turn-tracker.js'

/**
 * Loads model-turn.ts (the model call, the stream it reads, the request it builds, the tool loop)
 * on first use, once per process: an app's first screen (an empty chat and a composer) runs no
 * turn, so none of it is in its initial load (issue 32). A controller starts loading it in the
 * background when a UI subscribes to it or the user starts typing (`prefetchModelTurn`); a send
 * before that waits for it. Once loaded, `runTurnWhenLoaded` calls straight through, so a turn's
 * synchronous start happens in the caller's tick, as before the split.
 */

export type ModelTurnModule = typeof ModelTurn

const modelTurn = lazyModule(() => import('./model-turn.js'))

/** The module when it is loaded, else `undefined` (no turn has run or been prefetched yet). */
export const loadedModelTurn: () => ModelTurnModule | undefined = modelTurn.loaded

/** Loads the module (once; later calls share the first's promise, and a failed load is tried again). */
export const loadModelTurn: () => Promise<ModelTurnModule> = modelTurn.load

/** Starts loading the module in the background; a failure here is left to the first turn, which loads again. */
export function prefetchModelTurn(): void {
  if (!modelTurn.loaded()) modelTurn.load().catch(() => undefined)
}

/**
 * Runs the turn (`runTurn`): at once when the module is loaded, else once it is. A module that
 * cannot load (a network failure, a stale deploy) fails the turn as data, like any other failure
 * on its way (`AK_RUNTIME_STEP_FAILED`); the next turn tries the load again. Never rejects.
 */
export function runTurnWhenLoaded(ctx: ControllerContext, turn: Turn, assistantId: string, query: string): Promise<void> {
  const loaded = modelTurn.loaded()
  if (loaded) return loaded.runTurn(ctx, turn, assistantId, query)
  return modelTurn.load().then(
    (module) => module.runTurn(ctx, turn, assistantId, query),
    (thrown: unknown) => {
      failTurn(ctx, turn, assistantId, new RuntimeError({ code: ErrorCodes.AK_RUNTIME_STEP_FAILED, message: `The turn could not start: its code did not load (${describeThrown(thrown)})`, cause: thrown }))
    },
  )
}
