import type { AdapterRequest } from '../../../src/contract/adapter.js'
import type { StreamChunk } from '../../../src/contract/stream.js'
import type { ChatDefinition } from '../../../src/index.js'
import type { LostCardContext } from '../../../examples/lost-card/definition.js'
import { everyTurnKindChat, lastUserText } from '../fixtures/every-turn-kind.js'

/**
 * The API suites' chat: examples/lost-card with an agent behind it, so one stored conversation
 * holds every kind of turn a history can tell: deterministic, form, refused, unavailable,
 * agentic, failed (the `crash` route throws), and routes traced as repaired and as fallback. An
 * agent that breaks off ("break") is answered by the definition's fallback: stored as agentic.
 * The agent's answer is fixed text, so an export's scripted replies replay it exactly.
 */

export const agentAdapter = {
  createSource: (request: AdapterRequest) => ({
    abort: () => undefined,
    async *stream(): AsyncIterableIterator<StreamChunk> {
      if (lastUserText(request).includes('break')) {
        yield { type: 'text', content: 'Let me see' }
        yield { type: 'error', content: 'the agent broke off' }
        return
      }
      yield { type: 'text', content: 'I am the agent: I can replace a lost card. Type /start.' }
      yield { type: 'done' }
    },
  }),
}

export const apiChat: ChatDefinition<LostCardContext> = everyTurnKindChat(agentAdapter)

export default apiChat
