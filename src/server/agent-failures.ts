import type { AdapterFactory } from '../contract/adapter.js'
import { ChatrailError } from '../contract/errors.js'

/**
 * The definition's agent as the handler's sessions get it: the same adapter, except that every
 * failure of a source (an `error` chunk, a throw from `createSource` or the stream) is handed to
 * `onError` as it happens. The session turns a failure into the definition's fallback answer, or
 * an error part that carries only a code, so without this a provider's 500 or a rejected model
 * call would be visible nowhere on the server. A failure after the source was aborted (a stop,
 * the turn timeout, a shutdown) is the abort's echo and is not reported. Every other property (a
 * live agent's `agentRunState`, `capabilities`) reads through.
 */
export function reportAgentFailures(adapter: AdapterFactory, onError: (error: unknown) => void): AdapterFactory {
  return new Proxy(adapter, {
    get(target, key) {
      if (key !== 'createSource') return Reflect.get(target, key, target) as unknown
      return (...args: Parameters<AdapterFactory['createSource']>) => {
        let source: ReturnType<AdapterFactory['createSource']>
        try {
          source = target.createSource(...args)
        } catch (error) {
          onError(error)
          throw error
        }
        let aborted = false
        return {
          abort: () => {
            aborted = true
            source.abort()
          },
          stream: async function* () {
            try {
              for await (const chunk of source.stream()) {
                if (chunk.type === 'error' && !aborted) onError(failureOf(chunk.metadata?.error, chunk.content))
                yield chunk
              }
            } catch (error) {
              if (!aborted) onError(error)
              throw error
            }
          },
        }
      }
    },
  })
}

/** The error an `error` chunk carries, or one saying what it said when it carries none. */
function failureOf(carried: unknown, content: string | undefined): unknown {
  if (carried !== undefined) return carried
  return new ChatrailError({ code: 'AGENT_ERROR', message: `The agent's stream ended in an error${content ? `: ${content}` : ''}.` })
}
