import type { AdapterFactory } from '../../src/contract/adapter.js'
import type { StreamChunk, StreamSource } from '../../src/contract/stream.js'

/** The benches' agent: one text chunk and done, so a row measures chatrail's work, not a model's. */
export const scripted: AdapterFactory = {
  createSource: (): StreamSource => ({
    stream: async function* (): AsyncGenerator<StreamChunk> {
      yield { type: 'text', content: 'scripted' }
      yield { type: 'done' }
    },
    abort: () => undefined,
  }),
}
