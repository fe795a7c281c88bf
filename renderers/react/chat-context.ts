import { createContext, useContext } from './react-api.js'
import { noChatError } from '../../src/view/no-chat-error.js'
import type { JsonObject } from '../../src/conversation/index.js'
import type { UseChatSessionReturn } from './use-chat-session.js'

/** What `<ChatSession>` hands its parts; each part also takes an explicit `chat` prop. */
export const ChatSessionContext = createContext<UseChatSessionReturn<JsonObject> | null>(null)

/** The `chat` prop if given, else the surrounding `<ChatSession>`'s; a clear error when neither. */
export function useChatFrom<Ctx extends JsonObject>(chat: UseChatSessionReturn<Ctx> | undefined, component: string): UseChatSessionReturn<Ctx>
/** With `optional`, null instead of the error (for parts that can work without a session). */
export function useChatFrom<Ctx extends JsonObject>(chat: UseChatSessionReturn<Ctx> | undefined, component: string, optional: boolean): UseChatSessionReturn<Ctx> | null
export function useChatFrom<Ctx extends JsonObject>(
  chat: UseChatSessionReturn<Ctx> | undefined,
  component: string,
  optional = false,
): UseChatSessionReturn<Ctx> | null {
  const fromContext = useContext(ChatSessionContext) as UseChatSessionReturn<Ctx> | null
  const resolved = chat ?? fromContext
  if (resolved === null && !optional) {
    throw noChatError(component, 'chat={useChatSession(definition)}')
  }
  return resolved
}
