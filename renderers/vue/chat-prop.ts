import type { PropType } from 'vue'
import type { UseChatSessionReturn } from './use-chat-session.js'

/** The `chat` prop every part takes (else the surrounding `<ChatSession>`'s chat). */
export const chatProp = { chat: { type: Object as PropType<UseChatSessionReturn>, default: undefined } }

/** `data-chatrail-*` flags: present (`""`) or absent, as chatrail/react renders them. */
export const flag = (on: boolean | undefined): '' | undefined => (on ? '' : undefined)
