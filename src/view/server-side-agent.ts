import type { AdapterFactory } from '../contract/adapter.js'
import { ChatrailError } from '../contract/errors.js'

/**
 * The agent of a definition whose turns run on a chatrail server: a page in remote mode needs
 * the definition (for its routes and states) but not the agent, whose keys and code belong on
 * the server. `defineChat` requires an agent, so the page passes this one; it answers any turn
 * that reaches it (a bug: remote mode never runs turns locally) with one clear error.
 */
export const serverSideAgent: AdapterFactory = {
  createSource: () => ({
    abort: () => undefined,
    async *stream() {
      const error = new ChatrailError({
        code: 'SERVER_SIDE_AGENT',
        message: 'This definition\'s agent runs on the chatrail server; a turn reached the page\'s copy.',
        hint: 'Use useRemoteChatSession / <RemoteChatSession> (chatrail/react/remote), which send every turn to the server.',
      })
      yield { type: 'error', content: error.message, metadata: { error } }
    },
  }),
}
