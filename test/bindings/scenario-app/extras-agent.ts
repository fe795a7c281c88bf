import type { AdapterFactory, AdapterRequest } from '../../../src/contract/adapter.js'
import { sourceChunk } from '../../../src/contract/message-source.js'
import type { StreamChunk, StreamSource } from '../../../src/contract/stream.js'

/** The long tool output of the "logs" reply: 60 numbered lines, past the 20-line cut. */
export const LOG_LINES = Array.from({ length: 60 }, (_, i) => `line ${i + 1}: carrier scan ok`)

/** The last user message's text. */
function lastUserText(request: AdapterRequest): string {
  return [...request.messages].reverse().find((message) => message.role === 'user')?.content ?? ''
}

/**
 * The scripted agent of the scenario pages, plus one reply the bindings draw with their message
 * extras: a message mentioning "logs" gets reasoning, a tool call the agent ran itself (its result
 * is 60 lines, cut with "Show more"), a short answer and two cited sources, one with a title. Every
 * other message goes to `agent` unchanged.
 */
export function withExtrasReply<Agent extends AdapterFactory>(agent: Agent): Agent {
  const createSource = (request: AdapterRequest): StreamSource => {
    if (!/\blogs\b/i.test(lastUserText(request))) return agent.createSource(request)
    let aborted = false
    const chunks: StreamChunk[] = [
      { type: 'reasoning', content: 'The carrier log shows every scan; read it first.' },
      { type: 'tool_call', toolCall: { id: 'call_logs', name: 'read_carrier_log', args: JSON.stringify({ orderId: '12345' }), result: LOG_LINES.join('\n') } },
      { type: 'text', content: 'The log shows the parcel at the hub.' },
      sourceChunk({ url: 'https://example.com/carrier-log', title: 'Carrier log' }),
      sourceChunk({ url: 'https://example.com/shipping' }),
    ]
    async function* stream(): AsyncIterableIterator<StreamChunk> {
      for (const chunk of chunks) {
        await new Promise((resolve) => setTimeout(resolve, 10))
        if (aborted) return
        yield chunk
      }
      yield { type: 'done' }
    }
    return { stream, abort: () => { aborted = true } }
  }
  return { ...agent, createSource }
}
