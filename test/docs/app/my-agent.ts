import type { AdapterFactory } from 'chatrail'

/**
 * Stand-ins for an app's own agent adapter, which doc blocks import as `./my-agent.js`
 * (conversation.md, controller.md, testing.md): any AgentsKit-style AdapterFactory. These answer
 * with a fixed text and count the requests they were sent.
 */

export type MyAdapter = AdapterFactory & { readonly requestsSent: number }

export function myAdapter(options: { url?: string; reply?: string } = {}): MyAdapter {
  let sent = 0
  return {
    get requestsSent() {
      return sent
    },
    createSource: () => ({
      abort: () => undefined,
      async *stream() {
        sent += 1
        if (options.url !== undefined) {
          // The failing variant: an unreachable provider.
          yield { type: 'error', content: `cannot reach ${options.url}` }
          return
        }
        yield { type: 'text', content: options.reply ?? 'A specialist will look into it.' }
        yield { type: 'done' }
      },
    }),
  }
}

export const myAgentAdapter: AdapterFactory = myAdapter()
