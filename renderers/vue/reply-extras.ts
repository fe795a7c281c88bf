import { defineComponent, h } from 'vue'
import type { PropType } from 'vue'
import type { Message, ToolCall } from '../../src/contract/message.js'
import { sourcesOf } from '../../src/contract/message-source.js'
import { reasoningOf } from '../../src/view/reasoning.js'
import type { UseChatSessionReturn } from './use-chat-session.js'
import { ReasoningSection } from './reasoning-section.js'
import { SourceList } from './source-list.js'
import { ToolCallList } from './tool-calls.js'

/**
 * The reply extras chunk of chatrail/vue (as chatrail/react's message extras), loaded with the
 * first reply: what leads a reply (`at: 'start'`: its "Thinking" disclosure, not on the part after
 * a dialog) and what closes it before its actions (`at: 'end'`: its tool calls as cards with
 * Approve / Deny, then the sources it cites, not under the part before a dialog).
 */
export const ReplyExtras = defineComponent({
  name: 'ReplyExtras',
  inheritAttrs: false,
  props: {
    chat: { type: Object as PropType<UseChatSessionReturn>, required: true },
    message: { type: Object as PropType<Message>, required: true },
    part: { type: String as PropType<'before' | 'after' | 'fallback'>, default: undefined },
    at: { type: String as PropType<'start' | 'end'>, required: true },
    calls: { type: Array as PropType<readonly ToolCall[]>, required: true },
  },
  setup: (props) => () => {
    const { chat, message, part } = props
    if (props.at === 'start') {
      const reasoning = part === 'after' || part === 'fallback' ? '' : reasoningOf(message)
      return reasoning === '' ? null : h(ReasoningSection, { chat, text: reasoning, streaming: message.status === 'streaming' })
    }
    const sources = part === 'before' ? [] : sourcesOf(message)
    return [
      props.calls.length === 0 ? null : h(ToolCallList, { chat, calls: props.calls }),
      sources.length === 0 ? null : h(SourceList, { chat, sources }),
    ]
  },
})
