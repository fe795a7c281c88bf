import { defineComponent, h } from 'vue'
import { chatProp, flag } from './chat-prop.js'
import { useChatFrom } from './chat-context.js'

/**
 * The live status line (`role="status"`): the conversation's step and what is going on, both
 * decided by the view (`snapshot.badge`); the machine state, the last turn's kind and the agent's
 * run state are data attributes for styling and tests. The markup of chatrail/react's `<StateBadge>`.
 */
export const StateBadge = defineComponent({
  name: 'StateBadge',
  props: chatProp,
  setup(props) {
    const chat = useChatFrom(props.chat, 'StateBadge')
    return () => {
      const { badge, conversation, status, traces } = chat.snapshot.value
      const last = traces.at(-1)
      return h('p', {
        role: 'status',
        'data-chatrail-state-badge': '',
        'data-chatrail-state': badge.state,
        'data-chatrail-status': status,
        'data-chatrail-final': flag(conversation.final),
        'data-chatrail-turn-kind': last?.kind,
        'data-chatrail-replayed': flag(last?.replayed),
        'data-chatrail-agent': conversation.agent?.agent,
        'data-chatrail-agent-state': conversation.agent?.state,
      }, [h('strong', { 'data-chatrail-state-name': '' }, badge.name), ' ', h('span', { 'data-chatrail-status-words': '' }, badge.words)])
    }
  },
})
