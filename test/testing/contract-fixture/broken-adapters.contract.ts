// Not a test of its own: test/testing/adapter-contract-detects.test.ts runs this file in a child
// vitest and checks that each deliberately broken adapter fails exactly the invariants it breaks.
import type { AdapterFactory, AdapterRequest, StreamChunk, StreamSource } from '../../../src/index.js'
import { errorChunk } from '../../../src/testing/index.js'
import { runAdapterContract } from '../../../src/testing/vitest.js'

type Breakage = 'eager' | 'two-terminals' | 'abort-throws' | 'mutates' | 'ignores-abort' | 'bad-chunk' | 'partial-args' | 'throws'

function broken(kind: Breakage): AdapterFactory & { work: number } {
  const factory = {
    work: 0,
    createSource: (request: AdapterRequest): StreamSource => {
      if (kind === 'eager') factory.work += 1
      let aborted = false
      return {
        abort: () => {
          aborted = true
          if (kind === 'abort-throws') throw new Error('abort exploded')
        },
        stream: async function* (): AsyncGenerator<StreamChunk> {
          if (kind === 'mutates') request.messages.push(request.messages[0] as never)
          if (kind === 'throws') throw new Error('network down')
          for (let index = 0; index < 3; index += 1) {
            if (aborted && kind !== 'ignores-abort') return
            await new Promise((resolve) => setTimeout(resolve, 1))
            yield kind === 'bad-chunk' ? ({ type: 'text', content: 42 } as unknown as StreamChunk) : { type: 'text', content: `w${index}` }
          }
          if (kind === 'partial-args') yield { type: 'tool_call', toolCall: { id: 't', name: 'n', args: '{"a":' } }
          yield { type: 'done' }
          if (kind === 'two-terminals') yield { type: 'done' }
        },
      }
    },
  }
  return factory
}

for (const kind of ['eager', 'two-terminals', 'abort-throws', 'mutates', 'ignores-abort', 'bad-chunk', 'partial-args'] as const) {
  runAdapterContract(kind, () => broken(kind), { workCount: (factory) => factory.work, timeoutMs: 2000 })
}
runAdapterContract('throws', () => broken('bad-chunk'), {
  failing: () => ({ factory: broken('throws') }),
  skip: { A4: 'only A9 is under test here' },
  timeoutMs: 2000,
})
runAdapterContract('failure without metadata.error', () => broken('bad-chunk'), {
  failing: () => ({ factory: { createSource: () => ({ abort: () => undefined, stream: async function* () { yield { ...errorChunk('x'), metadata: {} } } }) } }),
  skip: { A4: 'only A9 is under test here' },
  timeoutMs: 2000,
})
