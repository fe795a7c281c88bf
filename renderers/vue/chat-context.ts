import { inject } from 'vue'
import type { InjectionKey } from 'vue'
import { noChatError } from '../../src/view/no-chat-error.js'
import type { ChatLabels } from '../../src/view/chat-labels.js'
import type { UseChatSessionReturn } from './use-chat-session.js'

/** What `<ChatSession>` provides its parts; each part also takes an explicit `chat` prop. */
export const chatSessionKey: InjectionKey<UseChatSessionReturn> = Symbol('chatrail.chat')

/** The `chat` prop if given, else the surrounding `<ChatSession>`'s; a clear error when neither. Call in `setup()`. */
export function useChatFrom(chat: UseChatSessionReturn | undefined, component: string): UseChatSessionReturn {
  const resolved = chat ?? inject(chatSessionKey, null)
  if (resolved === null) {
    throw noChatError(component, ':chat="useChatSession(definition)"')
  }
  return resolved
}

/** `defaults` with the chat's own words (`options.labels`) over them. */
export function wordsOf<T extends Partial<ChatLabels>>(defaults: T, chat: UseChatSessionReturn): T {
  return { ...defaults, ...chat.labels }
}
