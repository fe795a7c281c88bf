import type { AdapterFactory } from '../contract/adapter.js'

/**
 * The agent as the binding hands it to the session: the same adapter, except that a failure of
 * its stream (an `error` chunk, a throw) is reported to `onFailure` before the session sees it,
 * i.e. before the definition's fallback answer starts streaming into the same reply. That is the
 * one moment the partial answer's end is known, so the fallback can be shown as its own bubble.
 * Every other property (a live agent's `agentRunState`, `capabilities`) reads through.
 */
export function watchFailures(adapter: AdapterFactory, onFailure: () => void): AdapterFactory {
  return new Proxy(adapter, {
    get(target, key) {
      if (key !== 'createSource') return Reflect.get(target, key, target) as unknown
      return (...args: Parameters<AdapterFactory['createSource']>) => {
        const source = target.createSource(...args)
        return {
          abort: () => source.abort(),
          stream: async function* () {
            try {
              for await (const chunk of source.stream()) {
                if (chunk.type === 'error') onFailure()
                yield chunk
              }
            } catch (error) {
              onFailure()
              throw error
            }
          },
        }
      }
    },
  })
}
