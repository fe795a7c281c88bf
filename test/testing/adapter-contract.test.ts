import type { AdapterFactory, StreamChunk } from '../../src/index.js'
import { errorChunk, scriptedAdapter } from '../../src/testing/index.js'
import { runAdapterContract } from '../../src/testing/vitest.js'
import type { ScriptedAdapter } from '../../src/testing/index.js'

// The reference double must pass its own conformance suite: plain replies, a tool call, usage.
const script = (): ScriptedAdapter =>
  scriptedAdapter([
    [
      { type: 'reasoning', content: 'thinking' },
      { type: 'text', content: 'Hel' },
      { type: 'text', content: 'lo' },
      { type: 'tool_call', toolCall: { id: 'call-1', name: 'lookup', args: '{"q":"x"}' } },
      { type: 'usage', usage: { promptTokens: 3, completionTokens: 2, totalTokens: 5 } },
      { type: 'done' },
    ],
  ])

runAdapterContract('scriptedAdapter', script, {
  workCount: (factory) => factory.calls.filter((call) => call.streamed).length,
  failing: () => ({ factory: scriptedAdapter([[errorChunk('upstream 500')]]) }),
})

// Async-iterable steps are played verbatim; a well-behaved one passes too.
runAdapterContract('scriptedAdapter (async-iterable steps)', (): AdapterFactory =>
  scriptedAdapter([() => (async function* () {
    yield { type: 'text', content: 'streamed' } as StreamChunk
    await new Promise((resolve) => setTimeout(resolve, 1))
    yield { type: 'done' } as StreamChunk
  })()]), {
  failing: () => ({ factory: scriptedAdapter([() => (async function* () {
    yield errorChunk('failed after a tick')
  })()]) }),
  skip: { A1: 'laziness is covered by the chunk-list suite above (same createSource)' },
})
