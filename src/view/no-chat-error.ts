import { ChatrailError } from '../contract/errors.js'

/**
 * What a chat part (a message list, a composer, a badge…) throws when it is given no chat and sits
 * in no `<ChatSession>`: the same error in every binding, each naming how it passes a chat
 * (`pass`: `chat={useChatSession(definition)}` in React, `:chat="useChatSession(definition)"` in
 * Vue, `chat={createChatSession(definition)}` in Svelte).
 */
export function noChatError(component: string, pass: string): ChatrailError {
  return new ChatrailError({
    code: 'NO_CHAT_SESSION',
    message: `<${component}> has no chat`,
    hint: `Render it inside <ChatSession>, or pass ${pass}.`,
  })
}
