import { defineComponent, h } from 'vue'
import type { PropType, VNodeChild } from 'vue'
import type { ComponentPart } from '../../src/contract/component-part.js'
import { componentKeyOf } from '../../src/view/component-key.js'
import { checkedProps } from '../../src/view/component-props.js'
import type { ComponentViews } from './component-part.js'
import { STANDARD_VIEWS } from './component-views.js'
import type { StandardView } from './component-views.js'
import type { UseChatSessionReturn } from './use-chat-session.js'

/**
 * The component UI chunk of chatrail/vue (loaded the first time a message holds a component): one
 * part, checked against the definition's registry (and the standard schema for a standard key),
 * then drawn by the app's view for its key if it gave one, else the standard view, else its
 * fallback summary (the same rule as chatrail/react). Answered once the view says so
 * (`snapshot.componentAnswers`: history, or a click in flight), and then it sends nothing: the
 * view's `interact` sends one interaction per component, however many clicks.
 */
export const ComponentPartContent = defineComponent({
  name: 'ComponentPartContent',
  inheritAttrs: false,
  props: {
    chat: { type: Object as PropType<UseChatSessionReturn>, required: true },
    messageId: { type: String, required: true },
    part: { type: Object as PropType<ComponentPart>, required: true },
    views: { type: Object as PropType<ComponentViews>, default: undefined },
    /** The entry's fallback summary (this chunk shares no module with the entry). */
    fallback: { type: Function as PropType<(part: ComponentPart) => VNodeChild>, required: true },
  },
  setup(props) {
    return () => {
      const { chat, messageId, part } = props
      const checked = checkedProps(part, chat.view.binding.session.definition.components)
      if (!checked.ok) return props.fallback(part)
      const key = part.componentKey
      const answered = chat.snapshot.value.componentAnswers.get(componentKeyOf(messageId, part.instanceId))
      const interact = (event: string, value?: unknown, label?: string): void => {
        // a send that failed frees the component again; nothing else to do here
        void chat.interact(messageId, part, event, value, label).catch(() => undefined)
      }
      const custom = props.views !== undefined && Object.hasOwn(props.views, key) ? props.views[key] : undefined
      const standard = Object.hasOwn(STANDARD_VIEWS, key) ? (STANDARD_VIEWS as Record<string, StandardView>)[key] : undefined
      const content = custom !== undefined
        ? custom({ part, props: checked.props, messageId, answered, interact })
        : standard !== undefined ? standard(checked.props, answered, interact, chat) : props.fallback(part)
      return h('div', { 'data-chatrail-component-part': '', 'data-chatrail-component-key': key }, [content])
    }
  },
})
