import { MAX_SOURCES, sourceOfChunk } from '../contract/message-source.js'
import { buildMessage } from './build-message.js'
import { loadedToolHandling, withToolHandling } from './tool-loader.js'

/**
 * What the controller's lazily loaded steps (a turn's code, model-turn.ts; the tool handling,
 * tool-handling.ts) take from the rest of the controller, handed to them in the context
 * (`ControllerContext.kit`) instead of imported: a module both the controller's entry and a lazy
 * step imported would be split off by a bundler into a chunk shared with the app's entry, one more
 * download and gzip stream for its first screen (the kit pattern of src/conversation/action-kit.ts).
 * The steps take only `import type` from these modules.
 */
export interface ControllerKit {
  readonly buildMessage: typeof buildMessage
  /** A cited source carried by a text chunk (`metadata.source`), and how many a reply keeps. */
  readonly sourceOfChunk: typeof sourceOfChunk
  readonly maxSources: number
  readonly loadedToolHandling: typeof loadedToolHandling
  readonly withToolHandling: typeof withToolHandling
}

export const controllerKit: ControllerKit = { buildMessage, sourceOfChunk, maxSources: MAX_SOURCES, loadedToolHandling, withToolHandling }
