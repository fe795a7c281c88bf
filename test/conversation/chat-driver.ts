import { createChatController } from '../../src/controller/index.js'
import type { Message } from '../../src/contract/message.js'
import { createChatSession, sendUiEvent, type ChatDefinition, type ChatSession, type ChatSessionOptions, type JsonObject } from '../../src/index.js'

/**
 * A session driven through a real controller (the way apps run it): the controller keeps each
 * answer's decision record, and `rebuilt()` is a fresh session synced to that history.
 */
export function drive<Ctx extends JsonObject>(definition: ChatDefinition<Ctx>, options: ChatSessionOptions<Ctx> = {}) {
  const session: ChatSession<Ctx> = createChatSession(definition, { lint: false, ...options })
  let n = 0
  const controller = createChatController(session.chat, { ids: () => `m${++n}`, clock: () => new Date(0) })
  controller.subscribe(() => session.sync(controller.getState().messages))
  const messages = (): Message[] => controller.getState().messages
  return {
    session,
    controller,
    messages,
    say: (text: string) => controller.send(text),
    click: (event: string) => sendUiEvent(controller, event, `Button ${event}`),
    /** The last answer's text. */
    reply: (): string => messages().findLast((m) => m.role === 'assistant')?.content ?? '',
    last: () => session.traces().at(-1),
    rebuilt: (): ChatSession<Ctx> => {
      const fresh = createChatSession(definition, { lint: false })
      fresh.sync(messages())
      return fresh
    },
  }
}
